import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MadeAttempt } from '../../src/modules/webhooks/attempt.js';
import {
  BUSY_SHARE,
  DeliveryPressure,
  LAG_TARGET_MS,
  MAX_HOLD_MS,
  MIN_HOLD_MS,
} from '../../src/modules/webhooks/pressure.js';
import type { AttemptResult } from '../../src/modules/webhooks/sender.js';
import { client, dataOf, newPlant, type Client } from '../support/helpers.js';
import { createLab, databaseTargets, startTestApp, type TestApp } from '../support/harness.js';
import {
  deliveryWorker,
  isolatedTargets,
  LOOPBACK_ALLOWED,
  startReceiver,
  testClock,
  type Receiver,
} from './support.js';

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
  const adjust = (times: number) => {
    for (let i = 0; i < times; i++) p.adjust();
    return p.holdMs();
  };
  return { p, clock, loop, adjust };
}

describe('delivery pressure (the hold on write requests)', () => {
  it('holds nothing while deliveries keep up', () => {
    const { p, clock, adjust } = pressure();
    p.started('a', iso(clock.now() - 100));
    expect(adjust(10)).toBe(0);
    clock.advance(LAG_TARGET_MS - 150);
    p.finished('a', [made('delivered', 3)]);
    expect(p.lagMs()).toBe(LAG_TARGET_MS - 50);
    expect(adjust(10)).toBe(0);
  });

  it('grows the hold while a healthy endpoint lags on a busy loop, to 250 ms at most, and lets go once it catches up', () => {
    const { p, clock, adjust } = pressure();
    p.started('a', iso(clock.now() - 2000));
    // Far behind: from 5 ms, doubling.
    expect(adjust(1)).toBe(MIN_HOLD_MS);
    expect(adjust(1)).toBe(2 * MIN_HOLD_MS);
    expect(adjust(40)).toBe(MAX_HOLD_MS);
    p.finished('a', [made('delivered', 3)]);
    // The batch's delivery latency counts for a second after it ended, then nothing lags.
    expect(adjust(1)).toBe(MAX_HOLD_MS);
    clock.advance(1001);
    expect(p.lagMs()).toBe(0);
    const falling = [adjust(1), adjust(1), adjust(1)];
    expect(falling[0]).toBeLessThan(MAX_HOLD_MS);
    expect(falling[1]).toBeLessThan(falling[0]!);
    expect(falling[2]).toBeLessThan(falling[1]!);
    expect(adjust(30)).toBe(0);
  });

  it('holds nothing on an idle loop: a slow receiver is not a busy server', () => {
    const { p, clock, loop, adjust } = pressure(BUSY_SHARE - 0.1);
    p.started('a', iso(clock.now() - 60_000));
    expect(p.lagMs()).toBe(60_000);
    expect(adjust(20)).toBe(0);
    loop.share = BUSY_SHARE;
    expect(adjust(1)).toBe(MIN_HOLD_MS);
  });

  it('grows gently once the lag is near the target', () => {
    const { p, clock, adjust } = pressure();
    p.started('a', iso(clock.now() - (LAG_TARGET_MS + 100)));
    expect(adjust(1)).toBe(MIN_HOLD_MS);
    expect(adjust(1)).toBe(MIN_HOLD_MS * 1.25);
  });

  it('leaves out an endpoint whose attempts fail or take over a second, until it answers well again', () => {
    const { p, clock, adjust } = pressure();
    p.started('failing', iso(clock.now() - 5000));
    p.finished('failing', [made('delivered', 3), made('failed', 20)]);
    p.started('failing', iso(clock.now() - 5000));
    p.started('slow', iso(clock.now() - 5000));
    p.finished('slow', [made('delivered', 1500)]);
    p.started('slow', iso(clock.now() - 5000));
    expect(p.lagMs()).toBe(0);
    expect(adjust(5)).toBe(0);
    // A healthy endpoint beside them still counts.
    p.started('healthy', iso(clock.now() - 700));
    expect(p.lagMs()).toBe(700);
    // The slow one answers quickly again: its lag counts again.
    p.finished('slow', [made('delivered', 4)]);
    p.started('slow', iso(clock.now() - 5000));
    expect(p.lagMs()).toBe(5000);
    // A stream that sent nothing (it failed before sending) changes nothing.
    p.finished('failing', []);
    p.started('failing', iso(clock.now() - 9000));
    expect(p.lagMs()).toBe(5000);
  });
});

