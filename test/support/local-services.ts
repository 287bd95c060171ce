import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** Throwaway PostgreSQL and Redis servers on loopback, from the machine's own binaries. */

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function findPostgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

function findOnPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir !== '' && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

const isRoot = () => userInfo().uid === 0;

/** PostgreSQL refuses to run as root: as root, run its tools as the `postgres` user. */
function asPostgresUser(command: string, args: string[]): [string, string[]] {
  return isRoot() ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

export interface LocalService {
  url: string;
  stop(): Promise<void>;
}

export async function startLocalPostgres(): Promise<LocalService | { skipped: string }> {
  const bin = findPostgresBin();
  if (bin === null) return { skipped: 'no PostgreSQL binaries under /usr/lib/postgresql' };
  const dir = mkdtempSync(join(tmpdir(), 'vitro-pg-'));
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  const run = (command: string, args: string[]) => {
    const [cmd, argv] = asPostgresUser(join(bin, command), args);
    execFileSync(cmd, argv, { stdio: 'pipe' });
  };
  run('initdb', [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'vitro',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    join(dir, 'postgres.log'),
    '-w',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`,
    'start',
  ]);
  run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'vitro', 'vitro_test']);
  return {
    url: `postgres://vitro@127.0.0.1:${port}/vitro_test`,
    stop: async () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export async function startLocalRedis(): Promise<LocalService | { skipped: string }> {
  const binary =
    findOnPath('redis-server') ??
    (existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : null);
  if (binary === null) return { skipped: 'redis-server is not installed' };
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  await waitForPort(port, 5000);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
    },
  };
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const { connect } = await import('node:net');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
}
