import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { DatabaseConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { inTransaction } from '../../src/db/transaction.js';
import { PATIENCE_MS } from '../../src/db/write-turn.js';
import type * as ThreadModule from '../../src/modules/webhooks/delivery/delivery-thread.js';
import type { ThreadData } from '../../src/modules/webhooks/delivery/delivery-thread.js';
import { DeliveryPressure } from '../../src/modules/webhooks/delivery/pressure.js';
import { STOPPED } from '../../src/modules/webhooks/delivery/sender.js';
import { client, dataOf, eventsOf, listAll, newPlant, type Client } from '../support/helpers.js';
import { createLab, startTestApp, testConfig, type TestApp } from '../support/harness.js';
import { buildIfStale, REPO_ROOT } from '../support/node-script.js';
import { isolatedPostgres, LOOPBACK_ALLOWED, startReceiver, verified } from './support.js';

/**
 * The server's deliveries on a thread of their own (delivery-thread.ts, thread.ts), on a
 * database file or a PostgreSQL database of the test's own, since the thread opens its
 * own connection to it. The thread runs the built server's module (a worker thread cannot
 * load TypeScript through tsx on Node 20), so these tests run what `npm start` runs: dist/,
 * compiled when a source changed.
 */
buildIfStale();
const { DeliveryThread } = (await import(
  new URL('dist/modules/webhooks/delivery/delivery-thread.js', `file://${REPO_ROOT}`).href
)) as typeof ThreadModule;

interface OwnDatabase {
  readonly config: DatabaseConfig;
  drop(): Promise<void>;
}

interface Target {
  readonly name: 'sqlite' | 'postgres';
  /** A new, empty database; null where none can be made. */
  make(): Promise<OwnDatabase | null>;
}

function targets(): Target[] {
  const list: Target[] = [
    {
      name: 'sqlite',
      make: async () => {
        const dir = mkdtempSync(join(tmpdir(), 'vitro-thread-'));
        const path = join(dir, 'vitro.db');
        return {
          config: { dialect: 'sqlite', path, url: `sqlite:${path}` },
          drop: async () => rmSync(dir, { recursive: true, force: true }),
        };
      },
    },
  ];
  if (inject('postgresUrl') !== null) {
    list.push({
      name: 'postgres',
      make: async () => {
        const own = await isolatedPostgres();
        return own && { config: { dialect: 'postgres', url: own.url }, drop: () => own.drop() };
      },
    });
  }
  return list;
}

/** Records what the thread logs, as the server's log would. */
function recordingLog() {
  const lines: { level: 'warn' | 'error'; fields: Record<string, unknown>; message: string }[] = [];
  return {
    lines,
    warn: (fields: object, message: string) =>
      lines.push({ level: 'warn', fields: fields as Record<string, unknown>, message }),
    error: (fields: object, message: string) =>
      lines.push({ level: 'error', fields: fields as Record<string, unknown>, message }),
  };
}

/** Loopback receivers allowed, as LOOPBACK_ALLOWED configures them. */
const WEBHOOKS = testConfig(LOOPBACK_ALLOWED).webhooks;

function threadData(database: DatabaseConfig, changes: Partial<ThreadData> = {}): ThreadData {
  return { database, webhooks: WEBHOOKS, pollMs: 50, ...changes };
}

const WAIT = { timeout: 15_000, interval: 20 };

describe.each(targets())('webhook deliveries on a thread of their own ($name)', (target) => {
  let own: OwnDatabase | null = null;
  let t: TestApp;
  let owner: Client;
  beforeAll(async () => {
    own = await target.make();
    if (own === null) return;
    const config = own.config;
    // The API's requests go through an app of the test (its worker off); the thread
    // delivers from its own connection to the same database.
    t = await startTestApp(
      {
        name: target.name,
        open: async () => {
          const database = openDatabase(config);
          await migrateToLatest(database.db);
          return database;
        },
      },
      { env: LOOPBACK_ALLOWED },
    );
    owner = client(t, (await createLab(t.database)).owner);
  });
  afterAll(async () => {
    await t?.close();
    await own?.drop();
  });

  it('delivers, and tells the write gate how far behind it runs while an answer is awaited', async (context) => {
    if (own === null) return context.skip();
    const held: ServerResponse[] = [];
    const receiver = await startReceiver((_req, res) => held.push(res));
    const log = recordingLog();
    const pressure = new DeliveryPressure();
    const thread = new DeliveryThread(threadData(own.config), log, pressure);
    try {
      const endpoint = dataOf(
        await owner.post('/api/v1/webhook-endpoints', { url: receiver.url }),
        201,
      );
      await newPlant(owner);
      const [event] = await eventsOf(owner, 'plant');
      thread.start();
      await expect.poll(() => receiver.requests.length, WAIT).toBe(1);
      // The thread read the event, and its answer is awaited: the lag is the event's age.
      await expect.poll(() => pressure.lagMs(), WAIT).toBeGreaterThanOrEqual(200);
      held[0]!.writeHead(200).end('thanks');
      const deliveries = `/api/v1/webhook-endpoints/${endpoint.id as string}/deliveries`;
      await expect
        .poll(async () => (await listAll(owner, deliveries))[0]?.status, WAIT)
        .toBe('delivered');
      // Its next pass found nothing new: nothing waits.
      await expect.poll(() => pressure.lagMs(), WAIT).toBe(0);
      const [request] = receiver.requests;
      expect(request!.headers['webhook-id']).toBe(event.id);
      expect(verified(request!, endpoint.secret as string)).toMatchObject({
        type: 'plant.created',
      });
      expect(log.lines).toEqual([]);
    } finally {
      await thread.stop();
      await receiver.close();
    }
  });

  it('stops: the attempt in flight is cut and logged for a retry, its leases let go', async (context) => {
    if (own === null) return context.skip();
    const receiver = await startReceiver(() => undefined);
    const thread = new DeliveryThread(
      threadData(own.config),
      recordingLog(),
      new DeliveryPressure(),
    );
    try {
      const endpoint = dataOf(
        await owner.post('/api/v1/webhook-endpoints', { url: receiver.url }),
        201,
      );
      await newPlant(owner);
      thread.start();
      await expect.poll(() => receiver.requests.length, WAIT).toBe(1);
      const stopping = Date.now();
      await thread.stop();
      // Cut at once, not after the attempt's 10 s.
      expect(Date.now() - stopping).toBeLessThan(5000);
      const [cut] = await listAll(
        owner,
        `/api/v1/webhook-endpoints/${endpoint.id as string}/deliveries`,
      );
      expect(cut).toMatchObject({ status: 'pending', last_error: STOPPED });
      const row = await t.database.db
        .selectFrom('webhook_endpoints')
        .select(['lease_owner'])
        .where('id', '=', endpoint.id as string)
        .executeTakeFirstOrThrow();
      expect(row.lease_owner).toBeNull();
    } finally {
      await receiver.close();
    }
  });

  it("passes on the thread's warnings to the server's log", async (context) => {
    // A database without Vitro's tables: every pass fails, and says so.
    const bare = await target.make();
    if (bare === null) return context.skip();
    const log = recordingLog();
    const thread = new DeliveryThread(threadData(bare.config), log, new DeliveryPressure());
    try {
      thread.start();
      await expect.poll(() => log.lines.length, WAIT).toBeGreaterThan(0);
    } finally {
      await thread.stop();
      await bare.drop();
    }
    expect(log.lines[0]).toMatchObject({
      level: 'warn',
      message: 'webhook delivery pass failed; trying again',
      fields: { err: { message: expect.stringMatching(/webhook_(deliveries|endpoints)/) } },
    });
  });

  // Only SQLite's connections of one process take turns (write-turn.ts).
  if (target.name === 'sqlite')
    it("takes turns at writing with the server's SQLite connection", async (context) => {
      if (own === null) return context.skip();
      // The server's own connection, as `vitro serve` opens it: it makes the write turn.
      const server = openDatabase(own.config, { backgroundCheckpoints: true });
      const held: ServerResponse[] = [];
      const receiver = await startReceiver((_req, res) => held.push(res));
      const log = recordingLog();
      const thread = new DeliveryThread(
        threadData(own.config, { writeTurn: server.writeTurn! }),
        log,
        new DeliveryPressure(),
      );
      try {
        const endpoint = dataOf(
          await owner.post('/api/v1/webhook-endpoints', { url: receiver.url }),
          201,
        );
        const deliveries = `/api/v1/webhook-endpoints/${endpoint.id as string}/deliveries`;
        await newPlant(owner);
        thread.start();
        await expect.poll(() => receiver.requests.length, WAIT).toBe(1);
        // The server writes, holding its turn, while the thread's attempt is answered.
        let release = () => {};
        const released = new Promise<void>((resolve) => (release = resolve));
        const writing = inTransaction(server.db, () => released);
        await new Promise((resolve) => setTimeout(resolve, 50));
        held[0]!.writeHead(200).end('thanks');
        await new Promise((resolve) => setTimeout(resolve, 300));
        // Sent, and not logged yet: the thread waits for its turn.
        expect(await listAll(owner, deliveries)).toEqual([]);
        release();
        await writing;
        await expect
          .poll(async () => (await listAll(owner, deliveries))[0]?.status, WAIT)
          .toBe('delivered');
        // The thread gave its turn back: the server's next write does not wait for it.
        const started = Date.now();
        await inTransaction(server.db, async () => undefined);
        expect(Date.now() - started).toBeLessThan(PATIENCE_MS / 2);
        expect(log.lines).toEqual([]);
      } finally {
        await thread.stop();
        await receiver.close();
        await server.close();
      }
    });

  it('starts a thread that failed again a second later, then 2 and 4 s later, saying so', async (context) => {
    if (own === null) return context.skip();
    const log = recordingLog();
    // An allowed range that is no address: the thread fails as it starts.
    const thread = new DeliveryThread(
      threadData(own.config, {
        webhooks: { ...WEBHOOKS, allowedRanges: ['no address'] },
      }),
      log,
      new DeliveryPressure(),
    );
    const started = Date.now();
    const times: number[] = [];
    try {
      thread.start();
      await expect
        .poll(() => {
          while (times.length < log.lines.length) times.push(Date.now() - started);
          return log.lines.length;
        }, WAIT)
        .toBeGreaterThanOrEqual(3);
    } finally {
      await thread.stop();
    }
    // Started again after 1 s, then 2 s: a thread that keeps failing is retried less often.
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1000 - 50);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(2000 - 50);
    expect(log.lines.slice(0, 3).map((line) => [line.level, line.message])).toEqual(
      ['a second', '2 seconds', '4 seconds'].map((delay) => [
        'error',
        `the webhook delivery thread stopped; starting it again in ${delay}`,
      ]),
    );
  });
});
