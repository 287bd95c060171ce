import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { minimumRoleForScope, SCOPES } from '../../src/kernel/access.js';
import { REPO_ROOT } from '../cli/support.js';
import { sqliteTarget } from '../support/harness.js';
import { appSuite } from '../support/suite.js';

const whole = readFileSync(join(REPO_ROOT, 'docs', 'access.md'), 'utf8');
const ADDED_HEADING = '## Operations Vitro adds';
const CONSOLE_SECTION = '### Operations of the console';
const [beforeConsole, consoleOps] = whole.split(CONSOLE_SECTION) as [string, string];
const [catalogue, added] = beforeConsole.split(ADDED_HEADING) as [string, string];
const SECTIONS = { catalogue, added, console: consoleOps };

/** The cells of every table row whose first cell matches, in one section of the page. */
function rows(first: RegExp, section: keyof typeof SECTIONS = 'catalogue'): string[][] {
  return SECTIONS[section]
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
  const { t } = appSuite(sqliteTarget());
  let operations: {
    method: string;
    path: string;
    scope: string | null;
    plan: string;
    security: string[];
  }[];
  beforeAll(async () => {
    const openapi = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json<{
      paths: Record<
        string,
        Record<
          string,
          { 'x-scope'?: string | null; 'x-plan': string; security: Record<string, unknown>[] }
        >
      >;
    }>();
    operations = Object.entries(openapi.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase(),
        path: path.replace(/^\/api\/v1/, ''),
        scope: op['x-scope'] ?? null,
        plan: op['x-plan'],
        security: op.security.flatMap((s) => Object.keys(s)),
      })),
    );
  });

  it('lists the 46 scopes with the role each needs', () => {
    const scopes = rows(/^(read|write):/);
    expect(scopes.map((cells) => cells[0])).toEqual([...SCOPES]);
    for (const [scope, , role] of scopes) {
      expect(role, scope).toBe(minimumRoleForScope(scope as (typeof SCOPES)[number]));
    }
  });

  it('lists the 58 operations of the catalogue and those Vitro adds, each served one with its scope', () => {
    const methods = /^(GET|POST|PATCH|DELETE)$/;
    expect(rows(methods)).toHaveLength(58);
    const table = [...rows(methods), ...rows(methods, 'added')];
    const byOperation = new Map(table.map((cells) => [`${cells[0]} ${cells[1]}`, cells[2]]));
    const keyed = operations.filter((op) => op.security.includes('bearerAuth'));
    expect(keyed.length).toBeGreaterThan(10);
    for (const { method, path, scope } of keyed) {
      const key = `${method} ${path}`;
      expect(byOperation.get(key), key).toBe(scope ?? 'none');
    }
    // No row names an operation that is not served.
    expect(table).toHaveLength(keyed.length);
  });

  it("lists the console's operations with the credential and plan each takes", () => {
    const table = rows(/^(GET|POST|PATCH|DELETE)$/, 'console');
    const served = operations.filter((op) => !op.security.includes('bearerAuth'));
    expect(served.length).toBeGreaterThan(10);
    expect(table).toHaveLength(served.length);
    const byOperation = new Map(table.map((cells) => [`${cells[0]} ${cells[1]}`, cells]));
    for (const { method, path, plan, security } of served) {
      const cells = byOperation.get(`${method} ${path}`);
      expect(cells, `${method} ${path}`).toBeDefined();
      expect(cells![2]).toBe(security.includes('signInLink') ? 'link' : 'session');
      expect(cells![4]).toBe(plan);
    }
  });
});
