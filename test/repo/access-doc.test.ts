import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimumRoleForScope, SCOPES } from '../../src/kernel/access.js';
import { REPO_ROOT } from '../cli/support.js';
import { databaseTargets, startTestApp, type TestApp } from '../support/harness.js';

const doc = readFileSync(join(REPO_ROOT, 'docs', 'access.md'), 'utf8');
/** Operations Vitro serves beyond the catalogue have their own table, after this heading. */
const BEYOND = '## Operations beyond the catalogue';
const [catalogueDoc, beyondDoc = ''] = doc.split(BEYOND);

/** The cells of every table row whose first cell matches. */
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

  it('lists the 34 scopes with the role each needs', () => {
    const scopes = rows(/^(read|write):/);
    expect(scopes.map((cells) => cells[0])).toEqual([...SCOPES]);
    for (const [scope, , role] of scopes) {
      expect(role, scope).toBe(minimumRoleForScope(scope as (typeof SCOPES)[number]));
    }
  });

  it('lists the 58 operations of the catalogue and those beyond it, each served one with its scope', () => {
    const method = /^(GET|POST|PATCH|DELETE)$/;
    const table = rows(method, catalogueDoc);
    expect(table).toHaveLength(58);
    const byOperation = new Map(
      [...table, ...rows(method, beyondDoc)].map((cells) => [`${cells[0]} ${cells[1]}`, cells[2]]),
    );
    expect(operations.length).toBeGreaterThan(10);
    for (const { method, path, scope } of operations) {
      const key = `${method} ${path}`;
      if (['POST /sop-runs/{id}/complete', 'GET /sop-runs/{id}/events'].includes(key)) continue;
      expect(byOperation.get(key), key).toBe(scope ?? 'none');
    }
  });
});
