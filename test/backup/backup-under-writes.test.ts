import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { runInProcess, runProcess, tempDir } from '../cli/support.js';
import { backupTargets } from './support.js';

const WRITERS = 10;

/** A workspace with an owner key, through the CLI. */
async function labWithKey(
  env: Record<string, string>,
): Promise<{ workspaceId: string; key: string }> {
  const workspace = await runInProcess(env, 'workspace', 'create', '--name', 'Busy lab');
  const member = await runInProcess(
    env,
    'member',
    'add',
    '--workspace',
    workspace.out.id,
    '--name',
    'Writer',
    '--role',
    'owner',
  );
  const key = await runInProcess(env, 'key', 'create', '--member', member.out.id);
  return { workspaceId: workspace.out.id, key: key.out.key };
}

describe.each(backupTargets())('a backup while 10 clients write, $name', (target) => {
  afterAll(() => target.cleanup());

  it('restores to a sound database holding every write acknowledged before it began, none in part', async () => {
    const env = target.source();
    const { workspaceId, key } = await labWithKey(env);
    if (target.name === 'sqlite') {
      // Some bulk, so that the copy takes many steps while the writers go on.
      const db = new SqliteDatabase(loadConfig(env).database.url.slice('sqlite:'.length));
      db.exec('create table test_bulk (data blob)');
      const insert = db.prepare('insert into test_bulk (data) values (randomblob(4000))');
      db.transaction(() => {
        for (let i = 0; i < 2500; i++) insert.run();
      })();
      db.close();
    }
    const app = await buildApp(loadConfig(env), { logger: false });
    // Real sockets: the clients write over HTTP, as they would.
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const acknowledged: string[] = [];
    let stop = false;
    let failures = 0;
    let next = 0;
    const writer = async () => {
      while (!stop) {
        const n = next++;
        const res = await fetch(`${base}/api/v1/plants`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'idempotency-key': `plant-write-${n}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ species: 'Ficus lyrata', external_id: `plant-write-${n}` }),
        });
        const text = await res.text();
        if (res.status === 201) acknowledged.push(`plant-write-${n}`);
        else {
          failures += 1;
          throw new Error(`a write failed: ${res.status} ${text}`);
        }
      }
    };
    let backup;
    let before: string[] = [];
    const writers = Array.from({ length: WRITERS }, writer);
    try {
      while (acknowledged.length < 50 && failures === 0)
        await new Promise((resolve) => setImmediate(resolve));
      before = [...acknowledged];
      // Its own process, as `vitro backup` beside a serving server is.
      backup = await runProcess(env, 'backup', '--out', tempDir());
      const after = acknowledged.length;
      while (acknowledged.length < after + 20)
        await new Promise((resolve) => setImmediate(resolve));
    } finally {
      stop = true;
      await Promise.all(writers);
      await app.close();
    }
    expect(backup.code, backup.stderr).toBe(0);
    expect(failures).toBe(0);

    const into = await target.empty();
    const restore = await runInProcess(into, 'restore', backup.out.archive);
    expect(restore.code, restore.stderr).toBe(0);
    const config = loadConfig(into);
    if (config.database.dialect === 'sqlite') {
      const db = new SqliteDatabase(config.database.path, { readonly: true });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    }
    const restored = openDatabase(config.database, { poolSize: 1 });
    try {
      const plants = await restored.db
        .selectFrom('plants')
        .select(['id', 'external_id'])
        .where('workspace_id', '=', workspaceId)
        .execute();
      const held = new Set(plants.map((plant) => plant.external_id));
      expect(before.filter((id) => !held.has(id))).toEqual([]);
      // Each write is whole: its plant, its `created` event and its stored response.
      const events = await restored.db
        .selectFrom('events')
        .select('entity_id')
        .where('workspace_id', '=', workspaceId)
        .where('event_type', '=', 'created')
        .execute();
      expect(new Set(events.map((event) => event.entity_id))).toEqual(
        new Set(plants.map((plant) => plant.id)),
      );
      const keys = await sql<{ key: string }>`
        select idempotency_key as key from idempotency_keys
        where state = 'completed' and idempotency_key like 'plant-write-%'
          and credential_id in (select id from api_keys where workspace_id = ${workspaceId})`.execute(
        restored.db,
      );
      expect(new Set(keys.rows.map((row) => row.key))).toEqual(held);
    } finally {
      await restored.close();
    }
  });

  it('refuses a damaged archive and one of a newer schema, changing nothing', async () => {
    const env = target.source();
    await labWithKey(env);
    const out = tempDir();
    const backup = await runInProcess(env, 'backup', '--out', out);
    expect(backup.code, backup.stderr).toBe(0);
    const work = tempDir();
    execFileSync('tar', ['-xzf', backup.out.archive, '-C', work]);
    const entries = execFileSync('tar', ['-tzf', backup.out.archive], { encoding: 'utf8' })
      .trim()
      .split('\n');
    expect(entries[0]).toBe('manifest.json');
    const repack = (name: string) => {
      const archive = join(out, name);
      execFileSync('tar', ['-czf', archive, '-C', work, ...entries]);
      return archive;
    };

    // One byte of the database changed.
    const databasePart = entries.find((entry) => entry.startsWith('database/'))!;
    const bytes = readFileSync(join(work, databasePart));
    bytes[bytes.length - 1]! ^= 0xff;
    writeFileSync(join(work, databasePart), bytes);
    const damaged = repack('damaged.tar.gz');
    const into = await target.empty();
    const refused = await runInProcess(into, 'restore', damaged);
    expect(refused.code).toBe(1);
    expect(refused.err.error).toBe(
      `${damaged} is damaged: ${databasePart} fails its checksum; nothing was restored`,
    );
    bytes[bytes.length - 1]! ^= 0xff;
    writeFileSync(join(work, databasePart), bytes);

    // A schema this Vitro does not know.
    const manifest = JSON.parse(readFileSync(join(work, 'manifest.json'), 'utf8'));
    manifest.database.migrations.push('29991231000000_from_the_future');
    manifest.database.schema_version = '29991231000000_from_the_future';
    manifest.vitro_version = '9.0.0';
    writeFileSync(join(work, 'manifest.json'), JSON.stringify(manifest));
    const newer = await runInProcess(into, 'restore', repack('newer.tar.gz'));
    expect(newer.code).toBe(1);
    expect(newer.err.error).toMatch(
      /^the archive's schema \(29991231000000_from_the_future\) is newer than this Vitro knows .*made by Vitro 9\.0\.0; restore it with that version or a later one/,
    );

    // Nothing was put in place: the target still takes a good archive.
    const good = await runInProcess(into, 'restore', backup.out.archive);
    expect(good.code, good.stderr).toBe(0);
  });
});
