import { randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { chmod, copyFile, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import { create as createTar } from 'tar';
import type { BackupEncryption, Config } from '../config.js';
import { DEMO_KEY_FILE, demoKeyPath } from '../config.js';
import type { Database } from '../db/database.js';
import { vitroVersion } from '../lib/version.js';
import {
  FORMAT,
  FORMAT_VERSION,
  MANIFEST_PATH,
  type BackupPart,
  type Manifest,
} from './manifest.js';
import {
  describeParts,
  exists,
  freezeFiles,
  listFiles,
  PRIVATE_DIR,
  PRIVATE_FILE,
} from './parts.js';
import { encryptingStream, ENCRYPTED_SUFFIX } from './encryption.js';
import { pgDump } from './postgres-tools.js';
import { snapshotSqlite } from '../db/sqlite-snapshot.js';

/** Where each kind of part goes in the archive. */
export const DATABASE_PARTS = {
  sqlite: 'database/vitro.db',
  postgres: 'database/postgres.dump',
} as const;
export const FILES_PREFIX = 'files/';
export const DATA_PREFIX = 'data/';
/**
 * Files of the data directory a restore needs: the generated secret and the demo
 * key. The archive holds the demo key of the database backed up (its key file is
 * named after that database, see `demoKeyPath`) as `data/demo-key.txt`; a restore
 * writes it to the key file of the database restored into.
 */
export const DATA_FILES = ['secret', DEMO_KEY_FILE] as const;

/** Where a data file of the archive lives in the data directory of `config`. */
export function dataFilePath(config: Config, name: string): string {
  return name === DEMO_KEY_FILE
    ? demoKeyPath(config.dataDir, config.database)
    : join(config.dataDir, name);
}

/**
 * Gzip level of the archive. SQLite pages and JSON compress several times over
 * at level 1 already; photos do not compress at all, so higher levels cost CPU
 * (the server's, for scheduled backups) for little.
 */
const GZIP_LEVEL = 1;

export type BackupPhase = 'database' | 'files' | 'checksums' | 'archive';

export interface BackupProgress {
  readonly phase: BackupPhase;
  /** 0 to 100 within the phase. */
  readonly percent: number;
}

export interface BackupOptions {
  /** The archive to write; it must not exist yet. */
  readonly archive: string;
  /** Encrypts the archive (age) to a passphrase or to recipients; null or absent: plain. */
  readonly encryption?: BackupEncryption | null;
  readonly onProgress?: (progress: BackupProgress) => void;
  /** Stops the backup; the partial archive and its staging folder are removed. */
  readonly signal?: AbortSignal;
}

export interface BackupSummary {
  readonly archive: string;
  readonly bytes: number;
  readonly duration_ms: number;
  readonly vitro_version: string;
  readonly database: Manifest['database']['dialect'];
  readonly schema_version: string | null;
  readonly records: Readonly<Record<string, number>>;
  readonly files: Manifest['files'];
  readonly not_covered: readonly string[];
  /** How the archive is encrypted (age), or null: plain, readable by its owner only. */
  readonly encryption: BackupEncryption['kind'] | null;
}

/**
 * `vitro-backup-20261126T230000Z.tar.gz`: sorts by time, one per second; an
 * encrypted one ends in `.tar.gz.age`.
 */
export function archiveName(at: Date, encrypted = false): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  return `vitro-backup-${stamp}.tar.gz${encrypted ? ENCRYPTED_SUFFIX : ''}`;
}

export const ARCHIVE_NAME = /^vitro-backup-\d{8}T\d{6}Z\.tar\.gz(\.age)?$/;

interface DatabasePart {
  readonly path: string;
  readonly migrations: string[];
  readonly records: Record<string, number>;
}

async function backupSqlite(
  config: Config,
  staging: string,
  options: BackupOptions,
): Promise<DatabasePart> {
  const database = config.database;
  if (database.dialect !== 'sqlite') throw new Error('not SQLite');
  if (database.path === ':memory:') {
    throw new Error('DATABASE_URL: an in-memory database (sqlite::memory:) has nothing to back up');
  }
  if (!existsSync(database.path)) {
    throw new Error(
      `DATABASE_URL: there is no SQLite database at ${database.path}; check DATABASE_URL and VITRO_DATA_DIR`,
    );
  }
  const path = DATABASE_PARTS.sqlite;
  const destination = join(staging, path);
  await mkdir(dirname(destination), { recursive: true, mode: PRIVATE_DIR });
  // Created here, so that the copy is private from its first byte.
  await writeFile(destination, '', { mode: PRIVATE_FILE });
  const snapshot = await snapshotSqlite(database.path, destination, {
    count: true,
    ...(options.signal ? { signal: options.signal } : {}),
    onProgress: ({ totalPages, remainingPages }) =>
      options.onProgress?.({
        phase: 'database',
        percent:
          totalPages === 0 ? 100 : Math.floor((100 * (totalPages - remainingPages)) / totalPages),
      }),
  });
  return { path, migrations: snapshot.migrations, records: snapshot.records };
}

/**
 * pg_dump of one snapshot, exported by a repeatable-read transaction that also
 * counts the rows and reads the migrations: the manifest describes the dump
 * exactly, whatever was written meanwhile.
 */
async function backupPostgres(
  config: Config,
  database: Database,
  staging: string,
  options: BackupOptions,
): Promise<DatabasePart> {
  if (config.database.dialect !== 'postgres') throw new Error('not PostgreSQL');
  const url = config.database.url;
  const path = DATABASE_PARTS.postgres;
  const destination = join(staging, path);
  await mkdir(dirname(destination), { recursive: true, mode: PRIVATE_DIR });
  await writeFile(destination, '', { mode: PRIVATE_FILE });
  options.onProgress?.({ phase: 'database', percent: 0 });
  return database.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const { rows } = await sql<{ id: string }>`select pg_export_snapshot() as id`.execute(trx);
      const dumped = pgDump(url, destination, rows[0]!.id);
      const tables = await sql<{ name: string }>`
        select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'
        order by table_name`.execute(trx);
      const records: Record<string, number> = {};
      let migrations: string[] = [];
      for (const { name } of tables.rows) {
        if (name === 'kysely_migration') {
          const applied = await sql<{
            name: string;
          }>`select name from kysely_migration order by name`.execute(trx);
          migrations = applied.rows.map((row) => row.name);
        }
        if (name.startsWith('kysely_')) continue;
        const counted = await sql<{ n: number }>`select count(*) as n from ${sql.id(name)}`.execute(
          trx,
        );
        records[name] = Number(counted.rows[0]!.n);
      }
      await dumped;
      options.onProgress?.({ phase: 'database', percent: 100 });
      return { path, migrations, records };
    });
}

