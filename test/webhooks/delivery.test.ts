import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RETRY_DELAYS_MS } from '../../src/modules/webhooks/schedule.js';
import { client, dataOf, listAll, newPlant, type Client } from '../records/helpers.js';
import {
  createLab,
  databaseTargets,
  startTestApp,
  type Lab,
  type TestApp,
} from '../support/harness.js';
import {
  deliveryWorker,
  drain,
  LOOPBACK_ALLOWED,
  startReceiver,
  testClock,
  verified,
  type Receiver,
} from './support.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON loosely
type Json = any;

async function newEndpoint(c: Client, url: string, fields: Record<string, unknown> = {}) {
  return dataOf(await c.post('/api/v1/webhook-endpoints', { url, ...fields }), 201) as {
    id: string;
    secret: string;
  };
}

async function deliveries(c: Client, endpointId: string): Promise<Json[]> {
  return listAll(c, `/api/v1/webhook-endpoints/${endpointId}/deliveries`);
}

describe.each(databaseTargets())('webhook delivery ($name)', (target) => {
  let t: TestApp;
  let receiver: Receiver;
  let lab: Lab;
  let owner: Client;
  beforeAll(async () => {
    t = await startTestApp(target, { env: LOOPBACK_ALLOWED });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    receiver = await startReceiver();
    lab = await createLab(t.database);
    owner = client(t, lab.owner);
  });
  afterEach(() => receiver.close());

  it('sends every change-feed event, in feed order, signed: the records GET /events lists', async () => {
    const endpoint = await newEndpoint(owner, receiver.url);
    const plant = await newPlant(owner, { species: 'Monstera deliciosa' });
    await newPlant(owner);
    dataOf(await owner.patch(`/api/v1/plants/${plant.id}`, { notes: 'repotted' }), 200);
    const worker = deliveryWorker(t);
    try {
      expect(await drain(worker)).toBe(3);
    } finally {
      await worker.stop();
    }
    const feed = await listAll(owner, '/api/v1/events?entity=plant');
    expect(feed).toHaveLength(3);
    expect(receiver.requests).toHaveLength(3);
    const bodies = receiver.requests.map((request) => verified(request, endpoint.secret) as Json);
    expect(bodies.map((b) => b.data)).toEqual(feed);
    expect(bodies.map((b) => b.type)).toEqual(['plant.created', 'plant.created', 'plant.updated']);
    expect(bodies.map((b) => b.timestamp)).toEqual(feed.map((event: Json) => event.created_at));
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual(
      feed.map((event: Json) => event.id),
    );
    const log = await deliveries(owner, endpoint.id);
    expect(log).toHaveLength(3);
    for (const delivery of log) {
      expect(delivery).toMatchObject({
        status: 'delivered',
        attempts: 1,
        last_status_code: 200,
        last_response: 'thanks',
        last_error: null,
        next_attempt_at: null,
      });
    }
  });

  it('retries a 500 with backoff, honours Retry-After, and logs every attempt', async () => {
    const endpoint = await newEndpoint(owner, receiver.url);
    receiver.answer((_req, res) => res.writeHead(500).end('database down'));
    const plant = await newPlant(owner);
    const clock = testClock();
    const worker = deliveryWorker(t, { now: clock.now });
    try {
      expect(await drain(worker)).toBe(1);
      let [delivery] = await deliveries(owner, endpoint.id);
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500 });
      expect(delivery.last_response).toBe('database down');
      expect(Date.parse(delivery.next_attempt_at) - Date.parse(delivery.last_attempt_at)).toBe(
        RETRY_DELAYS_MS[0],
      );
      // Not due yet: nothing is sent.
      clock.advance(RETRY_DELAYS_MS[0]! - 1);
      expect(await worker.tick()).toBe(0);
      clock.advance(1);
      receiver.answer((_req, res) => res.writeHead(503, { 'retry-after': '900' }).end());
      expect(await worker.tick()).toBe(1);
      [delivery] = await deliveries(owner, endpoint.id);
      expect(delivery).toMatchObject({ status: 'pending', attempts: 2, last_status_code: 503 });
      // The schedule says 5 minutes; the receiver asked for 15.
      expect(Date.parse(delivery.next_attempt_at) - Date.parse(delivery.last_attempt_at)).toBe(
        900_000,
      );
      clock.advance(900_000);
      receiver.answer((_req, res) => res.writeHead(204).end());
      expect(await worker.tick()).toBe(1);
    } finally {
      await worker.stop();
    }
    const detail = dataOf(
      await owner.get(
        `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${(await deliveries(owner, endpoint.id))[0].id}`,
      ),
      200,
    );
    expect(detail).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 204 });
    expect(detail.attempt_log.map((a: Json) => a.status_code)).toEqual([204, 503, 500]);
    const ids = new Set(receiver.requests.map((r) => r.headers['webhook-id']));
    expect([...ids]).toHaveLength(1);
    expect(receiver.requests).toHaveLength(3);
    const event = (await listAll(owner, '/api/v1/events?entity=plant'))[0];
    expect(event.entity_id).toBe(plant.id);
    expect([...ids][0]).toBe(event.id);
  });
});
