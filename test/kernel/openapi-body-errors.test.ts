import { beforeAll, describe, expect, it } from 'vitest';
import { createLab, sqliteTarget } from '../support/harness.js';
import { signIn } from '../support/sessions.js';
import { appSuite } from '../support/suite.js';

interface Operation {
  operationId: string;
  security: Record<string, unknown>[];
  requestBody?: unknown;
  responses: Record<string, { description: string }>;
}

/**
 * Every operation that takes a body refuses a body that is not JSON with
 * 415 UNSUPPORTED_MEDIA_TYPE, so its OpenAPI responses must say so.
 * Needs route.ts to list UNSUPPORTED_MEDIA_TYPE among the body codes.
 */
describe('OpenAPI document: errors of operations with a body', () => {
  const { t } = appSuite(sqliteTarget());
  let operations: { method: string; path: string; op: Operation }[];
  beforeAll(async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    operations = Object.entries(doc.paths as Record<string, Record<string, Operation>>)
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({ method, path, op })),
      )
      .filter(({ op }) => op.requestBody !== undefined);
  });

  it('answers a body that is not JSON with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    expect(operations.length).toBeGreaterThan(0);
    const lab = await createLab(t.database);
    // The console's operations take the owner's console session, the others the owner's key.
    const session = await signIn(t, lab.owner.memberId);
    for (const { method, path, op } of operations) {
      const url = path.replace(/\{[^}]+\}/g, '01a20994-bad1-7159-891f-1eb2385ee77e');
      const byKey = op.security.some((requirement) => 'bearerAuth' in requirement);
      const request = {
        method: method.toUpperCase() as 'POST',
        url,
        headers: { 'content-type': 'text/plain' },
        payload: 'not json',
      };
      const res = byKey
        ? await t.request({ ...request, headers: { ...lab.owner.headers, ...request.headers } })
        : await session.request(request);
      expect({ op: `${method} ${path}`, status: res.statusCode, code: res.json().code }).toEqual({
        op: `${method} ${path}`,
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
      });
    }
  });

  it('documents 415 UNSUPPORTED_MEDIA_TYPE among their responses', () => {
    const missing = operations
      .filter(({ op }) => !op.responses['415']?.description.includes('UNSUPPORTED_MEDIA_TYPE'))
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(missing).toEqual([]);
  });
});
