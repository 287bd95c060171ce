import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { targetPolicy } from '../../src/modules/webhooks/target.js';
import { WebhookSender } from '../../src/modules/webhooks/delivery/sender.js';
import { streamEndpoint } from '../../src/modules/webhooks/delivery/stream.js';
import {
  DeliveryWorker,
  type DeliveryWorkerOptions,
} from '../../src/modules/webhooks/delivery/worker.js';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, beforeEach, inject } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { newId } from '../../src/kernel/ids.js';
import type { Lab, TestApp } from '../support/harness.js';
import { listAll, type Client } from '../support/helpers.js';
import { live } from '../support/suite.js';

/** Loopback receivers are refused unless the configuration allows them, as a lab's LAN would be. */
export const LOOPBACK_ALLOWED = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' };

export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly path: string;
}

export type ReceiverHandler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface Receiver {
  readonly url: string;
  readonly requests: Received[];
  /** TCP connections accepted: proves that a refused address was never dialled. */
  readonly connections: number;
  answer(handler: ReceiverHandler): void;
  close(): Promise<void>;
}

export const ok: ReceiverHandler = (_req, res) => res.writeHead(200).end('thanks');

/** A plain http server on 127.0.0.1 that records every request and answers as told. */
export async function startReceiver(handler: ReceiverHandler = ok): Promise<Receiver> {
  let current = handler;
  const requests: Received[] = [];
  const state = { connections: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ headers: req.headers, body, path: req.url ?? '' });
      current(req, res, body);
    });
  });
  server.on('connection', () => (state.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    get connections() {
      return state.connections;
    },
    answer: (next) => {
      current = next;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Verifies a request with the reference implementation of Standard Webhooks (the
 * `standardwebhooks` package), as a receiver would, at the moment `at` (the worker's
 * clock in these tests): the verifier checks the timestamp against its own clock.
 * Answers the parsed body; throws when the signature does not verify.
 */
export function verified(request: Received, secret: string, at: number = Date.now()): unknown {
  const realNow = Date.now;
  Date.now = () => at;
  try {
    return new Webhook(secret).verify(request.body, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    });
  } finally {
    Date.now = realNow;
  }
}

/** A controllable clock: starts at the real time, moves only when told. */
export function testClock() {
  let now = Date.now();
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** A delivery worker on the test app's database, driven by hand with `tick()`. */
export function deliveryWorker(
  t: TestApp,
  options: Partial<Omit<DeliveryWorkerOptions, 'database' | 'policy' | 'log'>> = {},
): DeliveryWorker {
  return new DeliveryWorker({
    database: t.database,
    policy: targetPolicy(t.config.webhooks),
    timeoutMs: 2000,
    log: t.app.log,
    random: () => 0.5,
    ...options,
  });
}

/**
 * Sends one endpoint's new events once, as a worker's pass would, and logs their
 * deliveries. Unlike a worker it touches no other endpoint of the database, so a test
 * on the PostgreSQL database other files share may use it. Answers the attempts made.
 */
export async function streamOnce(t: TestApp, endpointId: string): Promise<number> {
  const sender = new WebhookSender({ policy: targetPolicy(t.config.webhooks), timeoutMs: 2000 });
  try {
    return await streamEndpoint(
      {
        database: t.database,
        sender,
        owner: newId(),
        leaseMs: 6000,
        now: Date.now,
        random: () => 0.5,
        abort: new AbortController().signal,
        log: t.app.log,
      },
      endpointId,
    );
  } finally {
    await sender.close();
  }
}

/** Ticks until a pass makes no attempt; answers the attempts made. */
export async function drain(worker: DeliveryWorker): Promise<number> {
  let total = 0;
  for (let pass = 0; pass < 100; pass++) {
    const made = await worker.tick();
    if (made === 0) return total;
    total += made;
  }
  throw new Error('the worker kept finding work after 100 passes');
}

/**
 * A receiver for each test of a suite (a live view), closed after the test with every
 * endpoint of the lab deleted: the worker serves every workspace of the database, so no
 * endpoint of one test may still have retries due in the next.
 */
export function receiverEach(t: TestApp, lab: Lab, owner: Client): Receiver {
  let receiver: Receiver | undefined;
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    for (const endpoint of await listAll(owner, '/api/v1/webhook-endpoints')) {
      await t.request({
        method: 'DELETE',
        url: `/api/v1/webhook-endpoints/${endpoint.id as string}`,
        headers: lab.owner.headers,
      });
    }
    await receiver?.close();
  });
  return live('receiver', () => receiver);
}

/** A PostgreSQL database of its own (as `isolatedTargets` makes), and how to drop it; null: not allowed. */
export async function isolatedPostgres(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const base = inject('postgresUrl');
  if (base === null) return null;
  const admin = openDatabase({ dialect: 'postgres', url: base });
  const name = `vitro_hooks_${randomUUID().replace(/-/g, '')}`;
  try {
    await sql`create database ${sql.id(name)}`.execute(admin.db);
  } catch {
    await admin.close();
    return null;
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      try {
        await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin.db);
      } finally {
        await admin.close();
      }
    },
  };
}
