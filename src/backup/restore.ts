import { randomUUID } from 'node:crypto';
import { chmod, cp, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { displayDatabaseUrl, type Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrations as knownMigrations } from '../db/migrations/index.js';
import { readManifest, extractVerified } from './archive-reader.js';
import { DATA_FILES, DATA_PREFIX, DATABASE_PARTS, dataFilePath, FILES_PREFIX } from './backup.js';
import type { DecryptionKeys } from './encryption.js';
import type { Manifest } from './manifest.js';
import { exists, PRIVATE_DIR, PRIVATE_FILE } from './parts.js';
import { pgRestore } from './postgres-tools.js';

export interface RestoreOptions {
  readonly archive: string;
  /** What decrypts an encrypted archive (passphrases, age identities). */
  readonly keys?: DecryptionKeys | null;
  /** Replace a database and files that are already there (the server must be stopped). */
  readonly force?: boolean;
  readonly onProgress?: (progress: { phase: 'checksums'; percent: number }) => void;
}

export interface RestoreSummary {
  readonly restored: string;
  readonly backup_created_at: string;
  readonly backup_vitro_version: string;
  readonly database: string;
  readonly schema_version: string | null;
  /** Migrations of this Vitro the archive predates: the next start applies them. */
  readonly pending_migrations: string[];
  readonly records: Readonly<Record<string, number>>;
  readonly files: { readonly count: number; readonly bytes: number };
}

/** Refuses an archive this configuration cannot take: another database kind, a newer schema. */
function checkCompatible(manifest: Manifest, config: Config): void {
  const dialect = manifest.database.dialect;
  if (dialect !== config.database.dialect) {
    throw new Error(
      `DATABASE_URL: the archive holds a ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} ` +
        `database and DATABASE_URL is ${displayDatabaseUrl(config.database)}; restore it with ` +
        `a DATABASE_URL of the same kind`,
    );
  }
  if (config.database.dialect === 'sqlite' && config.database.path === ':memory:') {
    throw new Error('DATABASE_URL: cannot restore into an in-memory database (sqlite::memory:)');
  }
  const unknown = manifest.database.migrations.filter((name) => !(name in knownMigrations));
  if (unknown.length > 0) {
    const latest = Object.keys(knownMigrations).sort().at(-1) ?? 'none';
    throw new Error(
      `the archive's schema (${manifest.database.schema_version ?? '?'}) is newer than this ` +
        `Vitro knows (${latest}): it was made by Vitro ${manifest.vitro_version}; restore it ` +
        `with that version or a later one (${unknown.length} migration(s) unknown here, e.g. ${unknown[0]})`,
    );
  }
  // Only the parts a restore knows where to put: the database of this kind, stored
  // files, and the data directory's secret and demo key. A manifest that lists any
  // other (data/vitro.db, data/anything) is refused before anything is read.
  const unknownPart = manifest.parts.find(
    (part) =>
      part.path !== DATABASE_PARTS[dialect] &&
      !part.path.startsWith(FILES_PREFIX) &&
      !(
        part.path.startsWith(DATA_PREFIX) &&
        (DATA_FILES as readonly string[]).includes(part.path.slice(DATA_PREFIX.length))
      ),
  );
  if (unknownPart !== undefined) {
    throw new Error(
      `the archive lists a part Vitro does not restore (${unknownPart.path}); only ` +
        `${DATABASE_PARTS[dialect]}, ${FILES_PREFIX}… and ` +
        `${DATA_FILES.map((name) => DATA_PREFIX + name).join(', ')} are; nothing was restored`,
    );
  }
  const hasFiles = manifest.parts.some((part) => part.path.startsWith(FILES_PREFIX));
  if (hasFiles && config.storage.kind !== 'file') {
    throw new Error(
      `STORAGE_URL: the archive holds ${manifest.files.count} stored file(s) of a local file ` +
        `store and STORAGE_URL is an S3 bucket; restore with STORAGE_URL=file:DIR (the default)`,
    );
  }
}

/** Entries of a folder, none when it does not exist. */
async function entriesOf(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}

/** What the target already holds, in words; empty when there is nothing to replace. */
async function occupied(config: Config): Promise<string[]> {
  const found: string[] = [];
  const data = (await entriesOf(config.dataDir)).filter(
    // A generated secret alone does not make a data directory hold anything.
    (name) => name !== 'secret' && !name.startsWith('.restore-'),
  );
  if (data.length > 0) found.push(`${config.dataDir} holds ${data.slice(0, 5).join(', ')}`);
  const database = config.database;
  if (database.dialect === 'sqlite') {
    if (await exists(database.path)) found.push(`${database.path} exists`);
  } else {
    const handle = openDatabase(database, { poolSize: 1 });
    try {
      const tables = await sql<{ name: string }>`
        select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(handle.db);
      if (tables.rows.length > 0) {
        found.push(
          `the database ${displayDatabaseUrl(database)} holds ${tables.rows.length} table(s)`,
        );
      }
    } finally {
      await handle.close();
    }
  }
  if (config.storage.kind === 'file') {
    const files = (await entriesOf(config.storage.root)).filter((name) => name !== '.tmp');
    if (files.length > 0) found.push(`${config.storage.root} holds stored files`);
  }
  return [...new Set(found)];
}

/** Throws when another connection (a running server) has the SQLite file open. */
function assertSqliteUnused(path: string): void {
  const probe = new SqliteDatabase(path, { fileMustExist: true, timeout: 0 });
  try {
    // Leaving WAL mode needs every other connection gone.
    const mode: unknown = probe.pragma('journal_mode = DELETE', { simple: true });
    if (mode !== 'delete') throw new Error('in use');
  } catch {
    throw new Error(
      `${path} is open in another process (a running server?); stop it before restoring over it`,
    );
  } finally {
    probe.close();
  }
}

/** Moves `from` to `to`, copying when they are on different file systems. */
async function moveInto(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true, mode: PRIVATE_DIR });
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EXDEV') throw error;
    await cp(from, to, { recursive: true, errorOnExist: true, force: false });
  }
}

async function dropAllTables(config: Config): Promise<void> {
  if (config.database.dialect !== 'postgres') return;
  const handle = openDatabase(config.database, { poolSize: 1 });
  try {
    await handle.db.transaction().execute(async (trx) => {
      const tables = await sql<{ name: string }>`
        select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(trx);
      if (tables.rows.length === 0) return;
      await sql`drop table if exists ${sql.join(tables.rows.map((row) => sql.id(row.name)))} cascade`.execute(
        trx,
      );
    });
  } finally {
    await handle.close();
  }
}