/** The local file store's own folders at its top level that are not stored files. */
const storeInternal = (name: string) =>
  name === '.tmp' || name === '.store-id' || name.startsWith('.backup-');

/** Creates the staging folder: inside the local file store (so files can be hard-linked), else beside the archive. */
async function stagingFolder(config: Config, archive: string): Promise<string> {
  const id = randomUUID();
  const parent = config.storage.kind === 'file' ? config.storage.root : dirname(archive);
  const folder = join(parent, `.backup-${id}`);
  await mkdir(folder, { recursive: true, mode: PRIVATE_DIR });
  return folder;
}

/**
 * Writes the archive: the manifest first, then every part, gzipped, readable by its
 * owner only, and encrypted whole (manifest too) when asked.
 */
async function writeArchive(
  staging: string,
  paths: readonly string[],
  totalBytes: number,
  partial: string,
  options: BackupOptions,
): Promise<void> {
  // Ready before the archive starts: its first bytes flow at once, and none may be lost.
  const encryption = options.encryption ?? null;
  const encryptor = encryption === null ? null : await encryptingStream(encryption);
  let packed = 0;
  const pack = createTar(
    { cwd: staging, gzip: { level: GZIP_LEVEL }, portable: true, noDirRecurse: true },
    [MANIFEST_PATH, ...paths],
  );
  pack.on('data', (chunk: Buffer) => {
    packed += chunk.length;
    options.onProgress?.({
      phase: 'archive',
      percent: Math.min(99, Math.floor((100 * packed) / Math.max(1, totalBytes))),
    });
  });
  const file = createWriteStream(partial, { flags: 'wx', mode: PRIVATE_FILE });
  const signal = options.signal ? { signal: options.signal } : {};
  if (encryptor === null) await pipeline(pack, file, signal);
  else await pipeline(pack, encryptor, file, signal);
}

/**
 * One consistent archive of the lab's data: the database (SQLite online backup
 * or pg_dump), every stored file of the local file store, the generated secret
 * and demo key, and a manifest with counts and checksums. Safe while the server
 * serves and takes writes. The archive appears under its name only once whole;
 * with `encryption`, it is an age file.
 */
