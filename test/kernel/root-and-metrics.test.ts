import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { body, sqliteTarget } from '../support/harness.js';
import { appSuite } from '../support/suite.js';

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

  it('answers a real loopback socket', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (t.app.server.address() as AddressInfo).port;
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('vitro_http_request_duration_seconds');
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
      headers: { authorization: `Bearer ${token}` },
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
