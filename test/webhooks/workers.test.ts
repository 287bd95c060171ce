import { expect, it } from 'vitest';
import { STOPPED } from '../../src/modules/webhooks/delivery/sender.js';
import { GATHER_MS } from '../../src/modules/webhooks/delivery/worker.js';
import { dataOf, listAll, newPlant } from '../support/helpers.js';
import {
  deliveryWorker,
  drain,
  LOOPBACK_ALLOWED,
  ok,
  startReceiver,
  type ReceiverHandler,
} from './support.js';
import { describeOnOwnDatabases, labSuite } from '../support/suite.js';

/** Several workers on one database (as several processes are): each event once, nothing lost. */
describeOnOwnDatabases('webhook workers together', (target) => {
  const { t, owner } = labSuite(target, { env: LOOPBACK_ALLOWED });

  it('deliver each event once when three work at the same time', async () => {
    const receiver = await startReceiver();
    const workers = [deliveryWorker(t), deliveryWorker(t), deliveryWorker(t)];
    try {
      const endpoints = [];
      for (const n of [1, 2, 3]) {
        endpoints.push(
          dataOf(
            await owner.post('/api/v1/webhook-endpoints', { url: `${receiver.url}/${n}` }),
            201,
          ),
        );
      }
      for (let i = 0; i < 60; i++) await newPlant(owner, { species: `Plant ${i}` });
      let passes = 0;
      while (receiver.requests.length < 180 && passes++ < 200) {
        await Promise.all(workers.map((worker) => worker.tick()));
      }
      await Promise.all(workers.map(drain));
      const seen = receiver.requests.map((r) => `${r.path} ${String(r.headers['webhook-id'])}`);
      expect(seen).toHaveLength(180);
      expect(new Set(seen).size).toBe(180);
      const feed = await listAll(owner, '/api/v1/events?entity=plant');
      for (const endpoint of endpoints) {
        const log = await listAll(
          owner,
          `/api/v1/webhook-endpoints/${endpoint.id as string}/deliveries`,
        );
        expect(log).toHaveLength(60);
        expect(new Set(log.map((d) => d.event_id))).toEqual(new Set(feed.map((e) => e.id)));
      }
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await receiver.close();
    }
  });

  it('lose nothing when one stops mid-delivery: another sends it again, same webhook-id', async () => {
    let hold = true;
    const receiver = await startReceiver((_req, res) => {
      if (!hold) res.writeHead(200).end();
    });
    const first = deliveryWorker(t, { timeoutMs: 10_000 });
    try {
      const endpoint = dataOf(
        await owner.post('/api/v1/webhook-endpoints', { url: receiver.url }),
        201,
      );
      await newPlant(owner);
      const pass = first.tick();
      while (receiver.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
      await first.stop();
      await pass;
      const [cut] = await listAll(
        owner,
        `/api/v1/webhook-endpoints/${endpoint.id as string}/deliveries`,
      );
      expect(cut).toMatchObject({ status: 'pending', last_error: STOPPED });
      hold = false;
      // Due again after the schedule's first delay; the second worker runs on a later clock.
      const later = deliveryWorker(t, { now: () => Date.now() + 10_000 });
      try {
        expect(await drain(later)).toBe(1);
      } finally {
        await later.stop();
      }
      expect(receiver.requests).toHaveLength(2);
      expect(receiver.requests[1]!.headers['webhook-id']).toBe(
        receiver.requests[0]!.headers['webhook-id'],
      );
      const [done] = await listAll(
        owner,
        `/api/v1/webhook-endpoints/${endpoint.id as string}/deliveries`,
      );
      expect(done).toMatchObject({ status: 'delivered', attempts: 2 });
    } finally {
      await receiver.close();
    }
  });

  it('gather for 100 ms after a batch that sent less than a full one, then go on without a poll', async () => {
    const arrivals: number[] = [];
    const receiver = await startReceiver((_req, res) => {
      arrivals.push(performance.now());
      // The second event is recorded while the first is being delivered.
      if (arrivals.length === 1) void newPlant(owner).then(() => res.writeHead(200).end());
      else res.writeHead(200).end();
    });
    // A poll a minute apart: whatever is sent within the test is the stream going on by itself.
    const worker = deliveryWorker(t, { pollMs: 60_000 });
    try {
      dataOf(await owner.post('/api/v1/webhook-endpoints', { url: receiver.url }), 201);
      await newPlant(owner);
      worker.start();
      await expect.poll(() => arrivals.length, { timeout: 5000 }).toBe(2);
      // The first batch sent one event; the stream looked again only after gathering.
      expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(GATHER_MS - 5);
      // The next batch found nothing and the stream ended: a new event waits for the poll.
      await new Promise((resolve) => setTimeout(resolve, GATHER_MS * 2));
      await newPlant(owner);
      await new Promise((resolve) => setTimeout(resolve, GATHER_MS * 3));
      expect(arrivals).toHaveLength(2);
    } finally {
      await worker.stop();
      await receiver.close();
    }
  });

  it("keep sending to every other endpoint while one endpoint's receiver does not answer", async () => {
    const fast = await startReceiver();
    const silent = await startReceiver(() => undefined);
    const worker = deliveryWorker(t, { timeoutMs: 6000 });
    try {
      const hanging = dataOf(
        await owner.post('/api/v1/webhook-endpoints', { url: silent.url }),
        201,
      );
      dataOf(await owner.post('/api/v1/webhook-endpoints', { url: fast.url }), 201);
      await newPlant(owner);
      worker.start();
      await expect.poll(() => fast.requests.length, { timeout: 5000 }).toBe(1);
      await expect.poll(() => silent.requests.length, { timeout: 5000 }).toBe(1);
      // While the silent receiver holds its first attempt, more events come.
      for (let i = 0; i < 3; i++) await newPlant(owner);
      await expect.poll(() => fast.requests.length, { timeout: 5000 }).toBe(4);
      // They reached the other endpoint before the silent one's attempt ran out.
      expect(silent.requests).toHaveLength(1);
      expect(
        await listAll(owner, `/api/v1/webhook-endpoints/${hanging.id as string}/deliveries`),
      ).toEqual([]);
    } finally {
      await worker.stop();
      await fast.close();
      await silent.close();
    }
  });
  it("send every other endpoint's retries while one endpoint's receiver does not answer its own", async () => {
    const failing: ReceiverHandler = (_req, res) => res.writeHead(500).end();
    const down = await startReceiver(failing);
    const back = await startReceiver(failing);
    const first = deliveryWorker(t);
    // Ten seconds on: every first attempt's retry (due after 5 s) is due.
    const later = deliveryWorker(t, { timeoutMs: 8000, now: () => Date.now() + 10_000 });
    try {
      const hanging = dataOf(await owner.post('/api/v1/webhook-endpoints', { url: down.url }), 201);
      const healthy = dataOf(await owner.post('/api/v1/webhook-endpoints', { url: back.url }), 201);
      for (let i = 0; i < 20; i++) await newPlant(owner);
      await drain(first);
      const log = (endpoint: Record<string, unknown>) =>
        listAll(owner, `/api/v1/webhook-endpoints/${endpoint.id as string}/deliveries`);
      expect((await log(hanging)).map((d) => d.status)).toEqual(Array(20).fill('pending'));
      expect((await log(healthy)).map((d) => d.status)).toEqual(Array(20).fill('pending'));
      // One receiver is now down without refusing (its retries hang); the other is back.
      down.answer(() => undefined);
      back.answer(ok);
      later.start();
      await expect
        .poll(async () => (await log(healthy)).filter((d) => d.status === 'delivered').length, {
          timeout: 6000,
          interval: 100,
        })
        .toBe(20);
      // All of them before the hanging retries ran out of time: none of those is logged yet.
      expect((await log(hanging)).map((d) => d.attempts)).toEqual(Array(20).fill(1));
    } finally {
      await Promise.all([first.stop(), later.stop()]);
      await down.close();
      await back.close();
    }
  });
});
