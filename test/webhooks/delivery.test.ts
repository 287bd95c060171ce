import { expect, it } from 'vitest';
import { RETRY_DELAYS_MS } from '../../src/modules/webhooks/delivery/schedule.js';
import { dataOf, expectError, listAll, newPlant, type Client } from '../support/helpers.js';
import {
  deliveryWorker,
  drain,
  LOOPBACK_ALLOWED,
  testClock,
  verified,
  receiverEach,
} from './support.js';
import { describeOnOwnDatabases, labSuite } from '../support/suite.js';

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

describeOnOwnDatabases('webhook delivery', (target) => {
  const { t, lab, owner } = labSuite(target, { env: LOOPBACK_ALLOWED });
  const receiver = receiverEach(t, lab, owner);

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

  it('disables the endpoint on 410 Gone, with the reason, and sends nothing more', async () => {
    const endpoint = await newEndpoint(owner, receiver.url);
    receiver.answer((_req, res) => res.writeHead(410).end('no such hook'));
    await newPlant(owner);
    const worker = deliveryWorker(t);
    try {
      expect(await drain(worker)).toBe(1);
      const read = dataOf(await owner.get(`/api/v1/webhook-endpoints/${endpoint.id}`), 200);
      expect(read.status).toBe('disabled');
      expect(read.disabled_reason).toMatch(/^the endpoint answered 410 Gone at /);
      expect(await deliveries(owner, endpoint.id)).toMatchObject([
        { status: 'failed', attempts: 1, last_status_code: 410, next_attempt_at: null },
      ]);
      await newPlant(owner);
      expect(await drain(worker)).toBe(0);
      expect(receiver.requests).toHaveLength(1);
      expectError(
        await owner.post(
          `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${(await deliveries(owner, endpoint.id))[0].id}/redeliver`,
          {},
        ),
        409,
        'WEBHOOK_ENDPOINT_DISABLED',
      );
    } finally {
      await worker.stop();
    }
  });

  it('gives up on an answer that does not come in time, and follows no redirect', async () => {
    const endpoint = await newEndpoint(owner, receiver.url);
    receiver.answer((req, res) => {
      if (req.url === '/hooks') return; // never answers
      res.writeHead(200).end();
    });
    await newPlant(owner);
    const worker = deliveryWorker(t, { timeoutMs: 300 });
    try {
      expect(await drain(worker)).toBe(1);
      expect(await deliveries(owner, endpoint.id)).toMatchObject([
        { status: 'pending', last_status_code: null, last_error: 'no answer within 0.3 s' },
      ]);
      const moved = await newEndpoint(owner, receiver.url.replace('/hooks', '/moved'));
      receiver.answer((req, res) => {
        if (req.url === '/moved') res.writeHead(302, { location: '/elsewhere' }).end();
        else res.writeHead(200).end();
      });
      await newPlant(owner);
      await drain(worker);
      expect(await deliveries(owner, moved.id)).toMatchObject([
        {
          status: 'pending',
          last_status_code: 302,
          last_error: 'redirected (HTTP 302); redirects are not followed',
        },
      ]);
      expect(receiver.requests.map((r) => r.path)).not.toContain('/elsewhere');
    } finally {
      await worker.stop();
    }
  });

  it('waits for a slow answer within the deadline and records how long it took', async () => {
    const endpoint = await newEndpoint(owner, receiver.url);
    receiver.answer((_req, res) => {
      setTimeout(() => res.writeHead(200).end('slow but fine'), 250);
    });
    await newPlant(owner);
    const worker = deliveryWorker(t, { timeoutMs: 5000 });
    try {
      expect(await drain(worker)).toBe(1);
    } finally {
      await worker.stop();
    }
    const [delivery] = await deliveries(owner, endpoint.id);
    expect(delivery).toMatchObject({ status: 'delivered', last_response: 'slow but fine' });
    expect(delivery.last_duration_ms).toBeGreaterThanOrEqual(250);
  });

  it('keeps the first 1,024 bytes of an answer, and gives up on one whose body stalls', async () => {
    const long = await newEndpoint(owner, receiver.url.replace('/hooks', '/long'));
    const stalls = await newEndpoint(owner, receiver.url.replace('/hooks', '/stalls'));
    receiver.answer((req, res) => {
      if (req.url === '/long') {
        // In pieces, the cut falling inside the second one; the rest never read.
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('a'.repeat(700));
        setTimeout(() => {
          res.write('b'.repeat(700));
          res.end('c'.repeat(5000));
        }, 20);
      } else {
        res.writeHead(200);
        res.write('started…');
      }
    });
    await newPlant(owner);
    const worker = deliveryWorker(t, { timeoutMs: 400 });
    try {
      expect(await drain(worker)).toBe(2);
    } finally {
      await worker.stop();
    }
    const [kept] = await deliveries(owner, long.id);
    expect(kept).toMatchObject({ status: 'delivered', last_status_code: 200 });
    expect(kept.last_response).toBe('a'.repeat(700) + 'b'.repeat(324));
    expect(await deliveries(owner, stalls.id)).toMatchObject([
      { status: 'pending', last_status_code: null, last_error: 'no answer within 0.4 s' },
    ]);
  });

  it('disables an endpoint whose every attempt failed for 3 days, saying why', async () => {
    const endpoint = await newEndpoint(owner, receiver.url);
    receiver.answer((_req, res) => res.writeHead(500).end());
    await newPlant(owner);
    const clock = testClock();
    const worker = deliveryWorker(t, { now: clock.now });
    try {
      expect(await drain(worker)).toBe(1);
      let passes = 0;
      let read = dataOf(await owner.get(`/api/v1/webhook-endpoints/${endpoint.id}`), 200);
      const failingSince = read.failing_since as string;
      expect(failingSince).not.toBeNull();
      while (read.status === 'enabled' && passes < 20) {
        const [delivery] = await deliveries(owner, endpoint.id);
        if (delivery.next_attempt_at === null) break;
        clock.advance(Date.parse(delivery.next_attempt_at) - clock.now());
        expect(await worker.tick()).toBe(1);
        passes += 1;
        read = dataOf(await owner.get(`/api/v1/webhook-endpoints/${endpoint.id}`), 200);
      }
      expect(read.status).toBe('disabled');
      expect(read.disabled_reason).toMatch(
        new RegExp(
          `^every delivery failed for 3 days \\(since ${failingSince}\\); the last: answered HTTP 500$`,
        ),
      );
      expect(clock.now() - Date.parse(failingSince)).toBeGreaterThanOrEqual(3 * 24 * 3_600_000);
      const [delivery] = await deliveries(owner, endpoint.id);
      expect(delivery.status).toBe('failed');
      expect(receiver.requests).toHaveLength(passes + 1);
    } finally {
      await worker.stop();
    }
  });

  it('signs with the old and the new secret for 24 hours after a rotation', async () => {
    const endpoint = await newEndpoint(owner, receiver.url);
    const rotated = dataOf(
      await owner.post(`/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, {}),
      200,
    );
    await newPlant(owner);
    const clock = testClock();
    const worker = deliveryWorker(t, { now: clock.now });
    try {
      await drain(worker);
      const [first] = receiver.requests;
      expect(String(first!.headers['webhook-signature']).split(' ')).toHaveLength(2);
      verified(first!, endpoint.secret, clock.now());
      verified(first!, rotated.secret, clock.now());
      clock.advance(24 * 3_600_000);
      await newPlant(owner);
      await drain(worker);
      const second = receiver.requests[1]!;
      expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(1);
      verified(second, rotated.secret, clock.now());
      expect(() => verified(second, endpoint.secret, clock.now())).toThrow(/No matching signature/);
    } finally {
      await worker.stop();
    }
  });

  it('sends a delivery again on request, with the same webhook-id', async () => {
    const endpoint = await newEndpoint(owner, receiver.url);
    await newPlant(owner);
    const worker = deliveryWorker(t);
    let firstLog: Json[] = [];
    try {
      await drain(worker);
      const [delivery] = await deliveries(owner, endpoint.id);
      firstLog = [
        {
          attempted_at: delivery.last_attempt_at,
          status_code: 200,
          duration_ms: delivery.last_duration_ms,
          response: delivery.last_response,
          error: null,
          next_attempt_at: null,
        },
      ];
      const logged = dataOf(
        await owner.get(`/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}`),
        200,
      );
      expect(logged.attempt_log).toEqual(firstLog);
      // Shown from the delivery's own columns: the stream writes no attempt row for it.
      const rows = () =>
        t.database.db
          .selectFrom('webhook_attempts')
          .select('status_code')
          .where('delivery_id', '=', delivery.id as string)
          .execute();
      expect(await rows()).toEqual([]);
      const again = dataOf(
        await owner.post(
          `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/redeliver`,
          {},
        ),
        200,
      );
      expect(again).toMatchObject({ id: delivery.id, status: 'pending', attempts: 1 });
      // Its columns are about to change: the first attempt is kept as a row now.
      expect(again.attempt_log).toEqual(firstLog);
      expect(await rows()).toEqual([{ status_code: 200 }]);
      receiver.answer((_req, res) => res.writeHead(202).end('queued'));
      expect(await drain(worker)).toBe(1);
    } finally {
      await worker.stop();
    }
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[1]!.headers['webhook-id']).toBe(
      receiver.requests[0]!.headers['webhook-id'],
    );
    expect(receiver.requests[1]!.body).toBe(receiver.requests[0]!.body);
    const [delivery] = await deliveries(owner, endpoint.id);
    const detail = dataOf(
      await owner.get(`/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}`),
      200,
    );
    expect(detail).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 202 });
    expect(detail.attempt_log.map((a: Json) => [a.status_code, a.response])).toEqual([
      [202, 'queued'],
      [200, firstLog[0]!.response],
    ]);
    // Sent again twice: the first attempt is not logged twice.
    dataOf(
      await owner.post(
        `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/redeliver`,
        {},
      ),
      200,
    );
    const twice = dataOf(
      await owner.get(`/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}`),
      200,
    );
    expect(twice.attempt_log.map((a: Json) => a.status_code)).toEqual([202, 200]);
  });

  it('sends only the event types an endpoint asked for, and sensor alerts', async () => {
    const endpoint = await newEndpoint(owner, receiver.url, {
      event_types: ['plant.updated', 'sensor_alert.opened'],
    });
    const plant = await newPlant(owner);
    dataOf(await owner.patch(`/api/v1/plants/${plant.id}`, { notes: 'rooted' }), 200);
    const device = dataOf(await owner.post('/api/v1/devices', { name: 'Probe' }), 201);
    dataOf(
      await owner.post('/api/v1/alert-rules', {
        name: 'Too warm',
        sensor_type: 'temperature',
        device_id: device.id,
        condition: 'above',
        threshold: 28,
      }),
      201,
    );
    dataOf(
      await owner.post('/api/v1/sensor-readings', {
        device_id: device.id,
        type: 'temperature',
        value: 31,
        unit: 'C',
      }),
      201,
    );
    const worker = deliveryWorker(t);
    try {
      expect(await drain(worker)).toBe(2);
    } finally {
      await worker.stop();
    }
    const bodies = receiver.requests.map((r) => verified(r, endpoint.secret) as Json);
    expect(bodies.map((b) => b.type)).toEqual(['plant.updated', 'sensor_alert.opened']);
    const [alertEvent] = await listAll(owner, '/api/v1/events?entity=sensor_alert');
    expect(bodies[1].data).toEqual(alertEvent);
    expect(bodies[1].data.payload).toMatchObject({ status: 'open', opened_value: 31 });
  });

  it('keeps the delivery log 30 days', async () => {
    const endpoint = await newEndpoint(owner, receiver.url);
    await newPlant(owner);
    const clock = testClock();
    const worker = deliveryWorker(t, { now: clock.now });
    try {
      await drain(worker);
      const [delivery] = await deliveries(owner, endpoint.id);
      clock.advance(30 * 24 * 3_600_000 - 60_000);
      await worker.purge();
      expect(await deliveries(owner, endpoint.id)).toHaveLength(1);
      clock.advance(120_000);
      await worker.purge();
      expect(await deliveries(owner, endpoint.id)).toEqual([]);
      const attempts = await t.database.db
        .selectFrom('webhook_attempts')
        .select('id')
        .where('delivery_id', '=', delivery.id as string)
        .execute();
      expect(attempts).toEqual([]);
    } finally {
      await worker.stop();
    }
  });
});
