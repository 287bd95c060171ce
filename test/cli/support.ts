import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { inject } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { TEST_SECRET } from '../support/harness.js';
import { REPO_ROOT } from '../support/node-script.js';

export { REPO_ROOT };

export interface CliTarget {
  readonly name: 'sqlite' | 'postgres';
  /** A fresh environment: its own data dir (and SQLite file); PostgreSQL is the shared test database. */
  env(): Record<string, string>;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'vitro-cli-'));
}

export function cliTargets(): CliTarget[] {
  const targets: CliTarget[] = [
    {
      name: 'sqlite',
      env: () => {
        const dir = tempDir();
        return {
          VITRO_DATA_DIR: dir,
          DATABASE_URL: `sqlite:${join(dir, 'vitro.db')}`,
          LOG_LEVEL: 'silent',
        };
      },
    },
  ];
  const postgresUrl = inject('postgresUrl');
  if (postgresUrl !== null) {
    targets.push({
      name: 'postgres',
      env: () => ({
        VITRO_DATA_DIR: tempDir(),
        DATABASE_URL: postgresUrl,
        VITRO_SECRET: TEST_SECRET,
        LOG_LEVEL: 'silent',
      }),
    });
  }
  return targets;
}

export interface CliResult {
  code: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON loosely
  out: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON loosely
  err: any;
  stdout: string;
  stderr: string;
}

/**
 * The JSON of the last line (on stderr, progress lines of a long run may come
 * before it); null for empty output and for text (`vitro doctor` without --json).
 */
function parsed(text: string): unknown {
  const last = text.trim().split('\n').at(-1)!;
  if (!last.startsWith('{')) return null;
  return JSON.parse(last);
}

/** Runs the CLI in this process (fast): what it would print and its exit code. */
export async function runInProcess(
  env: Record<string, string>,
  ...argv: string[]
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    env,
    out: (text) => (stdout += text),
    err: (text) => (stderr += text),
  });
  return { code, stdout, stderr, out: parsed(stdout), err: parsed(stderr) };
}

export function spawnVitro(env: Record<string, string>, ...argv: string[]): ChildProcess {
  return spawnCli(['--import', 'tsx', 'src/cli/main.ts'], env, argv);
}

/** The built CLI (`node dist/cli/main.js`), as a deployment runs it; see `buildIfStale`. */
export function spawnBuiltVitro(env: Record<string, string>, ...argv: string[]): ChildProcess {
  return spawnCli(['dist/cli/main.js'], env, argv);
}

function spawnCli(entry: string[], env: Record<string, string>, argv: string[]): ChildProcess {
  return spawn(process.execPath, [...entry, ...argv], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The address a spawned `vitro serve` says it listens on (its JSON log's `listening`). */
export async function listeningUrl(server: ChildProcess): Promise<string> {
  for await (const line of createInterface({ input: server.stdout! })) {
    const parsed = JSON.parse(line) as { listening?: string };
    if (parsed.listening !== undefined) return parsed.listening;
  }
  throw new Error('the server exited before listening');
}

/** Stops a spawned server with SIGTERM and waits for it to exit (at once if it has). */
export async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  server.kill('SIGTERM');
  await once(server, 'exit');
}

/** Runs the real CLI as a process, as `vitro …` would. */
export async function runProcess(
  env: Record<string, string>,
  ...argv: string[]
): Promise<CliResult> {
  const child = spawnVitro(env, ...argv);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode) => resolve(exitCode ?? -1));
  });
  return { code, stdout, stderr, out: parsed(stdout), err: parsed(stderr) };
}
