import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../kernel/errors.js';
import type { Authenticator } from '../kernel/principal.js';

export const DEMO_KEY_FILE = 'demo-key.txt';

/** How to get a fresh demo key, in every message that says the saved one is unusable. */
export const REFRESH_HINT =
  'run `npx vitro demo` (same environment) to create a demo lab here and save its key there';

export function demoKeyPath(dataDir: string): string {
  return join(dataDir, DEMO_KEY_FILE);
}

/** Writes (or replaces) `<data dir>/demo-key.txt`, readable by its owner only (0600). */
export async function writeDemoKeyFile(dataDir: string, key: string): Promise<string> {
  const file = demoKeyPath(dataDir);
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
 * Whether the key saved in `<data dir>/demo-key.txt` works against this
 * database, asked of the same authenticator the API uses. `database` names the
 * database in messages (no password).
 */
export async function checkDemoKeyFile(
  dataDir: string,
  authenticate: Authenticator,
  database: string,
): Promise<DemoKeyCheck> {
  const file = demoKeyPath(dataDir);
  let key: string;
  try {
    key = (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
    return {
      status: 'missing',
      key_file: file,
      message: `${file} does not exist; ${REFRESH_HINT}`,
    };
  }
  try {
    const principal = await authenticate(`Bearer ${key}`);
    return { status: 'ok', key_file: file, workspace_id: principal.workspaceId };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'UNAUTHORIZED') throw error;
    return {
      status: 'stale',
      key_file: file,
      message:
        `the key in ${file} does not work against this database (${database}); ` +
        `it may belong to another database or a revoked key, and is left as it is; ${REFRESH_HINT}`,
    };
  }
}
