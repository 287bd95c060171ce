import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { Database } from '../../src/db/database.js';
import { generateCredential } from '../../src/kernel/credentials.js';
import { createRateLimiter, type RateLimitSubject } from '../../src/kernel/rate-limit.js';
import {
  body,
  createLab,
  databaseTargets,
  redisUrl,
  startTestApp,
  testConfig,
  type TestApp,
} from '../support/harness.js';
import { startLocalRedis } from '../support/local-services.js';
import { CONSOLE_ORIGIN, mintLink } from '../support/sessions.js';
import { kernelTestRoutes } from './routes.js';
import { describeOnDatabases } from '../support/suite.js';

const limits = (key: number, workspace: number, readingsKey = 1000, readingsWorkspace = 1000) => ({
  VITRO_RATE_LIMIT_KEY_PER_MIN: String(key),
  VITRO_RATE_LIMIT_WORKSPACE_PER_MIN: String(workspace),
  VITRO_RATE_LIMIT_READINGS_KEY_PER_5MIN: String(readingsKey),
  VITRO_RATE_LIMIT_READINGS_WORKSPACE_PER_5MIN: String(readingsWorkspace),
});

describeOnDatabases('rate limits', (target) => {
  const apps: TestApp[] = [];
  const start = async (env: Record<string, string>) => {
    const t = await startTestApp(target, { env, extraRoutes: kernelTestRoutes });
    apps.push(t);
    return t;
  };
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  const me = (t: TestApp, headers: Record<string, string>) =>
    t.request({ method: 'GET', url: '/api/v1/me', headers });

  it('refuses the 6th request of a key with a limit of 5, with Retry-After and the budget named', async () => {
    const t = await start(limits(5, 100));
    const lab = await createLab(t.database);
    for (let i = 0; i < 5; i++) expect((await me(t, lab.owner.headers)).statusCode).toBe(200);
    const refused = await me(t, lab.owner.headers);
    expect(refused.statusCode).toBe(429);
    expect(body(refused)).toMatchObject({ ok: false, data: null, code: 'RATE_LIMIT_EXCEEDED' });
    expect(body(refused).error).toMatch(/key/);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers['x-ratelimit-remaining']).toBeUndefined();
    const other = await createLab(t.database);
    expect((await me(t, other.owner.headers)).statusCode).toBe(200);
  });

  it('says on each success where the tighter request budget stands (X-RateLimit-*), never on a failure', async () => {
    const t = await start(limits(5, 8));
    const lab = await createLab(t.database);
    const first = await me(t, lab.owner.headers);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('5');
    expect(first.headers['x-ratelimit-remaining']).toBe('4');
    const reset = Number(first.headers['x-ratelimit-reset']);
    expect(Number.isInteger(reset) && reset >= 1 && reset <= 60).toBe(true);
    // Another key of the workspace spends its budget: 8 for the workspace, 5 per key.
    const second = await lab.actor('member');
    for (let i = 0; i < 3; i++) expect((await me(t, second.headers)).statusCode).toBe(200);
    // The owner's key has 3 of 5 left, the workspace 3 of 8: the workspace is tighter.
    const tighter = await me(t, lab.owner.headers);
    expect(tighter.headers['x-ratelimit-limit']).toBe('8');
    expect(tighter.headers['x-ratelimit-remaining']).toBe('3');
    // A failure (here a 404) carries none of them, nor does a 429.
    const missing = await t.request({
      method: 'GET',
      url: '/api/v1/plants/01a20994-bad1-7159-891f-1eb2385ee77e',
      headers: lab.owner.headers,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-ratelimit-limit']).toBeUndefined();
    expect(missing.headers['x-ratelimit-remaining']).toBeUndefined();
  });

  it('refuses the 6th request of a workspace across its keys', async () => {
    const t = await start(limits(100, 5));
    const lab = await createLab(t.database);
    const second = await lab.actor('member');
    for (let i = 0; i < 3; i++) expect((await me(t, lab.owner.headers)).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await me(t, second.headers)).statusCode).toBe(200);
    const refused = await me(t, second.headers);
    expect(refused.statusCode).toBe(429);
    expect(body(refused).error).toMatch(/workspace/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('spends nothing of the workspace budget when the key budget refuses', async () => {
    const t = await start(limits(3, 5));
    const lab = await createLab(t.database);
    const second = await lab.actor('member');
    for (let i = 0; i < 3; i++) expect((await me(t, lab.owner.headers)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) {
      const refused = await me(t, lab.owner.headers);
      expect(refused.statusCode).toBe(429);
      expect(body(refused).error).toMatch(/key/);
    }
    // The workspace has spent 3 of 5: the second key still gets exactly 2.
    expect((await me(t, second.headers)).statusCode).toBe(200);
    expect((await me(t, second.headers)).statusCode).toBe(200);
    const third = await me(t, second.headers);
    expect(third.statusCode).toBe(429);
    expect(body(third).error).toMatch(/workspace/);
  });

  it('counts requests that are refused later (403, 422) but not unauthenticated ones', async () => {
    const t = await start(limits(3, 100));
    const lab = await createLab(t.database);
    const viewer = await lab.actor('viewer');
    for (let i = 0; i < 5; i++) {
      const res = await t.request({
        method: 'GET',
        url: '/api/v1/me',
        headers: { authorization: 'Bearer nope' },
      });
      expect(res.statusCode).toBe(401);
    }
    const post = () =>
      t.request({
        method: 'POST',
        url: '/api/v1/plants',
        headers: viewer.headers,
        payload: { species: 'x' },
      });
    for (let i = 0; i < 3; i++) expect((await post()).statusCode).toBe(403);
    expect((await post()).statusCode).toBe(429);
  });

  it('answers 429 with Retry-After to a client address past its failed-credential budget', async () => {
    const t = await start({ ...limits(1000, 1000), VITRO_RATE_LIMIT_AUTH_FAILURES_PER_MIN: '5' });
    const lab = await createLab(t.database);
    const from = (remoteAddress: string, authorization?: string) =>
      t.request({
        method: 'GET',
        url: '/api/v1/plants',
        remoteAddress,
        headers: authorization === undefined ? {} : { authorization },
      });
    const unknownKey = `Bearer ${generateCredential('key', 'production').secret}`;
    const link = await mintLink(t, lab.owner.memberId);
    // Five failures of any kind: an unknown key (a database lookup), a malformed one,
    // a sign-in link where a key goes, an ended session.
    const failures = [
      await from('203.0.113.7', unknownKey),
      await from('203.0.113.7', 'Bearer nope'),
      await from('203.0.113.7', `Bearer ${link.secret}`),
      await from('203.0.113.7', unknownKey),
      await t.request({
        method: 'GET',
        url: '/api/v1/plants',
        remoteAddress: '203.0.113.7',
        headers: { cookie: `vitro_session=vss_${'x'.repeat(43)}` },
      }),
    ];
    expect(failures.map((res) => res.statusCode)).toEqual([401, 401, 401, 401, 401]);
    // The sixth failure, of any kind, is throttled: 429, the budget named, Retry-After.
    for (const authorization of [unknownKey, 'Bearer nope']) {
      const refused = await from('203.0.113.7', authorization);
      expect(refused.statusCode).toBe(429);
      expect(body(refused)).toMatchObject({ ok: false, data: null, code: 'RATE_LIMIT_EXCEEDED' });
      expect(body(refused).error).toMatch(/failed-credential budget .*\(5 per minute\)/);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // Good credentials from that address are served as ever, and counted as ever.
    expect((await from('203.0.113.7', lab.owner.headers.authorization)).statusCode).toBe(200);
    // Other addresses have budgets of their own; no credential at all is no failure.
    expect((await from('198.51.100.2', unknownKey)).statusCode).toBe(401);
    for (let i = 0; i < 8; i++) expect((await from('198.51.100.3')).statusCode).toBe(401);
    expect((await from('198.51.100.3', unknownKey)).statusCode).toBe(401);
  });

  it('counts a used sign-in link against the address, as any failed credential', async () => {
    const t = await start({ ...limits(1000, 1000), VITRO_RATE_LIMIT_AUTH_FAILURES_PER_MIN: '2' });
    const lab = await createLab(t.database);
    const link = await mintLink(t, lab.owner.memberId);
    const signIn = () =>
      t.request({
        method: 'POST',
        url: '/api/v1/session',
        remoteAddress: '203.0.113.9',
        headers: { authorization: `Bearer ${link.secret}`, origin: CONSOLE_ORIGIN },
      });
    expect((await signIn()).statusCode).toBe(201);
    expect((await signIn()).statusCode).toBe(401);
    expect((await signIn()).statusCode).toBe(401);
    expect((await signIn()).statusCode).toBe(429);
  });

  it('counts readings per key/token and per workspace, refusing a batch over budget', async () => {
    const t = await start({ ...limits(1000, 1000, 10, 15) });
    const lab = await createLab(t.database);
    const device = await lab.deviceToken();
    const send = (headers: Record<string, string>, count: number) =>
      t.request({ method: 'POST', url: '/api/v1/test/readings', headers, payload: { count } });
    expect((await send(device.headers, 6)).statusCode).toBe(201);
    const tooMany = await send(device.headers, 5);
    expect(tooMany.statusCode).toBe(429);
    expect(body(tooMany).error).toMatch(/token/);
    expect(body(tooMany).error).toMatch(/readings/);
    expect(Number(tooMany.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const retry = await send(device.headers, 4);
    expect(retry.statusCode, retry.body).toBe(201);
    // Workspace: 10 spent of 15; the refused batch above spent nothing.
    expect((await send(lab.owner.headers, 5)).statusCode).toBe(201);
    const workspaceFull = await send(lab.owner.headers, 1);
    expect(workspaceFull.statusCode).toBe(429);
    expect(body(workspaceFull).error).toMatch(/workspace/);
  });
});

describe('rate limiter budgets (memory store)', () => {
  it('gives back the key points when the workspace budget refuses', async () => {
    const limiter = createRateLimiter({
      limits: {
        keyPerMinute: 3,
        workspacePerMinute: 2,
        readingsKeyPer5Minutes: 1,
        readingsWorkspacePer5Minutes: 1,
        authFailuresPerMinute: 1,
      },
      redis: null,
    });
    const a: RateLimitSubject = { kind: 'key', credentialId: 'key-a', workspaceId: 'ws-1' };
    const b: RateLimitSubject = { kind: 'key', credentialId: 'key-b', workspaceId: 'ws-1' };
    await limiter.consumeRequest(b);
    await limiter.consumeRequest(b);
    for (let i = 0; i < 5; i++) {
      await expect(limiter.consumeRequest(a)).rejects.toMatchObject({
        code: 'RATE_LIMIT_EXCEEDED',
      });
    }
    // Key A lost nothing to the workspace refusals: it still has its 3 points elsewhere.
    const elsewhere: RateLimitSubject = { ...a, workspaceId: 'ws-2' };
    await limiter.consumeRequest(elsewhere);
    await limiter.consumeRequest(elsewhere);
    // The key has used 2 of 3 in ws-2 and now 1 more here: its budget is the tighter one.
    await expect(limiter.consumeRequest({ ...a, workspaceId: 'ws-3' })).resolves.toMatchObject({
      limit: 3,
      remaining: 0,
    });
    await expect(limiter.consumeRequest({ ...a, workspaceId: 'ws-4' })).rejects.toMatchObject({
      message: expect.stringMatching(/key/),
    });
  });
});

const redis = redisUrl();
describe.skipIf(redis === null)('rate limits with the Redis store', () => {
  const [sqlite] = databaseTargets();
  const apps: FastifyInstance[] = [];
  const databases: Database[] = [];
  const clients: Redis[] = [];
  const client = (url: string) => {
    const c = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      lazyConnect: false,
    });
    c.on('error', () => undefined);
    clients.push(c);
    return c;
  };
  const ready = (c: Redis) => new Promise((resolve) => c.once('ready', resolve));
  const openDatabase = async () => {
    const database = await sqlite!.open();
    databases.push(database);
    return database;
  };
  /** An app on `database` counting in `store`, closed after the suite. */
  const appOn = async (database: Database, store: Redis, limit: number, prefix?: string) => {
    const app = await buildApp(testConfig(limits(limit, 100)), {
      database,
      redis: store,
      logger: false,
      ...(prefix === undefined ? {} : { rateLimitPrefix: prefix }),
    });
    apps.push(app);
    return app;
  };
  beforeAll(async () => {
    await ready(client(redis!));
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const database of databases) await database.close();
    for (const c of clients) c.disconnect();
  });

  it('shares one budget between two app instances', async () => {
    const prefix = `test-${randomUUID()}`;
    const database = await openDatabase();
    const redisA = client(redis!);
    const redisB = client(redis!);
    await Promise.all([redisA, redisB].map(ready));
    const appA = await appOn(database, redisA, 5, prefix);
    const appB = await appOn(database, redisB, 5, prefix);
    const lab = await createLab(database);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const app = i % 2 === 0 ? appA : appB;
      statuses.push(
        (await app.inject({ method: 'GET', url: '/api/v1/me', headers: lab.owner.headers }))
          .statusCode,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const keys = await redisA.keys(`${prefix}:*`);
    expect(keys.length).toBeGreaterThan(0);
  });

  it('shares the failed-credential budget of an address between app instances', async () => {
    const prefix = `test-${randomUUID()}`;
    const database = await openDatabase();
    const redisA = client(redis!);
    const redisB = client(redis!);
    await Promise.all([redisA, redisB].map(ready));
    const failing = { ...limits(1000, 1000), VITRO_RATE_LIMIT_AUTH_FAILURES_PER_MIN: '3' };
    const appFor = async (store: Redis) => {
      const app = await buildApp(testConfig(failing), {
        database,
        redis: store,
        logger: false,
        rateLimitPrefix: prefix,
      });
      apps.push(app);
      return app;
    };
    const [appA, appB] = [await appFor(redisA), await appFor(redisB)];
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const app = i % 2 === 0 ? appA : appB;
      const res = await app.inject({
        method: 'GET',
        url: '/api/v1/me',
        remoteAddress: '203.0.113.50',
        headers: { authorization: 'Bearer nope' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(await redisA.keys(`${prefix}:rl:fail:*`)).toHaveLength(1);
  });

  it('falls back to an in-process limit when Redis goes away mid-run, and keeps serving', async (context) => {
    // Needs a Redis of its own to stop: the redis-server binary.
    const own = await startLocalRedis();
    if ('skipped' in own) return context.skip(own.skipped);
    const database = await openDatabase();
    const connection = client(own.url);
    await ready(connection);
    const app = await appOn(database, connection, 3);
    const lab = await createLab(database);
    const me = () => app.inject({ method: 'GET', url: '/api/v1/me', headers: lab.owner.headers });
    expect((await me()).statusCode).toBe(200);
    expect((await connection.keys('vitro:*')).length).toBeGreaterThan(0);
    await own.stop();
    await vi.waitFor(() => expect(connection.status).not.toBe('ready'));
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await me()).statusCode);
    // Served from memory now: a fresh in-process window of 3, then refusals.
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('keeps serving with an in-process limit when Redis is unreachable', async () => {
    const database = await openDatabase();
    const app = await appOn(database, client('redis://127.0.0.1:1'), 3);
    const lab = await createLab(database);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await app.inject({ method: 'GET', url: '/api/v1/me', headers: lab.owner.headers }))
          .statusCode,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
