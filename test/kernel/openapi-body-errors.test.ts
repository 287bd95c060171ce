import { beforeAll, describe, expect, it } from 'vitest';
import { createLab, sqliteTarget } from '../support/harness.js';
import { signIn } from '../support/sessions.js';
import { appSuite } from '../support/suite.js';

interface Operation {
  operationId: string;
  'x-body-any-type'?: boolean;
  security: Record<string, unknown>[];
  requestBody?: unknown;
  responses: Record<string, { description: string }>;
}

/**
 * Every operation that takes a body refuses a body that is not JSON with
 * 415 UNSUPPORTED_MEDIA_TYPE, so its OpenAPI responses must say so; except the
 * device endpoints (`x-body-any-type`), which read JSON whatever its type says, and
 * say so: there the same body is invalid JSON (400).
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
  const anyType = () => operations.filter(({ op }) => op['x-body-any-type'] === true);
  const jsonOnly = () => operations.filter(({ op }) => op['x-body-any-type'] !== true);

  it('reads JSON of any type on the three device endpoints only', () => {
    expect(
      anyType()
        .map(({ op }) => op.operationId)
        .sort(),
    ).toEqual(['createDeviceEvent', 'createSensorReadings', 'sendHeartbeat']);
    for (const { op } of anyType()) expect(op.responses['415']).toBeUndefined();
  });

  it('answers a body that is not JSON with 415 UNSUPPORTED_MEDIA_TYPE (400 where any type is read)', async () => {
    expect(operations.length).toBeGreaterThan(0);
    const lab = await createLab(t.database);
    // The console's operations take the owner's console session, the others the owner's key.
    const session = await signIn(t, lab.owner.memberId);
    for (const { method, path, op } of operations) {
      const any = op['x-body-any-type'] === true;
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
        status: any ? 400 : 415,
        code: any ? 'VALIDATION_ERROR' : 'UNSUPPORTED_MEDIA_TYPE',
      });
    }
  });

  it('documents 415 UNSUPPORTED_MEDIA_TYPE among their responses', () => {
    const missing = jsonOnly()
      .filter(({ op }) => !op.responses['415']?.description.includes('UNSUPPORTED_MEDIA_TYPE'))
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(missing).toEqual([]);
  });
});
