import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { body, createLab } from '../support/harness.js';
import { signIn } from '../support/sessions.js';
import { appSuite, describeOnDatabases } from '../support/suite.js';

const TOOL = 'https://tools.lab.example';

describeOnDatabases('CORS', (target) => {
  describe('with nothing configured', () => {
    const { t } = appSuite(target);

    it('sends no CORS header and answers OPTIONS 405, as before', async () => {
      const lab = await createLab(t.database);
      const preflight = await t.request({
        method: 'OPTIONS',
        url: '/api/v1/plants',
        headers: { origin: TOOL, 'access-control-request-method': 'POST' },
      });
      expect(preflight.statusCode).toBe(405);
      expect(body(preflight).code).toBe('METHOD_NOT_ALLOWED');
      const get = await t.request({
        method: 'GET',
        url: '/api/v1/plants',
        headers: { origin: TOOL, ...lab.owner.headers },
      });
      expect(get.statusCode).toBe(200);
      expect(Object.keys(get.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    });
  });

  describe('with CORS_ORIGINS', () => {
    const { t } = appSuite(target, { env: { CORS_ORIGINS: `${TOOL}, http://localhost:5173` } });

    it('answers the preflights of the origins listed, and only theirs', async () => {
      const preflight = await t.request({
        method: 'OPTIONS',
        url: '/api/v1/plants',
        headers: {
          origin: TOOL,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, idempotency-key',
        },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers).toMatchObject({
        'access-control-allow-origin': TOOL,
        'access-control-allow-methods': 'GET, POST, PATCH, DELETE',
        'access-control-allow-headers': 'Authorization, Content-Type, Idempotency-Key',
        'access-control-max-age': '600',
        vary: 'Origin',
      });
      expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
      const stranger = await t.request({
        method: 'OPTIONS',
        url: '/api/v1/plants',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(stranger.statusCode).toBe(405);
      expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('lets a listed origin call with a key, and never honours a session cookie from there', async () => {
      const lab = await createLab(t.database);
      const created = await t.request({
        method: 'POST',
        url: '/api/v1/plants',
        headers: { origin: TOOL, ...lab.owner.headers },
        payload: { species: 'Ficus' },
      });
      expect(created.statusCode).toBe(201);
      expect(created.headers['access-control-allow-origin']).toBe(TOOL);
      expect(created.headers['access-control-expose-headers']).toContain('X-Request-Id');
      expect(created.headers['access-control-allow-credentials']).toBeUndefined();

      const session = await signIn(t, lab.owner.memberId);
      const read = await t.request({
        method: 'GET',
        url: '/api/v1/plants',
        headers: { origin: TOOL, cookie: session.cookie },
      });
      expect(read.statusCode).toBe(401);
      const write = await t.request({
        method: 'POST',
        url: '/api/v1/plants',
        headers: { origin: TOOL, cookie: session.cookie },
        payload: { species: 'Ficus' },
      });
      expect(write.statusCode).toBe(403);
      const keyed = await t.request({
        method: 'GET',
        url: '/api/v1/plants',
        headers: { origin: TOOL, cookie: session.cookie, ...lab.owner.headers },
      });
      expect(body(keyed).data).toHaveLength(1);
    });
  });
});

describe('CORS_ORIGINS', () => {
  const parse = (value: string) =>
    loadConfig({ VITRO_SECRET: 'x'.repeat(32), CORS_ORIGINS: value });

  it('takes exact origins, comma-separated', () => {
    expect(parse(' https://a.example , http://b.example:8080 ').corsOrigins).toEqual([
      'https://a.example',
      'http://b.example:8080',
    ]);
    expect(loadConfig({ VITRO_SECRET: 'x'.repeat(32) }).corsOrigins).toEqual([]);
  });

  it.each([
    ['*', 'CORS_ORIGINS: list the origins allowed one by one; * is not accepted'],
    [
      'tools.example',
      'CORS_ORIGINS: "tools.example" is not an origin such as https://tools.example.org',
    ],
    ['https://a.example/path', 'CORS_ORIGINS: "https://a.example/path" is not an origin'],
    ['ftp://a.example', 'CORS_ORIGINS: "ftp://a.example" is not an origin'],
  ])('refuses %s naming the variable', (value, message) => {
    expect(() => parse(value)).toThrow(ConfigError);
    expect(() => parse(value)).toThrow(message);
  });
});
