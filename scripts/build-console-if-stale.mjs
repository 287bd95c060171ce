// `npm start` runs this before build-if-stale.mjs: it builds the console (web/ into
// dist/web/) only when dist/web/index.html is missing or a file of web/ changed
// since, so a start with nothing changed runs no bundler. First, because the console's
// build writes the server's list of console addresses (src/console/pages.ts) when the
// console's table of screens changed: the server's build then compiles it.
import console from 'node:console';
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const GENERATED = join('src', 'api', 'schema.d.ts');

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
};

function staleReason() {
  const builtAt = mtime(join(root, 'dist', 'web', 'index.html'));
  if (builtAt < 0) return 'dist/web/ has no build';
  const files = readdirSync(join(root, 'web'), { recursive: true }).filter(
    (file) => !file.startsWith('node_modules') && file !== GENERATED,
  );
  for (const file of files) {
    if (mtime(join(root, 'web', file)) > builtAt) return `web/${file} changed`;
  }
  return null;
}

const reason = staleReason();
if (reason !== null) {
  console.error(`building the console (${reason})`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', '--silent', 'build:web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
