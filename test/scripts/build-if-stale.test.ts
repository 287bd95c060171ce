import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/node-script.js';

/** A tiny project laid out like this one: src/, the two tsconfig files, the script. */
function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'vitro-build-'));
  mkdirSync(join(root, 'scripts'));
  copyFileSync(
    join(REPO_ROOT, 'scripts', 'build-if-stale.mjs'),
    join(root, 'scripts', 'build-if-stale.mjs'),
  );
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'));
  // A small lib keeps each compile near a second; the script does not care.
  const options = {
    target: 'ES2022',
    module: 'NodeNext',
    strict: true,
    types: [],
    lib: ['es5'],
    skipLibCheck: true,
    resolveJsonModule: true,
  };
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: options, include: ['src'] }),
  );
  writeFileSync(
    join(root, 'tsconfig.build.json'),
    JSON.stringify({
      extends: './tsconfig.json',
      compilerOptions: { rootDir: 'src', outDir: 'dist' },
      include: ['src'],
    }),
  );
  mkdirSync(join(root, 'src', 'sub'), { recursive: true });
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a: number = 1;\n');
  writeFileSync(join(root, 'src', 'sub', 'b.ts'), 'export const b = 2;\n');
  return root;
}

function run(root: string) {
  const result = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], {
    cwd: root,
    encoding: 'utf8',
  });
  return { code: result.status, stderr: result.stderr };
}

/** Edits `path` after the last build: every file is aged 10 s, then `path` is touched now. */
function touchAfterBuild(root: string, path: string): void {
  const before = new Date(Date.now() - 10_000);
  for (const dir of ['src', 'dist']) {
    for (const file of readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })) {
      utimesSync(join(root, dir, file), before, before);
    }
  }
  for (const config of ['tsconfig.json', 'tsconfig.build.json']) {
    utimesSync(join(root, config), before, before);
  }
  const now = new Date();
  utimesSync(path, now, now);
}

describe('npm start builds only when src/ changed (scripts/build-if-stale.mjs)', () => {
  it('builds a fresh clone, then skips until a source or tsconfig changes', () => {
    const root = project();
    expect(run(root)).toEqual({
      code: 0,
      stderr: 'building dist/ (dist/ has no output for src/a.ts)\n',
    });
    const builtAt = statSync(join(root, 'dist', 'sub', 'b.js')).mtimeMs;

    expect(run(root)).toEqual({ code: 0, stderr: '' });
    expect(statSync(join(root, 'dist', 'sub', 'b.js')).mtimeMs).toBe(builtAt);

    touchAfterBuild(root, join(root, 'src', 'sub', 'b.ts'));
    expect(run(root).stderr).toBe(`building dist/ (src/${join('sub', 'b.ts')} changed)\n`);
    // Touched but unchanged: the compiler rewrote nothing, the stamp remembers the build.
    expect(run(root)).toEqual({ code: 0, stderr: '' });

    touchAfterBuild(root, join(root, 'tsconfig.build.json'));
    expect(run(root).stderr).toBe('building dist/ (tsconfig.build.json changed)\n');
    expect(run(root)).toEqual({ code: 0, stderr: '' });
  });

  it('rebuilds when a JSON file the code imports changed', () => {
    const root = project();
    // An ES module, like this project, so that the import may carry its type.
    writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(root, 'src', 'data.json'), '{ "c": 3 }\n');
    writeFileSync(
      join(root, 'src', 'c.ts'),
      "import data from './data.json' with { type: 'json' };\nexport const c = data.c;\n",
    );
    expect(run(root).code).toBe(0);
    expect(statSync(join(root, 'dist', 'data.json')).isFile()).toBe(true);
    expect(run(root)).toEqual({ code: 0, stderr: '' });

    touchAfterBuild(root, join(root, 'src', 'data.json'));
    expect(run(root).stderr).toBe('building dist/ (src/data.json changed)\n');
    expect(run(root)).toEqual({ code: 0, stderr: '' });
  });

  it('fails, and keeps failing, while a source does not compile', () => {
    const root = project();
    expect(run(root).code).toBe(0);
    writeFileSync(join(root, 'src', 'a.ts'), 'export const a: number = "one";\n');
    touchAfterBuild(root, join(root, 'src', 'a.ts'));
    const failed = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(failed.status).not.toBe(0);
    expect(failed.stdout).toMatch(/error TS2322/);
    // The compiler emitted dist/a.js anyway; the next start must not run it.
    const again = run(root);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toBe('building dist/ (the last build failed)\n');

    writeFileSync(join(root, 'src', 'a.ts'), 'export const a: number = 1;\n');
    expect(run(root).code).toBe(0);
    expect(run(root)).toEqual({ code: 0, stderr: '' });
  });
});
