// The Vitro server under test runs from dist/: rebuild it when any source is newer.
import console from 'node:console';
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The first source file whose compiled output is missing or older, else null. */
function staleSource(root) {
  const sources = readdirSync(join(root, 'src'), { recursive: true }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'),
  );
  for (const file of sources) {
    const built = join(root, 'dist', file.replace(/\.ts$/, '.js'));
    let builtAt;
    try {
      builtAt = statSync(built).mtimeMs;
    } catch {
      return file;
    }
    if (statSync(join(root, 'src', file)).mtimeMs > builtAt) return file;
  }
  return null;
}

export function ensureBuilt(root, { build }) {
  const stale = staleSource(root);
  if (stale === null) return;
  if (!build) {
    console.warn(`warning: dist/ is older than src/${stale}; benchmarking it anyway (--no-build)`);
    return;
  }
  console.log(`dist/ is older than src/${stale}: running npm run build`);
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0)
    throw new Error('npm run build failed; fix the build or pass --no-build');
}
