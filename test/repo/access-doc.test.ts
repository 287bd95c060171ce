import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimumRoleForScope, SCOPES } from '../../src/kernel/access.js';
import { REPO_ROOT } from '../cli/support.js';
import { databaseTargets, startTestApp, type TestApp } from '../support/harness.js';

const doc = readFileSync(join(REPO_ROOT, 'docs', 'access.md'), 'utf8');
const ADDED_HEADING = '## Operations Vitro adds';

/** The cells of every table row whose first cell matches (in `text`, default the whole page). */
function rows(first: RegExp, text: string = doc): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/`/g, '')),
    )
    .filter((cells) => first.test(cells[0]!));
}

describe('docs/access.md agrees with the code', () => {
  let t: TestApp;
  let operations: { method: string; path: string; scope: string | null }[];
  beforeAll(async () => {
    t = await startTestApp(databaseTargets()[0]!);
    const openapi = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json<{
      paths: Record<string, Record<string, { 'x-scope'?: string | null }>>;
    }>();
    operations = Object.entries(openapi.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path: path.replace(/^\/api\/v1/, ''),
        scope: op['x-scope'] ?? null,
      })),
    );
  });
  afterAll(() => t.close());

  it('lists the 36 scopes with the role each needs', () => {
    const scopes = rows(/^(read|write):/);
    expect(scopes.map((cells) => cells[0])).toEqual([...SCOPES]);
    for (const [scope, , role] of scopes) {
      expect(role, scope).toBe(minimumRoleForScope(scope as (typeof SCOPES)[number]));
    }
  });

  it('lists the 58 operations of the catalogue and those Vitro adds, each served one with its scope', () => {
    const [catalogue, added] = doc.split(ADDED_HEADING) as [string, string];
    expect(rows(/^(GET|POST|PATCH|DELETE)$/, catalogue)).toHaveLength(58);
    const table = [
      ...rows(/^(GET|POST|PATCH|DELETE)$/, catalogue),
      ...rows(/^(GET|POST|PATCH|DELETE)$/, added),
    ];
    const byOperation = new Map(table.map((cells) => [`${cells[0]} ${cells[1]}`, cells[2]]));
    expect(operations.length).toBeGreaterThan(10);
    // Every operation listed is served (nothing documented that does not exist).
    const served = new Set(operations.map(({ method, path }) => `${method} ${path}`));
    for (const key of byOperation.keys()) {
      if (
        rows(/^(GET|POST|PATCH|DELETE)$/, added).some((cells) => `${cells[0]} ${cells[1]}` === key)
      ) {
        expect(served.has(key), key).toBe(true);
      }
    }
    for (const { method, path, scope } of operations) {
      const key = `${method} ${path}`;
      expect(byOperation.get(key), key).toBe(scope ?? 'none');
    }
    // No row names an operation that is not served.
    expect(table).toHaveLength(operations.length);
  });
});
