import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { demoKeyPath, displayDatabaseUrl, type DatabaseConfig } from '../config.js';
import { AppError } from '../kernel/errors.js';
import type { Authenticator } from '../kernel/principal.js';

/* Where a database's demo key file lives: src/config.ts (backups carry it too). */
export { DEMO_KEY_FILE, demoKeyPath } from '../config.js';

/** How to get a fresh demo key, in every message that says the saved one is unusable. */
export const REFRESH_HINT =
  'run `npx vitro demo` (same environment) to create a demo lab here and save its key there';

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