async function heldWrites(t: TestApp): Promise<{ held: number; holdSeconds: number }> {
  const res = await t.request({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  const value = (name: string) => {
    const line = res.body.split('\n').find((l) => l.startsWith(`${name} `));
    expect(line, name).toBeDefined();
    return Number(line!.split(' ')[1]);
  };
  return {
    held: value('vitro_webhook_writes_held_total'),
    holdSeconds: value('vitro_webhook_write_hold_seconds'),
  };
}

describe.each(isolatedTargets())('delivery pressure in the server ($name)', (target) => {
  // The clock of the pressure and the test's worker: set by hand to when the events are delivered.
  const clock = { at: Date.now(), now: () => clock.at };
  const shared = new DeliveryPressure(clock.now, () => 1);
  let t: TestApp;
  let receiver: Receiver;
  let owner: Client;
  beforeAll(async () => {
    // The server's worker adjusts the hold on its timer; this test delivers with a worker
    // of its own, driven by hand, that tells the same pressure how far behind it runs.
    t = await startTestApp(target, {
      env: { ...LOOPBACK_ALLOWED, VITRO_WORKER: 'on' },
      webhooks: { pollMs: 3_600_000, pressure: shared },
    });
    receiver = await startReceiver();
    owner = client(t, (await createLab(t.database)).owner);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('holds writes, never reads, while a healthy endpoint lags, and stops when it fails instead', async () => {
    const worker = deliveryWorker(t, { pressure: shared, now: clock.now });
    try {
      dataOf(await owner.post('/api/v1/webhook-endpoints', { url: receiver.url }), 201);
      await newPlant(owner);
      await newPlant(owner);
      expect(await heldWrites(t)).toEqual({ held: 0, holdSeconds: 0 });
      // The events waited two seconds for their delivery.
      clock.at = Date.now() + 2000;
      expect(await worker.tick()).toBe(2);
      expect(receiver.requests).toHaveLength(2);
      expect(shared.lagMs()).toBeGreaterThanOrEqual(2000);
      await expect
        .poll(async () => (await heldWrites(t)).holdSeconds, { timeout: 5000 })
        .toBeGreaterThan(0);

      await newPlant(owner);
      expect((await heldWrites(t)).held).toBe(1);
      dataOf(await owner.get('/api/v1/plants'), 200);
      expect((await heldWrites(t)).held).toBe(1);

      // Now the receiver fails: its lag is its own, and the hold falls away.
      receiver.answer((_req, res) => res.writeHead(500).end('down'));
      clock.at = Date.now() + 2000;
      expect(await worker.tick()).toBe(1);
      expect(shared.lagMs()).toBe(0);
      await expect.poll(async () => (await heldWrites(t)).holdSeconds, { timeout: 5000 }).toBe(0);
      const before = (await heldWrites(t)).held;
      await newPlant(owner);
      expect((await heldWrites(t)).held).toBe(before);
    } finally {
      await worker.stop();
    }
  });
});

describe('WEBHOOK_HOLD_WRITES=off', () => {
  it('holds no write, whatever the pressure says', async () => {
    const stuck = new DeliveryPressure(Date.now, () => 1);
    stuck.started('lagging', new Date(Date.now() - 60_000).toISOString());
    for (let i = 0; i < 20; i++) stuck.adjust();
    expect(stuck.holdMs()).toBeGreaterThan(0);
    const t = await startTestApp(databaseTargets()[0]!, {
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