/** Rows per table of the restored database, for the tables the manifest counted. */
async function countRestored(config: Config, tables: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  if (config.database.dialect === 'sqlite') {
    const db = new SqliteDatabase(config.database.path, { fileMustExist: true });
    try {
      for (const table of tables) {
        counts[table] = db
          .prepare(`select count(*) from "${table.replace(/"/g, '""')}"`)
          .pluck()
          .get() as number;
      }
    } finally {
      db.close();
    }
    return counts;
  }
  const handle = openDatabase(config.database, { poolSize: 1 });
  try {
    for (const table of tables) {
      const { rows } = await sql<{
        n: number;
      }>`select count(*) as n from ${sql.id(table)}`.execute(handle.db);
      counts[table] = Number(rows[0]!.n);
    }
  } finally {
    await handle.close();
  }
  return counts;
}

/**
 * Restores an archive of `vitro backup` into the configured database, file
 * store and data directory: all of them empty unless `force`. Every part's
 * checksum is checked before anything is put in place; the restored row counts
 * are checked against the manifest after.
 */
export async function restoreBackup(
  config: Config,
  options: RestoreOptions,
): Promise<RestoreSummary> {
  const archive = resolve(options.archive);
  const keys = options.keys ?? null;
  const manifest = await readManifest(archive, keys);
  checkCompatible(manifest, config);
  const force = options.force ?? false;
  const found = await occupied(config);
  if (found.length > 0 && !force) {
    throw new Error(
      `the target is not empty (${found.join('; ')}); restore into an empty data directory ` +
        'and database, or add --force to replace what is there (stop the server first)',
    );
  }

  await mkdir(config.dataDir, { recursive: true, mode: PRIVATE_DIR });
  const staging = join(config.dataDir, `.restore-${randomUUID()}`);
  await mkdir(staging, { mode: PRIVATE_DIR });
  try {
    await extractVerified(
      archive,
      manifest,
      staging,
      (done, total) =>
        options.onProgress?.({ phase: 'checksums', percent: Math.floor((100 * done) / total) }),
      keys,
    );

    const database = config.database;
    if (database.dialect === 'sqlite') {
      if (force && (await exists(database.path))) {
        assertSqliteUnused(database.path);
        for (const suffix of ['', '-wal', '-shm', '-journal']) {
          await rm(database.path + suffix, { force: true });
        }
      }
      await moveInto(join(staging, DATABASE_PARTS.sqlite), database.path);
      await chmod(database.path, PRIVATE_FILE);
    } else {
      if (force) await dropAllTables(config);
      await pgRestore(database.url, join(staging, DATABASE_PARTS.postgres));
    }

    if (config.storage.kind === 'file' && (await exists(join(staging, 'files')))) {
      const root = config.storage.root;
      // Empty but for writes in progress, unless forced (then replaced whole).
      await rm(root, { recursive: true, force: true });
      await moveInto(join(staging, 'files'), root);
      await chmod(root, PRIVATE_DIR);
    }
    for (const part of manifest.parts) {
      if (!part.path.startsWith(DATA_PREFIX)) continue;
      const target = dataFilePath(config, part.path.slice(DATA_PREFIX.length));
      await rm(target, { force: true });
      await moveInto(join(staging, part.path), target);
      await chmod(target, PRIVATE_FILE);
    }

    const tables = Object.keys(manifest.records);
    const counted = await countRestored(config, tables);
    const wrong = tables.filter((table) => counted[table] !== manifest.records[table]);
    if (wrong.length > 0) {
      const table = wrong[0]!;
      throw new Error(
        `the restored database does not hold what the manifest counts (${table}: ` +
          `${counted[table]} rows, expected ${manifest.records[table]})`,
      );
    }
    const applied = new Set(manifest.database.migrations);
    return {
      restored: archive,
      backup_created_at: manifest.created_at,
      backup_vitro_version: manifest.vitro_version,
      database: displayDatabaseUrl(config.database),
      schema_version: manifest.database.schema_version,
      pending_migrations: Object.keys(knownMigrations)
        .filter((name) => !applied.has(name))
        .sort(),
      records: manifest.records,
      files: { count: manifest.files.count, bytes: manifest.files.bytes },
    };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
