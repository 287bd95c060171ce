import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs an ES module script in a fresh Node process at the repository root, with tsx
 * so it can import `./src/….ts`: for what only a new process shows (what it loaded,
 * how it exits). Its stderr goes to the test's.
 */
export function runNodeScript(script: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

/**
 * Compiles src/ into dist/ when a source changed (what `npm start` does), for tests that
 * run the built server: what a deployment runs, and the only code whose webhook
 * deliveries run on a thread of their own (a worker thread cannot load TypeScript).
 */
export function buildIfStale(): void {
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('could not build dist/');
}
