import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { displayDatabaseUrl, type DatabaseConfig } from '../config.js';
import { AppError } from '../kernel/errors.js';
import type { Authenticator } from '../kernel/principal.js';

export const DEMO_KEY_FILE = 'demo-key.txt';

/** How to get a fresh demo key, in every message that says the saved one is unusable. */
export const REFRESH_HINT =
  'run `npx vitro demo` (same environment) to create a demo lab here and save its key there';

/**
 * The demo key file of a database: `demo-key.txt` for the data directory's own
 * SQLite database (the default), else one named after the database
 * (`demo-key.postgres-1a2b3c4d.txt`, from a digest of its URL without password).
 * A key file belongs to the database it was made for: a demo made on PostgreSQL
 * never replaces the SQLite demo's key.
 */
export function demoKeyPath(dataDir: string, database: DatabaseConfig): string {
  const own = database.dialect === 'sqlite' && database.path === resolve(dataDir, 'vitro.db');
  if (own) return join(dataDir, DEMO_KEY_FILE);
  const digest = createHash('sha256').update(displayDatabaseUrl(database)).digest('hex');
  return join(dataDir, `demo-key.${database.dialect}-${digest.slice(0, 8)}.txt`);
}

/** Writes (or replaces) the database's demo key file, readable by its owner only (0600). */
export async function writeDemoKeyFile(
  dataDir: string,
  database: DatabaseConfig,
  key: string,
): Promise<string> {
  const file = demoKeyPath(dataDir, database);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  // A whole file or the old one, never half of the new one.
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, `${key}\n`, { mode: 0o600 });
  await chmod(partial, 0o600);
  await rename(partial, file);
  return file;
}

/** What the start line says about the saved demo key. */
export type DemoKeyCheck =
  | { status: 'ok'; key_file: string; workspace_id: string }
  | { status: 'missing' | 'stale'; key_file: string; message: string };

/**
 * Whether the key saved in the database's demo key file works against it, asked
 * of the same authenticator the API uses.
 */
export async function checkDemoKeyFile(
  dataDir: string,
  databaseConfig: DatabaseConfig,
  authenticate: Authenticator,
): Promise<{ check: DemoKeyCheck; memberId: string | null }> {
  const file = demoKeyPath(dataDir, databaseConfig);
  const database = displayDatabaseUrl(databaseConfig);
  let key: string;
  try {
    key = (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
    const check = {
      status: 'missing',
      key_file: file,
      message: `${file} does not exist; ${REFRESH_HINT}`,
    } as const;
    return { check, memberId: null };
  }
  try {
    const principal = await authenticate(`Bearer ${key}`);
    const check = { status: 'ok', key_file: file, workspace_id: principal.workspaceId } as const;
    return { check, memberId: principal.memberId };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'UNAUTHORIZED') throw error;
    const check = {
      status: 'stale',
      key_file: file,
      message:
        `the key in ${file} does not work against this database (${database}); ` +
        `it may belong to another database or a revoked key, and is left as it is; ${REFRESH_HINT}`,
    } as const;
    return { check, memberId: null };
  }
}
