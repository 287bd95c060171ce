// `npm start` runs this before serving: it compiles src/ into dist/ only when a
// source (or the compiler configuration) changed since dist/ was built, so a start
// with nothing changed skips the TypeScript compiler (seconds) entirely.
import console from 'node:console';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
/** Written after a build this script ran: sources touched but unchanged are not rebuilt twice. */
const stamp = join(root, 'dist', '.build-stamp');
/** Written after a failed build (tsc still emits): the next start compiles and fails again. */
const failed = join(root, 'dist', '.build-failed');
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json'];

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
};

/** Why dist/ must be rebuilt, or null when it is current. */
function staleReason() {
  if (mtime(failed) >= 0) return 'the last build failed';
  const stampedAt = mtime(stamp);
  // JSON files count too: the compiler copies the ones the code imports (demo data).
  const sources = readdirSync(join(root, 'src'), { recursive: true }).filter(
    (file) =>
      (file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts')) ||
      file.endsWith('.json'),
  );
  let oldestOutput = Infinity;
  for (const file of sources) {
    const builtAt = mtime(join(root, 'dist', file.replace(/\.ts$/, '.js')));
    if (builtAt < 0) return `dist/ has no output for src/${file}`;
    oldestOutput = Math.min(oldestOutput, builtAt);
    if (mtime(join(root, 'src', file)) > Math.max(builtAt, stampedAt)) {
      return `src/${file} changed`;
    }
  }
  for (const config of CONFIGS) {
    if (mtime(join(root, config)) > Math.max(oldestOutput, stampedAt)) return `${config} changed`;
  }
  return null;
}

const reason = staleReason();
if (reason !== null) {
  console.error(`building dist/ (${reason})`);
  const startedAt = new Date();
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    mkdirSync(dirname(failed), { recursive: true });
    writeFileSync(failed, '');
    process.exit(result.status ?? 1);
  }
  rmSync(failed, { force: true });
  // Stamped with the start time: a file saved during the build is rebuilt next time.
  writeFileSync(stamp, '');
  utimesSync(stamp, startedAt, startedAt);
}
