import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { runInProcess, tempDir } from './support.js';

const names = Object.keys(migrations).sort();
const last = names.at(-1)!;

/** A data directory whose database runs every migration but the last, with a workspace in it. */
async function olderDatabase(): Promise<{
  env: { VITRO_DATA_DIR: string; LOG_LEVEL: string };
  path: string;
}> {
  const dir = tempDir();
  const path = join(dir, 'vitro.db');
  const database = openDatabase({ dialect: 'sqlite', path, url: `sqlite:${path}` });
  try {
    const migrator = new Migrator({
      db: database.db,
      provider: { getMigrations: () => Promise.resolve(migrations) },
    });
    const { error } = await migrator.migrateTo(names.at(-2)!);
    if (error !== undefined)
      throw new Error(`could not prepare the older database: ${JSON.stringify(error)}`);
  } finally {
    await database.close();
  }
  const env = { VITRO_DATA_DIR: dir, LOG_LEVEL: 'silent' };
  return { env, path };
}

/** The whole schema and the rows of a few tables: what "as it was" means. */
function contentsOf(path: string): unknown {
  const db = new SqliteDatabase(path, { readonly: true });
  try {
    return {
      schema: db.prepare('select type, name, sql from sqlite_master order by name').all(),
      migrations: db.prepare('select name from kysely_migration order by name').pluck().all(),
      workspaces: db.prepare('select * from workspaces order by id').all(),
    };
  } finally {
    db.close();
  }
}

const upgradeCopies = (dir: string) =>
  readdirSync(dir)
    .filter((name) => name.startsWith('vitro.db.pre-upgrade-'))
    .sort();

describe('safe upgrades on SQLite', () => {
  it('a start with migrations to run first copies the database beside it, keeping the last 3', async () => {
    const { env, path } = await olderDatabase();
    const dir = env.VITRO_DATA_DIR;
    // Copies of earlier upgrades.
    for (const stamp of ['20250101T000000Z', '20250201T000000Z', '20250301T000000Z']) {
      writeFileSync(join(dir, `vitro.db.pre-upgrade-${stamp}`), 'old copy');
    }
    const before = contentsOf(path);
    const migrated = await runInProcess(env, 'migrate');
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.out.applied).toEqual([last]);
    const copies = upgradeCopies(dir);
    expect(copies).toHaveLength(3);
    expect(copies.slice(0, 2)).toEqual([
      'vitro.db.pre-upgrade-20250201T000000Z',
      'vitro.db.pre-upgrade-20250301T000000Z',
    ]);
    expect(migrated.out.backup).toBe(join(dir, copies[2]!));
    expect(contentsOf(migrated.out.backup)).toEqual(before);
    // Nothing to run: no copy.
    const again = await runInProcess(env, 'workspace', 'list');
    expect(again.code).toBe(0);
    expect(upgradeCopies(dir)).toEqual(copies);
  });

  it('a failed migration leaves the database as it was and says how to roll back', async () => {
    const older = await olderDatabase();
    const db = new SqliteDatabase(older.path);
    db.exec(`insert into workspaces (id, name, type, plan, created_at, updated_at)
      values ('01a1fd6e-1c47-7086-b1d4-b2fc11449b2a', 'Kept lab', 'lab', 'teams',
        '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`);
    // The last migration's own changes run, then recording it fails.
    db.exec(`create trigger refuse_last before insert on kysely_migration
      when new.name = '${last}' begin select raise(abort, 'refused by the test'); end`);
    db.close();
    const before = contentsOf(older.path);
    const failed = await runInProcess(older.env, 'migrate');
    expect(failed.code).toBe(1);
    const copy = upgradeCopies(older.env.VITRO_DATA_DIR)[0]!;
    expect(failed.err.error).toContain(`migration ${last} failed: refused by the test`);
    expect(failed.err.error).toContain(
      `The database was put back as it was before this start (schema ${names.at(-2)}), ` +
        `from the copy ${join(older.env.VITRO_DATA_DIR, copy)}. To roll back, start the previous version of Vitro again`,
    );
    expect(contentsOf(older.path)).toEqual(before);
  });
});
