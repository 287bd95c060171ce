import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MadeAttempt } from '../../src/modules/webhooks/delivery/attempt.js';
import {
  BUSY_SHARE,
  DeliveryPressure,
  LAG_TARGET_MS,
  MAX_HOLD_MS,
} from '../../src/modules/webhooks/delivery/pressure.js';
import type { AttemptResult } from '../../src/modules/webhooks/delivery/sender.js';
import { client, dataOf, newPlant } from '../support/helpers.js';
import { createLab, startTestApp, type TestApp, sqliteTarget } from '../support/harness.js';
import {
  deliveryWorker,
  LOOPBACK_ALLOWED,
  startReceiver,
  testClock,
  type Receiver,
  type ReceiverHandler,
} from './support.js';
import { describeOnOwnDatabases, labSuite } from '../support/suite.js';

const iso = (ms: number) => new Date(ms).toISOString();

function made(outcome: AttemptResult['outcome'], durationMs: number): MadeAttempt {
  return {
    event: {} as MadeAttempt['event'],
    at: iso(0),
    result: {
      outcome,
      durationMs,
      statusCode: outcome === 'delivered' ? 200 : 500,
      response: '',
      error: null,
      retryAfterMs: null,
    },
  };
}

/** A pressure on a hand-moved clock, with the event loop as busy as `share` says. */
function pressure(share = 1) {
  const clock = testClock();
  const loop = { share };
  const p = new DeliveryPressure(clock.now, () => loop.share);
  p.sample();
  return { p, clock, loop };
}

