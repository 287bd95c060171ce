import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { sqliteTarget } from '../support/harness.js';
import { appSuite } from '../support/suite.js';

/**
 * The error codes the wire format lists per operation (status and code), as
 * `test/fixtures/operation-errors.json` records them for the 58 operations of the
 * API's catalogue; operations Vitro adds are listed the same way, one file per
 * area, in `test/fixtures/operations/`.
 */
type Listed = Record<string, { method: string; path: string; errors: string[] }>;
const readListed = (url: URL) => JSON.parse(readFileSync(url, 'utf8')) as Listed;
const ADDED = new URL('../fixtures/operations/', import.meta.url);
const LISTED: Listed = Object.assign(
  readListed(new URL('../fixtures/operation-errors.json', import.meta.url)),
  ...readdirSync(ADDED)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => readListed(new URL(file, ADDED))),
);

/**
 * What Vitro documents beyond the list, by rule rather than by operation: every
 * write honours Idempotency-Key (so it can be in flight, and a malformed key is
 * 422); every body can be unparsable (400), too large (413) or not JSON (415);
 * an operation the list gives no 500 still has a code for an unexpected failure.
 */
function allowedExtra(
  code: string,
  op: { isWrite: boolean; hasBody: boolean; listed: readonly string[] },
): boolean {
  if (code === '500 INTERNAL_ERROR') return !op.listed.some((c) => c.startsWith('500 '));
  if (op.isWrite && (code === '409 IDEMPOTENCY_IN_FLIGHT' || code === '422 VALIDATION_ERROR')) {
    return true;
  }
  return (
    op.hasBody &&
    ['400 VALIDATION_ERROR', '413 PAYLOAD_TOO_LARGE', '415 UNSUPPORTED_MEDIA_TYPE'].includes(code)
  );
}

interface Operation {
  operationId: string;
  requestBody?: unknown;
  responses: Record<string, { description: string }>;
}

describe('OpenAPI error responses', () => {
  const { t } = appSuite(sqliteTarget());
  let paths: Record<string, Record<string, Operation>>;
  beforeAll(async () => {
    paths = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json<{
      paths: typeof paths;
    }>().paths;
  });

  it('documents exactly the codes the wire format lists for each operation', () => {
    const problems: string[] = [];
    for (const [path, methods] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const listed = LISTED[op.operationId];
        if (listed === undefined) {
          problems.push(`${op.operationId}: not an operation of the API`);
          continue;
        }
        expect(`${method.toUpperCase()} ${path}`).toBe(`${listed.method} ${listed.path}`);
        const documented = Object.entries(op.responses)
          .filter(([status]) => Number(status) >= 400)
          .flatMap(([status, response]) =>
            response.description
              .replace(/^Failure; code: /, '')
              .split(', ')
              .map((code) => `${status} ${code}`),
          );
        for (const code of listed.errors) {
          if (!documented.includes(code)) problems.push(`${op.operationId}: missing ${code}`);
        }
        const shape = {
          isWrite: method !== 'get',
          hasBody: op.requestBody !== undefined,
          listed: listed.errors,
        };
        for (const code of documented) {
          if (!listed.errors.includes(code) && !allowedExtra(code, shape)) {
            problems.push(
              `${op.operationId}: documents ${code}, which the wire format does not list`,
            );
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
