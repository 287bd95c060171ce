import { readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Migrator } from 'kysely';
import { snapshotSqlite } from './sqlite-snapshot.js';
import type { DatabaseConfig } from '../config.js';
import type { Database } from './database.js';
import { migrateToLatest, type MigrationReport } from './migrate.js';
import { migrations } from './migrations/index.js';

/** Copies kept beside the database from the starts that upgraded it. */
export const UPGRADE_BACKUPS_KEPT = 3;

export interface UpgradeReport extends MigrationReport {
  /** The copy of the database taken before migrating (SQLite), or null when none was needed. */
  backup: string | null;
}

/** The migrations this code has that the database has not run, and the ones it has. */
async function migrationState(
  database: Database,
): Promise<{ pending: string[]; applied: string[] }> {
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const all = await migrator.getMigrations();
  return {
    pending: all.filter((m) => m.executedAt === undefined).map((m) => m.name),
    applied: all.filter((m) => m.executedAt !== undefined).map((m) => m.name),
  };
}

/** `vitro.db.pre-upgrade-20261126T230000Z`: sorts by time. */
function backupName(path: string, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  return join(dirname(path), `${basename(path)}.pre-upgrade-${stamp}`);
}

/** Removes all but the newest `UPGRADE_BACKUPS_KEPT` copies beside the database. */
async function pruneUpgradeBackups(path: string): Promise<void> {
  const prefix = `${basename(path)}.pre-upgrade-`;
  const copies = (await readdir(dirname(path)))
    .filter((name) => name.startsWith(prefix) && /^\d{8}T\d{6}Z$/.test(name.slice(prefix.length)))
    .sort();
  for (const name of copies.slice(0, -UPGRADE_BACKUPS_KEPT)) {
    await rm(join(dirname(path), name), { force: true });
  }
}

/** Writes the copy back into the live database through SQLite (so its locks are honoured). */
async function putBack(copy: string, path: string): Promise<void> {
  const source = new SqliteDatabase(copy, { readonly: true, fileMustExist: true });
  try {
    await source.backup(path);
  } finally {
    source.close();
  }
}

/**
 * Brings the schema up to date, safely: on an SQLite file that has data and
 * migrations to run, it first copies the database beside itself
 * (`vitro.db.pre-upgrade-<UTC time>`, the last 3 kept). A migration that fails
 * leaves the database as it was: PostgreSQL undoes the migrations' transaction;
 * on SQLite, whose migrations are not one transaction, the copy is written back.
 * The error then says how to roll back.
 */
export async function upgradeDatabase(
  database: Database,
  config: DatabaseConfig,
): Promise<UpgradeReport> {
  const { pending, applied } = await migrationState(database);
  if (pending.length === 0) return { ...(await migrateToLatest(database.db)), backup: null };
  const file = config.dialect === 'sqlite' && config.path !== ':memory:' ? config.path : null;
  let backup: string | null = null;
  if (file !== null && applied.length > 0) {
    backup = backupName(file, new Date());
    // Created private before SQLite writes into it.
    await writeFile(backup, '', { mode: 0o600, flag: 'wx' });
    await snapshotSqlite(file, backup);
    await pruneUpgradeBackups(file);
  }
  try {
    return { ...(await migrateToLatest(database.db)), backup };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const previous = applied.at(-1) ?? 'none';
    if (config.dialect === 'postgres') {
      throw new Error(
        `${reason}. PostgreSQL undid the upgrade: the database is as it was (schema ${previous}). ` +
          'To roll back, start the previous version of Vitro again; see docs/upgrading.md',
      );
    }
    if (file === null || backup === null) throw error;
    await putBack(backup, file);
    throw new Error(
      `${reason}. The database was put back as it was before this start (schema ${previous}), ` +
        `from the copy ${backup}. To roll back, start the previous version of Vitro again: it ` +
        'runs on this database unchanged. Should the database ever need the copy by hand: stop ' +
        `Vitro, copy ${backup} over ${file} and delete ${file}-wal and ${file}-shm`,
    );
  }
}
