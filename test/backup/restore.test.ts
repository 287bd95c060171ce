import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { demoKeyPath } from '../../src/cli/demo-key.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { runInProcess, tempDir } from '../cli/support.js';
import { readEverything } from './read-everything.js';
import { backupTargets } from './support.js';

/** The ids of every table with a workspace_id, by kind (`sop_runs` -> `sop_run`), of one workspace. */
async function idsOf(
  env: Record<string, string>,
  workspaceId: string,
): Promise<Record<string, string[]>> {
  const database = openDatabase(loadConfig(env).database, { poolSize: 1 });
  try {
    const tables = await database.db.introspection.getTables();
    const ids: Record<string, string[]> = {};
    for (const table of tables) {
      const columns = table.columns.map((column) => column.name);
      if (!columns.includes('id') || !columns.includes('workspace_id')) continue;
      const { rows } = await sql<{
        id: string;
      }>`select id from ${sql.id(table.name)} where workspace_id = ${workspaceId}`.execute(
        database.db,
      );
      ids[table.name.replace(/s$/, '')] = rows.map((row) => row.id);
    }
    return ids;
  } finally {
    await database.close();
  }
}

async function serve(env: Record<string, string>): Promise<FastifyInstance> {
  const app = await buildApp(loadConfig(env), { logger: false });
  await app.ready();
  return app;
}

/**
 * `vitro backup` of a lab server that serves, then `vitro restore` of the
 * archive into an empty place: the restored server answers every read of every
 * operation exactly as the original did, photos byte for byte.
 */
describe.each(backupTargets())('backup and restore, $name', (target) => {
  afterAll(() => target.cleanup());

  it('a restored server answers every read exactly as the original did at backup time', async () => {
    const env = target.source();
    const demo = await runInProcess(env, 'demo');
    expect(demo.code).toBe(0);
    const key: string = demo.out.key;
    const source = await serve(env);
    let before;
    let archive: string;
    try {
      const device = await source.inject({
        method: 'POST',
        url: '/api/v1/devices',
        headers: { authorization: `Bearer ${key}` },
        payload: { name: 'Growth room sensor' },
      });
      expect(device.statusCode).toBe(201);
      before = await readEverything(source, key, await idsOf(env, demo.out.workspace_id));
      const out = tempDir();
      const backup = await runInProcess(env, 'backup', '--out', out);
      expect(backup.code, backup.stderr).toBe(0);
      archive = backup.out.archive;
      expect(readdirSync(out)).toEqual([archive.split('/').pop()]);
      expect(backup.out).toMatchObject({
        database: target.name,
        schema_version: expect.any(String),
        records: expect.objectContaining({
          plants: expect.any(Number),
          assets: expect.any(Number),
        }),
      });
    } finally {
      await source.close();
    }

    const restoredEnv = await target.empty();
    const restore = await runInProcess(restoredEnv, 'restore', archive);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.out).toMatchObject({ restored: archive, pending_migrations: [] });
    // The demo key comes back as the key file of the database restored into.
    const restoredConfig = loadConfig(restoredEnv);
    const keyFile = demoKeyPath(restoredConfig.dataDir, restoredConfig.database);
    expect(readFileSync(keyFile, 'utf8').trim()).toBe(key);
    const restored = await serve(restoredEnv);
    try {
      const after = await readEverything(restored, key, await idsOf(env, demo.out.workspace_id));
      expect([...after.keys()]).toEqual([...before.keys()]);
      for (const [request, answer] of before) expect(after.get(request), request).toEqual(answer);
      // The comparison covered lists, single records and photos.
      const photos = [...before.values()].flatMap(
        (answer) => JSON.stringify(answer.body).match(/"200 sha256:[0-9a-f]{64}"/g) ?? [],
      );
      expect(photos.length).toBeGreaterThan(0);
      expect(before.size).toBeGreaterThan(30);
    } finally {
      await restored.close();
    }
  });

  it("writes into the data directory's backups/ when --out is left out, never the working directory", async () => {
    const env = target.source();
    expect((await runInProcess(env, 'demo')).code).toBe(0);
    const backup = await runInProcess(env, 'backup');
    expect(backup.code, backup.stderr).toBe(0);
    const dir = join(env.VITRO_DATA_DIR!, 'backups');
    expect(dirname(backup.out.archive as string)).toBe(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(backup.out.archive as string).mode & 0o077).toBe(0);
    expect(readdirSync(process.cwd()).filter((name) => name.startsWith('vitro-backup-'))).toEqual(
      [],
    );
  });

  it('refuses a target that is not empty, and replaces it with --force', async () => {
    const env = target.source();
    expect((await runInProcess(env, 'demo')).code).toBe(0);
    const out = tempDir();
    const backup = await runInProcess(env, 'backup', '--out', join(out, 'lab.tar.gz'));
    expect(backup.code, backup.stderr).toBe(0);
    const into = await target.empty();
    // A name of its own: on PostgreSQL the backup is of the test database other suites share.
    const other = `Other lab ${randomUUID()}`;
    expect((await runInProcess(into, 'workspace', 'create', '--name', other)).code).toBe(0);
    const refused = await runInProcess(into, 'restore', backup.out.archive);
    expect(refused.code).toBe(1);
    expect(refused.err.error).toMatch(/not empty/);
    expect(refused.err.error).toMatch(/--force/);
    const forced = await runInProcess(into, 'restore', backup.out.archive, '--force');
    expect(forced.code, forced.stderr).toBe(0);
    const workspaces = await runInProcess(into, 'workspace', 'list');
    expect(workspaces.out.workspaces.map((w: { name: string }) => w.name)).not.toContain(other);
  });
});
