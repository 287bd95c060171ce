import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateCredential, SECRET_PREFIXES } from '../../src/kernel/credentials.js';
import { redactUrl } from '../../src/kernel/log-redaction.js';
import { newSigningSecret } from '../../src/modules/webhooks/signing.js';
import { body, sqliteTarget } from '../support/harness.js';
import { mintLink, signIn } from '../support/sessions.js';
import { labSuite } from '../support/suite.js';

/** The secret part of a key or token: what must never reach a log. */
const secretBody = (credential: string) => credential.replace(/^xp[kd]_(live|dev)_/, '');
/** `_` percent-encoded, as some clients send it. */
const encoded = (credential: string) => credential.replace(/_/g, '%5F');

describe('request log with keys in query strings, paths and headers', () => {
  let log = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      log += chunk.toString();
      done();
    },
  });
  const { t, lab } = labSuite(
    sqliteTarget(),
    { logger: true, logStream: stream, env: { LOG_LEVEL: 'trace' } },
    { shared: true },
  );
  let base: string;
  beforeAll(async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  it('logs every request without any key or device token', async () => {
    const key = lab.owner.key;
    const device = (await lab.deviceToken()).token;
    const devKey = generateCredential('key', 'development').secret;
    const auth = lab.owner.headers;
    const requests: [string, string, RequestInit?][] = [
      ['GET', '/api/v1/plants', { headers: auth }],
      ['GET', `/api/v1/plants?api_key=${key}`],
      ['GET', `/api/v1/plants?limit=1&KEY=${key}`],
      ['GET', `/api/v1/plants?Token=${device}`],
      ['GET', `/api/v1/plants?ACCESS_TOKEN=${devKey}&offset=0`],
      ['GET', `/api/v1/plants?access_token=${key}&access_token=${device}`],
      ['GET', `/api/v1/plants?api%5Fkey=${key}`],
      ['GET', `/api/v1/plants?token=${encoded(key)}`],
      ['GET', `/api/v1/plants?note=${devKey}`, { headers: auth }],
      ['GET', `/api/v1/plants/${key}`, { headers: auth }],
      ['GET', `/nowhere/${encoded(device)}?token=${device}`],
      ['DELETE', `/api/v1/plants?key=${key}`],
      [
        'GET',
        '/api/v1/plants',
        { headers: { 'x-api-key': key, authorization: `Bearer ${device}` } },
      ],
      ['GET', '/api/v1/me', { headers: { authorization: `Bearer ${devKey}` } }],
      [
        'POST',
        `/api/v1/plants?api_key=${key}`,
        {
          headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify({ species: `Secret ${key}` }),
        },
      ],
    ];
    const statuses: number[] = [];
    for (const [method, path, init] of requests) {
      const res = await fetch(`${base}${path}`, { method, ...init });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses).toEqual([
      200, 401, 401, 401, 401, 401, 401, 401, 200, 404, 404, 405, 403, 401, 201,
    ]);

    const lines = log.trim().split('\n');
    expect(lines.filter((line) => line.includes('"incoming request"'))).toHaveLength(
      requests.length,
    );
    for (const secret of [key, device, devKey]) {
      expect(log).not.toContain(secretBody(secret));
    }
    expect(log).not.toMatch(/xp[kd](_|%5F)(live|dev)(_|%5F)[0-9A-Za-z]{4,}/i);
    expect(log).toContain('/api/v1/plants?api_key=[REDACTED]');
    expect(log).toContain('/api/v1/plants?limit=1&KEY=[REDACTED]');
  });

  it('logs no sign-in link, session or webhook signing secret sent in a URL', async () => {
    const link = (await mintLink(t, lab.owner.memberId)).secret;
    const session = (await signIn(t, lab.owner.memberId)).cookie.split('=')[1]!;
    const signing = newSigningSecret();
    log = '';
    for (const path of [
      `/api/v1/plants?next=${link}`,
      `/sign-in?s=${encodeURIComponent(session)}&limit=1`,
      `/api/v1/webhooks?q=${encodeURIComponent(signing)}`,
      `/nowhere/${link}`,
    ]) {
      await (await fetch(`${base}${path}`, { headers: lab.owner.headers })).arrayBuffer();
    }
    expect(log.match(/"incoming request"/g)).toHaveLength(4);
    for (const secret of [link, session, signing]) {
      expect(log).not.toContain(secret.slice(secret.indexOf('_') + 1, secret.indexOf('_') + 12));
    }
    expect(log).toContain('/api/v1/plants?next=[REDACTED]');
  });

  it('logs only the start of a cursor', async () => {
    for (let i = 0; i < 2; i++) {
      await t.request({
        method: 'POST',
        url: '/api/v1/plants',
        headers: lab.owner.headers,
        payload: { species: `Cursor plant ${i}` },
      });
    }
    const first = await t.request({
      method: 'GET',
      url: '/api/v1/plants?limit=1',
      headers: lab.owner.headers,
    });
    const cursor: string = body(first).meta.next_cursor;
    expect(cursor.length).toBeGreaterThan(40);
    log = '';
    const next = await fetch(`${base}/api/v1/plants?limit=1&cursor=${cursor}`, {
      headers: lab.owner.headers,
    });
    expect(next.status).toBe(200);
    expect(log).toContain(`cursor=${cursor.slice(0, 12)}…`);
    expect(log).not.toContain(cursor.slice(0, 24));
  });
});

describe('redactUrl', () => {
  it.each([
    ['/api/v1/plants', '/api/v1/plants'],
    ['/api/v1/plants?limit=5&offset=10', '/api/v1/plants?limit=5&offset=10'],
    ['/a?api_key=abc', '/a?api_key=[REDACTED]'],
    ['/a?Api_Key=abc&limit=1', '/a?Api_Key=[REDACTED]&limit=1'],
    ['/a?token', '/a?token=[REDACTED]'],
    ['/a?x=1;key=abc', '/a?x=1;key=[REDACTED]'],
    ['/a?access%5Ftoken=abc', '/a?access%5Ftoken=[REDACTED]'],
    ['/a?q=%E0%A4%A', '/a?q=%E0%A4%A'],
    ['/a?cursor=short', '/a?cursor=short'],
    ['/a?cursor=0123456789abcdefghij', '/a?cursor=0123456789ab…'],
    ['/files/xpk_dev_zzzz/x?sig=abc&expires=1', '/files/[REDACTED]/x?sig=[REDACTED]&expires=1'],
    ['/sign-in?next=vsl_abcDEF', '/sign-in?next=[REDACTED]'],
    ['/sign-in/vsl_abc?x=1', '/sign-in/[REDACTED]?x=1'],
    ['/a?s=VSS_abc&limit=2', '/a?s=[REDACTED]&limit=2'],
    ['/a?q=whsec_abc%2Bdef%3D&limit=2', '/a?q=[REDACTED]&limit=2'],
    ['/a?q=whsec%5Fabc', '/a?q=[REDACTED]'],
    ['/a?q=vsl', '/a?q=vsl'],
  ])('%s -> %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it.each(Object.entries(SECRET_PREFIXES))(
    'redacts every kind of secret by its prefix: %s (%s)',
    (_kind, prefix) => {
      const secret = `${prefix}Zz09-_AbC`;
      expect(redactUrl(`/a?q=${secret}&limit=1`)).toBe('/a?q=[REDACTED]&limit=1');
      expect(redactUrl(`/a/${encodeURIComponent(secret)}/b`)).toBe('/a/[REDACTED]/b');
      expect(redactUrl(`/a?${secret}=1`)).toBe('/a?[REDACTED]');
    },
  );
});
