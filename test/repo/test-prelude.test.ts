import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../cli/support.js';

/**
 * Suites that set themselves up another way, each with why. Anything else starts with
 * the prelude of `test/support/suite.ts`: `describeOnDatabases` (or
 * `describeOnOwnDatabases`) and `labSuite` or `appSuite`.
 */
const OWN_SETUP: Record<string, string> = {
  'test/webhooks/thread.test.ts':
    'the delivery thread opens the same database by its own configuration, as the built server does',
  'test/kernel/database-busy.test.ts':
    'an app on a SQLite file that another connection holds the write lock of',
};

/** This file, whose examples are what it refuses. */
const SELF = 'test/repo/test-prelude.test.ts';

/** What building the prelude by hand looks like. */
const HAND_BUILT: [what: string, pattern: RegExp][] = [
  [
    'a suite per database built by hand (describeOnDatabases)',
    /\.each\(\s*(?:databaseTargets|isolatedTargets)\(\)|(?:databaseTargets|isolatedTargets)\(\)\s*\.(?:map|forEach)\(|\bof\s+(?:databaseTargets|isolatedTargets)\(\)/,
  ],
  ['an app kept for the suite by hand (appSuite or labSuite)', /^\s*\w+ = await startTestApp\(/m],
  ['a lab kept for the suite by hand (labSuite)', /^\s*\w+ = await createLab\(/m],
];

function testFiles(): string[] {
  return readdirSync(join(REPO_ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .map((file) => `test/${file.replace(/\\/g, '/')}`)
    .filter(
      (file) => /\.test\.ts$/.test(file) && !file.startsWith('test/support/') && file !== SELF,
    );
}

/** The hand-built preludes in a file's text: what each is, and its line. */
function handBuilt(text: string): string[] {
  return HAND_BUILT.flatMap(([what, pattern]) => {
    const found = new RegExp(pattern.source, `${pattern.flags}g`);
    return [...text.matchAll(found)].map(
      (match) => `${what}, line ${text.slice(0, match.index).split('\n').length}`,
    );
  });
}

describe('one test prelude', () => {
  it('finds each hand-built prelude it refuses', () => {
    expect(
      handBuilt(
        [
          "describe.each(databaseTargets())('Plants on $name', (target) => {",
          '  let t: TestApp;',
          '  beforeAll(async () => {',
          '    t = await startTestApp(target);',
          '  });',
          '  beforeEach(async () => {',
          '    lab = await createLab(t.database);',
          '  });',
          '});',
          "describe.each(isolatedTargets())('Hooks ($name)', () => {});",
          'for (const target of databaseTargets()) describe(target.name, () => {});',
        ].join('\n'),
      ),
    ).toEqual([
      'a suite per database built by hand (describeOnDatabases), line 1',
      'a suite per database built by hand (describeOnDatabases), line 10',
      'a suite per database built by hand (describeOnDatabases), line 11',
      'an app kept for the suite by hand (appSuite or labSuite), line 4',
      'a lab kept for the suite by hand (labSuite), line 7',
    ]);
    expect(
      handBuilt(
        [
          "describeOnDatabases('Plants', (target) => {",
          '  const { t, lab, owner } = labSuite(target);',
          "  it('starts its own app', async () => {",
          "    const other = await startTestApp(target, { env: { PUBLIC_URL: 'https://x' } });",
          '    const second = await createLab(t.database);',
          '  });',
          '});',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('is the only one: no test file outside test/support builds it by hand', () => {
    const files = testFiles();
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) =>
      file in OWN_SETUP
        ? []
        : handBuilt(readFileSync(join(REPO_ROOT, file), 'utf8')).map((what) => `${file}: ${what}`),
    );
    expect(found).toEqual([]);
  });

  it('names only suites that still set themselves up another way', () => {
    for (const file of Object.keys(OWN_SETUP)) {
      expect(handBuilt(readFileSync(join(REPO_ROOT, file), 'utf8')), file).not.toEqual([]);
    }
  });
});