export async function createBackup(
  config: Config,
  database: Database | null,
  options: BackupOptions,
): Promise<BackupSummary> {
  const started = Date.now();
  const archive = resolve(options.archive);
  if (await exists(archive)) throw new Error(`--out: ${archive} already exists`);
  await mkdir(dirname(archive), { recursive: true, mode: PRIVATE_DIR });
  const partial = join(dirname(archive), `.${basename(archive)}.partial`);
  const staging = await stagingFolder(config, archive);
  try {
    const dbPart =
      config.database.dialect === 'sqlite'
        ? await backupSqlite(config, staging, options)
        : await backupPostgres(config, requireDatabase(database), staging, options);
    options.onProgress?.({ phase: 'database', percent: 100 });

    // After the database: every photo a snapshot row points at was stored before
    // the row committed, so it is here (files stored later are harmless extras).
    const notCovered: string[] = [];
    let filePaths: string[] = [];
    if (config.storage.kind === 'file') {
      const root = config.storage.root;
      const found = await listFiles(root, storeInternal);
      const frozen = await freezeFiles(root, join(staging, 'files'), found, (done) =>
        options.onProgress?.({
          phase: 'files',
          percent: Math.floor((100 * done) / Math.max(1, found.length)),
        }),
      );
      filePaths = frozen.map((path) => FILES_PREFIX + path);
    } else {
      notCovered.push(
        `the S3 bucket ${config.storage.bucket} (photos): protect it with the bucket's ` +
          'versioning or replication; see docs/operations.md',
      );
    }
    if (config.database.dialect === 'postgres') {
      notCovered.push(
        'Redis (rate-limit counters only: nothing to back up)',
        'VITRO_SECRET and the other settings: keep them with your deployment configuration',
      );
    }

    const dataPaths: string[] = [];
    for (const name of DATA_FILES) {
      const source = dataFilePath(config, name);
      if (!existsSync(source)) continue;
      if (name === 'secret' && !secretFileIsInUse(config, source)) continue;
      await mkdir(join(staging, 'data'), { recursive: true, mode: PRIVATE_DIR });
      await copyFile(source, join(staging, DATA_PREFIX + name));
      await chmod(join(staging, DATA_PREFIX + name), PRIVATE_FILE);
      dataPaths.push(DATA_PREFIX + name);
    }

    const paths = [dbPart.path, ...dataPaths, ...filePaths];
    options.onProgress?.({ phase: 'checksums', percent: 0 });
    const parts = await describeParts(staging, paths);
    const fileParts = parts.filter((part) => part.path.startsWith(FILES_PREFIX));
    const manifest: Manifest = {
      format: FORMAT,
      format_version: FORMAT_VERSION,
      created_at: new Date(started).toISOString(),
      vitro_version: vitroVersion() ?? '0.0.0',
      database: {
        dialect: config.database.dialect,
        schema_version: dbPart.migrations.at(-1) ?? null,
        migrations: dbPart.migrations,
      },
      records: dbPart.records,
      files: {
        store: config.storage.kind,
        count: fileParts.filter((part) => !part.path.startsWith(`${FILES_PREFIX}.types/`)).length,
        bytes: sum(fileParts),
      },
      parts,
      not_covered: notCovered,
    };
    await writeFile(join(staging, MANIFEST_PATH), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: PRIVATE_FILE,
    });
    await writeArchive(staging, paths, sum(parts), partial, options);
    await rename(partial, archive);
    options.onProgress?.({ phase: 'archive', percent: 100 });
    return {
      archive,
      bytes: (await stat(archive)).size,
      duration_ms: Date.now() - started,
      vitro_version: manifest.vitro_version,
      database: manifest.database.dialect,
      schema_version: manifest.database.schema_version,
      records: manifest.records,
      files: manifest.files,
      not_covered: notCovered,
      encryption: options.encryption?.kind ?? null,
    };
  } finally {
    await rm(partial, { force: true });
    await rm(staging, { recursive: true, force: true });
  }
}

function requireDatabase(database: Database | null): Database {
  if (database === null) throw new Error('a PostgreSQL backup needs a database connection');
  return database;
}

const sum = (parts: readonly BackupPart[]) => parts.reduce((total, part) => total + part.bytes, 0);

/** The data directory's `secret` file holds the secret in use (VITRO_SECRET is not set). */
function secretFileIsInUse(config: Config, path: string): boolean {
  try {
    return readFileSync(path, 'utf8').trim() === config.secret;
  } catch {
    return false;
  }
}
