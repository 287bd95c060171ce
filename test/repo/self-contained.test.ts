import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../cli/support.js';

/** Built from parts, so that this file does not hold what it looks for. */
const OUTSIDE = ['..', 'shared'].join('/');

/**
 * Tracked files and new ones not ignored, as a clone (or the next commit) would
 * have them; outside a git checkout, the files of the project's own folders.
 */
function repositoryFiles(): string[] {
  try {
    return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .split('\n')
      .filter((file) => file !== '' && file !== 'package-lock.json');
  } catch {
    const folders = ['docs', 'src', 'test', 'bench', 'scripts', 'bin', '.ci'];
    return [
      'README.md',
      'package.json',
      ...folders.flatMap((folder) =>
        readdirSync(join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
          .map((file) => `${folder}/${file.replace(/\\/g, '/')}`)
          .filter((file) => statSync(join(REPO_ROOT, file)).isFile()),
      ),
    ];
  }
}

describe('the repository is self-contained', () => {
  it(`no file refers to ${OUTSIDE}, which a clone does not have`, () => {
    const files = repositoryFiles();
    for (const required of ['README.md', 'docs/configuration.md', 'src/app.ts']) {
      expect(files).toContain(required);
    }
    const offenders: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(join(REPO_ROOT, file), 'utf8');
      } catch {
        continue; // listed but deleted in the work tree
      }
      if (text.includes('\u0000')) continue;
      text.split('\n').forEach((line, index) => {
        if (line.includes(OUTSIDE)) offenders.push(`${file}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(offenders).toEqual([]);
  });

  it('links in README and docs point to files that exist', () => {
    const files = new Set(repositoryFiles());
    const broken: string[] = [];
    for (const file of [...files].filter((f) => f === 'README.md' || /^docs\/.*\.md$/.test(f))) {
      const text = readFileSync(join(REPO_ROOT, file), 'utf8');
      const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const path = join(dir, target!).replace(/\\/g, '/');
        if (!files.has(path)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
