import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Where Debian and Ubuntu put the PostgreSQL client of each major version. */
const DEBIAN_ROOT = '/usr/lib/postgresql';

/**
 * The PostgreSQL client program `name` (pg_dump, pg_restore): the newest of
 * Debian's versioned installs first (pg_dump must be at least the server's major
 * version, and the newest is the likeliest to be), else the first on PATH.
 */
export function findPostgresTool(
  name: 'pg_dump' | 'pg_restore',
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | null {
  if (existsSync(DEBIAN_ROOT)) {
    const versions = readdirSync(DEBIAN_ROOT)
      .filter((version) => existsSync(join(DEBIAN_ROOT, version, 'bin', name)))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(DEBIAN_ROOT, versions[0], 'bin', name);
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** What to say when a tool is missing: how to get it, or how to do without. */
export function missingToolMessage(name: 'pg_dump' | 'pg_restore'): string {
  return (
    `${name} was not found (looked in ${DEBIAN_ROOT}/*/bin and on PATH); install the ` +
    'PostgreSQL client programs of the same major version as the server or newer ' +
    '(Debian/Ubuntu: apt install postgresql-client), or see docs/operations.md for taking ' +
    `the dump yourself with ${name === 'pg_dump' ? 'pg_dump -Fc' : 'pg_restore'}`
  );
}

/**
 * A connection for the PostgreSQL programs: the URL without its password, which
 * goes in PGPASSWORD instead, so that no process list ever shows it.
 */
function connection(url: string): { dbname: string; env: Record<string, string> } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return {
    dbname: parsed.toString(),
    env: password === '' ? {} : { PGPASSWORD: password },
  };
}

/** Runs a PostgreSQL program; its stderr becomes the error message when it fails. */
function run(program: string, args: string[], url: string): Promise<void> {
  const { dbname, env } = connection(url);
  return new Promise((resolve, reject) => {
    const child = spawn(program, [...args, `--dbname=${dbname}`], {
      env: { ...process.env, ...env, PGAPPNAME: 'vitro-backup' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else {
        const name = program.split('/').pop() ?? program;
        reject(new Error(`${name} failed (exit ${code}): ${stderr.trim().split('\n').join('; ')}`));
      }
    });
  });
}

/**
 * `pg_dump -Fc` of the database into `file`, of the exported snapshot `snapshot`
 * when given (so counts read in that snapshot describe the dump exactly).
 */
export function pgDump(url: string, file: string, snapshot: string | null): Promise<void> {
  const program = findPostgresTool('pg_dump');
  if (program === null) return Promise.reject(new Error(missingToolMessage('pg_dump')));
  return run(
    program,
    [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--file=${file}`,
      ...(snapshot === null ? [] : [`--snapshot=${snapshot}`]),
    ],
    url,
  );
}

/** `pg_restore` of a dump into the (empty) database, all or nothing. */
export function pgRestore(url: string, file: string): Promise<void> {
  const program = findPostgresTool('pg_restore');
  if (program === null) return Promise.reject(new Error(missingToolMessage('pg_restore')));
  return run(
    program,
    ['--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', file],
    url,
  );
}
