import { expect, it } from 'vitest';
import Type from 'typebox';
import { body } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describeOnDatabases('HTTP conventions', (target) => {
  const { t, lab } = labSuite(
    target,
    {
      extraRoutes: (routes) => {
        routes.read({
          url: '/api/v1/test/boom',
          operationId: 'testBoom',
          tags: ['Account'],
          summary: 'fails',
          scope: null,
          plan: 'any',
          failureCode: 'PLANT_QUERY_FAILED',
          data: Type.Object({}),
          handler: async () => {
            throw new Error('secret table plants_x exploded at /srv/db');
          },
        });
      },
    },
    { shared: true },
  );

  it('wraps success in the envelope with a fresh X-Request-Id', async () => {
    const first = await t.request({ method: 'GET', url: '/api/v1/me', headers: lab.owner.headers });
    const second = await t.request({
      method: 'GET',
      url: '/api/v1/me',
      headers: lab.owner.headers,
    });
    expect(first.statusCode).toBe(200);
    expect(body(first).ok).toBe(true);
    expect(first.headers['x-request-id']).toMatch(UUID);
    expect(second.headers['x-request-id']).toMatch(UUID);
    expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
  });

  it('ignores a request id sent by the client', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/v1/me',
      headers: { ...lab.owner.headers, 'x-request-id': 'client-chosen' },
    });
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('answers unknown routes with 404 NOT_FOUND in the envelope', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(body(res)).toEqual({
      ok: false,
      data: null,
      error: expect.any(String),
      code: 'NOT_FOUND',
    });
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('answers a wrong method on a known path with 405 and Allow', async () => {
    const res = await t.request({ method: 'DELETE', url: '/api/v1/plants' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
    expect(body(res)).toMatchObject({ ok: false, data: null, code: 'METHOD_NOT_ALLOWED' });
    expect(res.headers['x-request-id']).toMatch(UUID);
    const withParam = await t.request({ method: 'POST', url: `/api/v1/plants/${lab.workspaceId}` });
    expect(withParam.statusCode).toBe(405);
    expect(withParam.headers.allow).toBe('GET, PATCH');
  });

  it('hides internals of a 500 and uses the operation failure code', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/v1/test/boom',
      headers: lab.owner.headers,
    });
    expect(res.statusCode).toBe(500);
    const failure = body(res);
    expect(failure).toMatchObject({ ok: false, data: null, code: 'PLANT_QUERY_FAILED' });
    expect(failure.error).not.toMatch(/secret|plants_x|srv/);
    expect(failure.error).toContain(res.headers['x-request-id']);
  });

  it('refuses invalid JSON with 400 and schema failures with 422 naming the first problem', async () => {
    const invalid = await t.request({
      method: 'POST',
      url: '/api/v1/plants',
      headers: { ...lab.owner.headers, 'content-type': 'application/json' },
      payload: '{"species": ',
    });
    expect(invalid.statusCode).toBe(400);
    expect(body(invalid).code).toBe('VALIDATION_ERROR');

    const empty = await t.request({
      method: 'POST',
      url: '/api/v1/plants',
      headers: lab.owner.headers,
      payload: { species: '' },
    });
    expect(empty.statusCode).toBe(422);
    expect(body(empty)).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: expect.stringMatching(/^species:/),
    });

    const wrongType = await t.request({
      method: 'POST',
      url: '/api/v1/plants',
      headers: lab.owner.headers,
      payload: { species: 12 },
    });
    expect(wrongType.statusCode).toBe(422);
    expect(body(wrongType).error).toMatch(/^species: must be string/);
  });

  it('rejects unknown body fields instead of stripping them, and changes nothing', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/plants',
      headers: lab.owner.headers,
      payload: { species: 'Ficus', colour: 'green' },
    });
    expect(res.statusCode).toBe(422);
    expect(body(res).error).toContain('colour');
    const list = await t.request({
      method: 'GET',
      url: '/api/v1/plants',
      headers: lab.owner.headers,
    });
    expect(body(list).data).toEqual([]);
  });

  it('treats an empty JSON body as no body', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/v1/me',
      headers: { ...lab.owner.headers, 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses bodies over 4.5 MB with 413 in the envelope, before authentication', async () => {
    const big = JSON.stringify({ species: 'x'.repeat(4.6 * 1024 * 1024) });
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/plants',
      headers: { 'content-type': 'application/json' },
      payload: big,
    });
    expect(res.statusCode).toBe(413);
    expect(body(res)).toMatchObject({ ok: false, data: null, code: 'PAYLOAD_TOO_LARGE' });
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('refuses a non-JSON content type with 415', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/plants',
      headers: { ...lab.owner.headers, 'content-type': 'text/plain' },
      payload: 'species=x',
    });
    expect(res.statusCode).toBe(415);
    expect(body(res).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('serves health, readiness, metrics, OpenAPI and docs without a key', async () => {
    expect((await t.request({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const ready = await t.request({ method: 'GET', url: '/readyz' });
    expect(body(ready)).toMatchObject({ ok: true, data: { database: target.name } });
    const metrics = await t.request({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(
      /vitro_http_requests_total\{method="GET",route="\/api\/v1\/me",status="200"\} \d+/,
    );
    expect(metrics.body).toContain('vitro_http_request_duration_seconds_bucket');
    const docs = await t.request({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger');
  });
});
