import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { body, createLab, sqliteTarget } from '../support/harness.js';
import { appSuite, describeOnDatabases, labSuite } from '../support/suite.js';

const tempDirEnv = () => ({ VITRO_DATA_DIR: mkdtempSync(join(tmpdir(), 'vitro-metrics-')) });

describe('GET /', () => {
  const { t } = appSuite(sqliteTarget());

  it('points to the docs page and the OpenAPI document, in the envelope', async () => {
    const res = await t.request({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBeDefined();
    expect(body(res)).toEqual({
      ok: true,
      data: {
        name: 'Vitro lab API',
        docs: '/docs',
        openapi: '/api/v1/openapi.json',
        api: '/api/v1',
      },
    });
    for (const path of [body(res).data.docs, body(res).data.openapi]) {
      expect((await t.request({ method: 'GET', url: path })).statusCode, path).toBe(200);
    }
  });
});

describe('GET /api/v1', () => {
  const { t } = appSuite(sqliteTarget());

  it('says what the API is without a key: its name, version and where its docs are', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1' });
    expect(res.statusCode).toBe(200);
    expect(body(res)).toEqual({
      ok: true,
      data: {
        name: 'Vitro lab API',
        version: '1',
        server_version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        docs: '/docs',
        openapi: '/api/v1/openapi.json',
      },
    });
    // With a key too (a client checking its address and key at once).
    const lab = await createLab(t.database);
    expect(
      body(await t.request({ method: 'GET', url: '/api/v1', headers: lab.owner.headers })).data
        .version,
    ).toBe('1');
  });
});

describe('GET /metrics without METRICS_TOKEN: loopback clients only', () => {
  const { t } = appSuite(sqliteTarget());

  it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])(
    'answers %s',
    async (remoteAddress) => {
      const res = await t.request({ method: 'GET', url: '/metrics', remoteAddress });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('vitro_http_requests_total');
    },
  );

  it.each(['10.1.2.3', '192.168.0.7', '2001:db8::1', '::ffff:10.0.0.1'])(
    'refuses %s with 403 naming METRICS_TOKEN',
    async (remoteAddress) => {
      const res = await t.request({ method: 'GET', url: '/metrics', remoteAddress });
      expect(res.statusCode).toBe(403);
      expect(body(res)).toMatchObject({ ok: false, data: null, code: 'FORBIDDEN' });
      expect(body(res).error).toContain('METRICS_TOKEN');
      expect(res.body).not.toContain('vitro_http');
    },
  );

  it.each([
    'localhost',
    'localhost:3000',
    '127.0.0.1:3000',
    '[::1]:3000',
    hostname(),
    `${hostname().toUpperCase()}:3000`,
  ])('answers a loopback client calling it by its own name: Host %s', async (host) => {
    const res = await t.request({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '127.0.0.1',
      headers: { host },
    });
    expect(res.statusCode).toBe(200);
  });

  it.each(['evil.example:3000', 'evil.example', 'rebind.attacker.test:80'])(
    'refuses a loopback client calling it by another name (DNS rebinding): Host %j',
    async (host) => {
      const res = await t.request({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '127.0.0.1',
        headers: { host },
      });
      expect(res.statusCode).toBe(403);
      expect(body(res)).toMatchObject({ ok: false, code: 'FORBIDDEN' });
      expect(body(res).error).toContain('METRICS_TOKEN');
      expect(body(res).error).toContain("this server's own names");
      expect(res.body).not.toContain('vitro_http');
    },
  );

  it('answers a real loopback socket', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (t.app.server.address() as AddressInfo).port;
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('vitro_http_request_duration_seconds');
  });
});

describe('GET /metrics by the name PUBLIC_URL gives', () => {
  const { t } = appSuite(sqliteTarget(), {
    env: { PUBLIC_URL: 'https://Lab.Example.org', HOST: 'lab-server' },
  });

  it.each(['lab.example.org', 'LAB.example.org:443', 'lab-server:3000'])(
    'answers a loopback client calling it %s',
    async (host) => {
      const res = await t.request({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '::1',
        headers: { host },
      });
      expect(res.statusCode).toBe(200);
    },
  );

  it('refuses any other name', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '::1',
      headers: { host: 'lab.example.org.evil.test' },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('GET /metrics with METRICS_TOKEN: the token from anywhere', () => {
  const token = 'metrics-token-0123456789abcdef';
  const { t } = appSuite(sqliteTarget(), { env: { METRICS_TOKEN: token } });

  it.each(['127.0.0.1', '10.1.2.3'])('answers %s sending the token', async (remoteAddress) => {
    const res = await t.request({
      method: 'GET',
      url: '/metrics',
      remoteAddress,
      // The token, not the name, is the proof: any Host will do.
      headers: { authorization: `Bearer ${token}`, host: 'metrics.example:9100' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('vitro_http_requests_total');
  });

  it.each([
    ['no header', undefined],
    ['a wrong token', `Bearer ${token}x`],
    ['the token without Bearer', token],
  ])('refuses %s with 401, from loopback too', async (_name, authorization) => {
    const res = await t.request({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '127.0.0.1',
      headers: authorization === undefined ? {} : { authorization },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(body(res)).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
    expect(body(res).error).toContain('METRICS_TOKEN');
  });

  it('refuses a short or spaced METRICS_TOKEN at start-up', () => {
    for (const bad of ['short', 'has a space in it somewhere']) {
      expect(() => loadConfig({ ...tempDirEnv(), METRICS_TOKEN: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ ...tempDirEnv(), METRICS_TOKEN: bad })).toThrow(/^METRICS_TOKEN: /);
    }
  });
});

describeOnDatabases('X-Content-Type-Options', (target) => {
  const { t, lab } = labSuite(target);

  it('is nosniff on every answer: API JSON, errors, docs, OpenAPI, health, metrics', async () => {
    const answers = [
      await t.request({ method: 'GET', url: '/' }),
      await t.request({ method: 'GET', url: '/api/v1/plants', headers: lab.owner.headers }),
      await t.request({
        method: 'POST',
        url: '/api/v1/plants',
        headers: lab.owner.headers,
        payload: { species: 'Ficus' },
      }),
      await t.request({ method: 'GET', url: '/api/v1/plants' }),
      await t.request({ method: 'GET', url: '/api/v1/nowhere' }),
      await t.request({ method: 'PUT', url: '/api/v1/plants' }),
      await t.request({ method: 'GET', url: '/api/v1/plants/%zz' }),
      await t.request({ method: 'GET', url: '/docs' }),
      await t.request({ method: 'GET', url: '/docs/static/swagger-ui.css' }),
      await t.request({ method: 'GET', url: '/api/v1/openapi.json' }),
      await t.request({ method: 'GET', url: '/healthz' }),
      await t.request({ method: 'GET', url: '/metrics' }),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([
      200, 200, 201, 401, 404, 405, 400, 200, 200, 200, 200, 200,
    ]);
    for (const res of answers) {
      expect(res.headers['x-content-type-options'], res.raw.req.url).toBe('nosniff');
    }
  });
});