/** Whether a promise has settled, after letting pending callbacks run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('delivery pressure (the gate on write requests)', () => {
  afterEach(() => vi.useRealTimers());

  it('lets writes go at once while deliveries keep up', async () => {
    const { p, clock } = pressure();
    p.read('a', iso(clock.now() - 100));
    expect(p.behind()).toBe(false);
    expect(await p.admit()).toBe(false);
    clock.advance(LAG_TARGET_MS - 50);
    expect(p.lagMs()).toBe(LAG_TARGET_MS + 50);
    expect(p.behind()).toBe(true);
    // The stream caught up: what may wait now is what came after it read the feed.
    p.finished('a', [made('delivered', 3)], clock.now());
    expect(p.lagMs()).toBe(0);
    expect(await p.admit()).toBe(false);
  });

  it("makes writes wait while a healthy endpoint lags on a busy loop, until a stream's progress brings it back", async () => {
    const { p, clock } = pressure();
    p.read('a', iso(clock.now() - 2000));
    const first = p.admit();
    const second = p.admit();
    expect(await settled(first)).toBe(false);
    expect(p.waiting()).toBe(2);
    // Progress that still leaves it behind: they keep waiting.
    p.finished('a', [made('delivered', 3)], clock.now() - 1000);
    expect(await settled(first)).toBe(false);
    // Progress that brings it back within the target: both go.
    p.read('a', iso(clock.now() - 100));
    expect(await first).toBe(true);
    expect(await second).toBe(true);
    expect(p.waiting()).toBe(0);
  });

  it('makes a write wait 250 ms at most', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { p, clock } = pressure();
    p.read('a', iso(clock.now() - 2000));
    const waiting = p.admit();
    await vi.advanceTimersByTimeAsync(MAX_HOLD_MS - 1);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await waiting).toBe(true);
    expect(p.behind()).toBe(true);
  });

  it('holds nothing on a quiet loop: a slow receiver is not a busy server', async () => {
    const { p, clock, loop } = pressure(BUSY_SHARE - 0.1);
    p.read('a', iso(clock.now() - 60_000));
    expect(p.lagMs()).toBe(60_000);
    p.sample();
    expect(p.behind()).toBe(false);
    expect(await p.admit()).toBe(false);
    loop.share = BUSY_SHARE;
    p.sample();
    expect(p.behind()).toBe(true);
  });

  it('leaves out an endpoint whose attempts fail or take over a second, until it answers well again', () => {
    const { p, clock } = pressure();
    p.read('failing', iso(clock.now() - 5000));
    p.finished('failing', [made('delivered', 3), made('failed', 20)], clock.now() - 5000);
    p.read('slow', iso(clock.now() - 5000));
    p.finished('slow', [made('delivered', 1500)], clock.now() - 5000);
    expect(p.lagMs()).toBe(0);
    expect(p.behind()).toBe(false);
    // A healthy endpoint beside them still counts.
    p.read('healthy', iso(clock.now() - 700));
    expect(p.lagMs()).toBe(700);
    // The slow one answers quickly again: its lag counts again.
    p.finished('slow', [made('delivered', 4)], clock.now() - 5000);
    expect(p.lagMs()).toBe(5000);
    // A stream that sent nothing (it failed before sending) changes nothing.
    p.finished('failing', [], clock.now() - 9000);
    expect(p.lagMs()).toBe(5000);
  });

  it('forgets an endpoint no stream has told about for two seconds, and one that caught up', () => {
    const { p, clock } = pressure();
    p.read('deleted', iso(clock.now() - 5000));
    p.read('caught-up', iso(clock.now() - 4000));
    expect(p.lagMs()).toBe(5000);
    p.read('caught-up', null);
    clock.advance(2000);
    expect(p.lagMs()).toBe(7000);
    clock.advance(1);
    expect(p.lagMs()).toBe(0);
  });
});

/** The gate's figures on /metrics. */
async function gate(t: TestApp): Promise<{ held: number; waiting: number; lagSeconds: number }> {
  const res = await t.request({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  const value = (name: string) => {
    const line = res.body.split('\n').find((l) => l.startsWith(`${name} `));
    expect(line, name).toBeDefined();
    return Number(line!.split(' ')[1]);
  };
  return {
    held: value('vitro_webhook_writes_held_total'),
    waiting: value('vitro_webhook_writes_waiting'),
    lagSeconds: value('vitro_webhook_delivery_lag_seconds'),
  };
}

describeOnOwnDatabases('delivery pressure in the server', (target) => {
  // The clock of the pressure and the test's worker, set by hand: when the events are delivered.
  const clock = { at: Date.now(), now: () => clock.at };
  // The event loop counts as busy all the time.
  const shared = new DeliveryPressure(clock.now, () => 1);
  // The server's worker samples the loop on its timer; these tests deliver with a worker
  // of their own, driven by hand, that tells the same pressure how far behind it runs.
  const { t, owner } = labSuite(
    target,
    {
      env: { ...LOOPBACK_ALLOWED, VITRO_WORKER: 'on' },
      webhooks: { pollMs: 3_600_000, pressure: shared },
    },
    { shared: true },
  );
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it('is told how long the oldest event waits while it is delivered, and not about a failing endpoint', async () => {
    const worker = deliveryWorker(t, { pressure: shared, now: clock.now });
    const seen: number[] = [];
    const recording: ReceiverHandler = (_req, res) => {
      seen.push(shared.lagMs());
      res.writeHead(200).end('ok');
    };
    try {
      dataOf(await owner.post('/api/v1/webhook-endpoints', { url: receiver.url }), 201);
      await newPlant(owner);
      await newPlant(owner);
      receiver.answer(recording);
      // The events are delivered two seconds after they were recorded.
      clock.at = Date.now() + 2000;
      expect(await worker.tick()).toBe(2);
      expect(seen).toHaveLength(2);
      expect(Math.min(...seen)).toBeGreaterThanOrEqual(2000);
      // Caught up: only events recorded after the stream read the feed may wait.
      expect(shared.lagMs()).toBe(0);

      receiver.answer((_req, res) => res.writeHead(500).end('down'));
      await newPlant(owner);
      clock.at = Date.now() + 2000;
      expect(await worker.tick()).toBe(1);
      // The next event waits as long, but the endpoint failed last time: it does not count.
      seen.length = 0;
      receiver.answer(recording);
      await newPlant(owner);
      clock.at = Date.now() + 2000;
      expect(await worker.tick()).toBe(1);
      expect(seen).toEqual([0]);
    } finally {
      await worker.stop();
    }
  });

  it('makes writes wait, never reads, while the server is busy and a healthy endpoint lags', async () => {
    const before = await gate(t);
    expect(before.waiting).toBe(0);
    await newPlant(owner);
    expect((await gate(t)).held).toBe(before.held);

    shared.read('lagging', iso(clock.now() - 5000));
    // The server's worker samples the loop every 100 ms.
    await expect.poll(() => shared.behind(), { timeout: 5000 }).toBe(true);
    expect((await gate(t)).lagSeconds).toBeGreaterThanOrEqual(5);
    await newPlant(owner);
    expect((await gate(t)).held).toBe(before.held + 1);
    dataOf(await owner.get('/api/v1/plants'), 200);
    expect((await gate(t)).held).toBe(before.held + 1);

    // It caught up: writes go at once again.
    shared.read('lagging', null);
    await newPlant(owner);
    expect((await gate(t)).held).toBe(before.held + 1);
  });
});

describe('WEBHOOK_HOLD_WRITES=off', () => {
  it('holds no write, whatever the pressure says', async () => {
    const stuck = new DeliveryPressure(Date.now, () => 1);
    stuck.read('lagging', new Date(Date.now() - 60_000).toISOString());
    stuck.sample();
    expect(stuck.behind()).toBe(true);
    const t = await startTestApp(sqliteTarget(), {
      env: { VITRO_WORKER: 'on', WEBHOOK_HOLD_WRITES: 'off' },
      webhooks: { pollMs: 3_600_000, pressure: stuck },
    });
    try {
      const owner = client(t, (await createLab(t.database)).owner);
      await newPlant(owner);
      const res = await t.request({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('vitro_http_requests_total');
      expect(res.body).not.toContain('vitro_webhook_writes_held_total');
    } finally {
      await t.close();
    }
  });
});
