// Webhooks in the bench: a fast loopback receiver in its own process, the endpoints and alert
// rules a run subscribes (--endpoints, --alert-rules), and what the receiver saw: how many
// deliveries, and how long after each event was recorded it arrived.
import { randomBytes } from 'node:crypto';
import { fork } from 'node:child_process';
import { URL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import pg from 'pg';
import { fetch } from 'undici';
import { v7 as uuidv7 } from 'uuid';

/**
 * A receiver answering 204 at once, timing each delivery from its event's `timestamp`, in a
 * process of its own (receiver.mjs). `count()` and `take()` ask it over IPC.
 */
export async function startReceiver() {
  const child = fork(new URL('./receiver.mjs', import.meta.url), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map();
  let next = 1;
  child.on('message', ({ id, answer }) => {
    waiting.get(id)?.(answer);
    waiting.delete(id);
  });
  const ask = (question, extra = {}) =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      child.send({ id, ask: question, ...extra });
    });
  const port = await new Promise((resolve) => waiting.set(0, resolve));
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    count: () => ask('count'),
    /**
     * Deliveries since the last take: count, per second, and latency percentiles (ms) from
     * their events' times; and those of `probes` (`{ id, at }`: records created, and when
     * their creation was answered) from that answer.
     */
    take: (probes = []) => ask('take', { probes }),
    close: () => ask('close'),
  };
}

/**
 * Waits until Vitro has delivered its webhook backlog (the receiver saw nothing new for
 * half a second), so that a run starts with nothing left over from the one before: the
 * baseline's events are delivered by Vitro's worker too, and would otherwise load the
 * next run and be timed in it. Answers the seconds waited.
 */
export async function settleDeliveries(receiver, limitMs = 300_000) {
  const started = Date.now();
  let seen = await receiver.count();
  while (Date.now() - started < limitMs) {
    await sleep(500);
    const now = await receiver.count();
    if (now === seen) break;
    seen = now;
  }
  return (Date.now() - started) / 1000;
}

async function post(server, apiKey, path, body) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await res.json();
  if (res.status !== 201)
    throw new Error(`${path} answered ${res.status}: ${JSON.stringify(answer)}`);
  return answer.data;
}

/** Subscribes `count` endpoints (every event type) through Vitro's API. */
export async function subscribeEndpoints(server, apiKey, receiver, count) {
  for (let i = 0; i < count; i++) {
    await post(server, apiKey, '/api/v1/webhook-endpoints', {
      url: `${receiver.url}/${i}`,
      description: `bench ${i + 1}`,
    });
  }
}

/**
 * `count` alert rules on the ingest's readings, none of them ever firing (the bench's
 * temperatures stay within 20 to 25 °C), as a lab's quiet day: half on rooms (every
 * batch of a device in one is judged), half on single devices.
 */
export async function addAlertRules(server, apiKey, readings, count) {
  for (let i = 0; i < count; i++) {
    const onRoom = i % 2 === 0;
    await post(server, apiKey, '/api/v1/alert-rules', {
      name: `bench rule ${i + 1}`,
      sensor_type: 'temperature',
      ...(onRoom
        ? { room_id: readings.roomIds[(i / 2) % readings.roomIds.length] }
        : { device_id: readings.deviceIds[(i - 1) / 2] }),
      condition: i % 4 < 2 ? 'above' : 'below',
      threshold: i % 4 < 2 ? 35 : 10,
      duration_minutes: 10,
      hysteresis: 0.5,
    });
  }
}

/**
 * Deliveries per second to the fast receiver: `count` events are written straight into
 * the workspace's change history (as a burst of activity would leave them) with an
 * endpoint whose cursor stands before them; Vitro's worker drains the backlog (to that
 * endpoint and to the `subscribed` ones), and the receiver times it from the first
 * delivery to the last.
 */
export async function measureDrain(target, seeded, receiver, count, subscribed) {
  const now = new Date().toISOString();
  const endpointId = uuidv7();
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const write = async (run) => {
    if (target.dialect === 'sqlite') {
      const db = new Database(target.path);
      db.pragma('busy_timeout = 10000');
      try {
        db.transaction(() => run((text, values) => db.prepare(text).run(values)))();
      } finally {
        db.close();
      }
      return;
    }
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      await client.query('begin');
      // One statement after another: pg deprecates queueing queries on a busy client.
      let pending = Promise.resolve();
      await run((text, values) => {
        let i = 0;
        const sql = text.replace(/\?/g, () => `$${++i}`);
        pending = pending.then(() => client.query(sql, values));
      });
      await pending;
      await client.query('commit');
    } finally {
      await client.end();
    }
  };
  let seq = null;
  if (target.dialect === 'sqlite') {
    const db = new Database(target.path, { readonly: true });
    seq = Number(
      db.prepare('select event_seq from workspaces where id = ?').get(seeded.workspaceId).event_seq,
    );
    db.close();
  } else {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    seq = Number(
      (await client.query('select event_seq from workspaces where id = $1', [seeded.workspaceId]))
        .rows[0].event_seq,
    );
    await client.end();
  }
  await receiver.take();
  await write((run) => {
    for (let i = 1; i <= count; i++) {
      run(
        'insert into events (id, workspace_id, seq, entity_type, entity_id, stage_id, event_type, event_time, recorded_by, payload, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [
          uuidv7(),
          seeded.workspaceId,
          seq + i,
          'plant',
          seeded.plantId,
          null,
          'updated',
          now,
          null,
          '{"changes":{}}',
          now,
        ],
      );
    }
    run('update workspaces set event_seq = ? where id = ?', [seq + count, seeded.workspaceId]);
    run(
      'insert into webhook_endpoints (id, workspace_id, url, description, event_types, status, disabled_reason, disabled_at, secret, previous_secret, previous_secret_expires_at, feed_seq, lease_owner, lease_until, failing_since, last_success_at, created_by, created_at, updated_at) values (?, ?, ?, ?, null, ?, null, null, ?, null, null, ?, null, null, null, null, null, ?, ?)',
      [
        endpointId,
        seeded.workspaceId,
        `${receiver.url}/drain`,
        'bench drain',
        'enabled',
        secret,
        seq,
        now,
        now,
      ],
    );
  });
  const deadline = Date.now() + 10 * 60_000;
  const expected = count * (subscribed + 1);
  while ((await receiver.count()) < expected && Date.now() < deadline) await sleep(50);
  return { endpointId, ...(await receiver.take()) };
}

/**
 * While `running` lasts, creates a plant every `everyMs` besides the load (same request) and
 * notes when each was answered: its deliveries are timed from that answer (receiver.mjs),
 * a clock of the runner's own. An event's recorded time cannot serve alone: it strictly
 * increases within a workspace, by a millisecond at least, so above 1,000 events a second
 * it runs ahead of the clock, and a delivery timed from it looks faster than it was.
 */
export async function probeWhile(server, apiKey, request, running, everyMs = 100) {
  const probes = [];
  let done = false;
  void running.finally(() => (done = true));
  while (!done) {
    const res = await fetch(`${server.url}${request.path}`, {
      method: request.method,
      headers: { authorization: `Bearer ${apiKey}`, ...request.headers },
      body: request.body,
    });
    const at = Date.now();
    const answer = await res.json();
    if (res.status === 201) probes.push({ id: answer.data.id, at });
    await sleep(everyMs);
  }
  return probes;
}
