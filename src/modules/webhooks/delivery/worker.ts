import { setMaxListeners } from 'node:events';
import type { Database } from '../../../db/database.js';
import type { Resolver } from '../../../files/outbound-address.js';
import { newId } from '../../../kernel/ids.js';
import { isoAt, type DeliveryContext, type DeliveryLog } from './delivery-context.js';
import {
  endpointsWithDueRetries,
  purgeAttempts,
  purgeDeliveries,
  releaseDeliveries,
} from '../deliveries.repository.js';
import { DELIVERY_LOG_DAYS } from '../deliveries.service.js';
import { endpointsBehind, releaseStreams } from '../endpoints.repository.js';
import type { PressureReport } from './pressure.js';
import { sendDueRetries } from './retries.js';
import { WebhookSender } from './sender.js';
import { STREAM_BATCH, streamEndpoint } from './stream.js';
import type { TargetPolicy } from '../target.js';

/** How often an idle worker looks for new events and due retries. */
const POLL_MS = 250;
/**
 * After a batch of a stream that sent less than a full batch, the next waits this long
 * for more events to gather: each batch costs a few queries and a transaction whatever
 * it sends, so while writes keep coming, back-to-back batches of a few events each would
 * cost more than the events do.
 */
export const GATHER_MS = 100;
/** How often the delivery log is pruned. */
const PURGE_EVERY_MS = 10 * 60_000;
const PURGE_BATCH = 1000;
/** Endpoints streamed at once by one process; and endpoints whose retries it sends at once. */
const STREAMS_AT_ONCE = 16;

export interface DeliveryWorkerOptions {
  readonly database: Database;
  readonly policy: TargetPolicy;
  /** The deadline of one attempt; leases last three times as long. */
  readonly timeoutMs: number;
  readonly log: DeliveryLog;
  readonly resolver?: Resolver;
  /** An extra trusted CA certificate (tests). */
  readonly ca?: string | Buffer;
  /** The clock and the jitter (tests make them fixed). */
  readonly now?: () => number;
  readonly random?: () => number;
  readonly pollMs?: number;
  /**
   * Told how far behind the streams run: the server's write gate (pressure.ts, hold.ts),
   * or a delivery thread's messages to it (delivery-thread.ts).
   */
  readonly pressure?: PressureReport;
}

/** What the server runs: a DeliveryWorker here, or one on a thread of its own (delivery-thread.ts). */
export interface Deliverer {
  start(): void;
  stop(): Promise<void>;
}

/**
 * Delivers webhooks from this process: streams each endpoint's feed (stream.ts) and
 * sends due retries (retries.ts), and prunes the delivery log. Any number of processes
 * may run one on the same database. It never blocks a request: it only awaits the
 * database and the network.
 *
 * Each endpoint is streamed on its own, and its retries are sent on their own: an
 * endpoint whose receiver hangs holds up its own events only, never another endpoint's.
 * A stream goes on while it finds events (at once after a full batch, after GATHER_MS
 * after a partial one) and ends when it finds none; the worker polls for endpoints with
 * new events, or with retries due, and starts their streams and retries.
 */
export class DeliveryWorker implements Deliverer {
  readonly #ctx: DeliveryContext;
  readonly #stop = new AbortController();
  readonly #pollMs: number;
  #running: Promise<void> | null = null;
  /** Endpoints this process streams now (or gathers events for), by id. */
  readonly #streams = new Map<string, Promise<void>>();
  /** Endpoints whose due retries this process sends now, by id. */
  readonly #retries = new Map<string, Promise<void>>();
  /** Passes made by hand (tick) in progress: stopping waits for them to commit what they sent. */
  readonly #passes = new Set<Promise<number>>();
  #lastPurge = 0;

  constructor(options: DeliveryWorkerOptions) {
    this.#pollMs = options.pollMs ?? POLL_MS;
    // Every attempt in flight listens for the stop (sender.ts): up to a hundred or so at once.
    setMaxListeners(0, this.#stop.signal);
    this.#ctx = {
      database: options.database,
      sender: new WebhookSender({
        policy: options.policy,
        timeoutMs: options.timeoutMs,
        ...(options.resolver ? { resolver: options.resolver } : {}),
        ...(options.ca ? { ca: options.ca } : {}),
        ...(options.now ? { now: options.now } : {}),
      }),
      owner: newId(),
      leaseMs: 3 * options.timeoutMs,
      now: options.now ?? Date.now,
      random: options.random ?? Math.random,
      abort: this.#stop.signal,
      log: options.log,
      ...(options.pressure ? { pressure: options.pressure } : {}),
    };
  }

  /**
   * One pass by hand (tests): every endpoint with new events streamed once, and a batch
   * of each endpoint's due retries sent. Answers the attempts made. The running worker
   * does not make passes.
   */
  tick(): Promise<number> {
    const pass = this.#pass();
    this.#passes.add(pass);
    const forget = () => this.#passes.delete(pass);
    pass.then(forget, forget);
    return pass;
  }

  async #pass(): Promise<number> {
    const ctx = this.#ctx;
    const now = isoAt(ctx.now());
    const [behind, due] = await Promise.all([
      endpointsBehind(ctx.database.db, now, STREAMS_AT_ONCE),
      endpointsWithDueRetries(ctx.database.db, now, STREAMS_AT_ONCE),
    ]);
    const made = await Promise.all([
      ...behind.map((endpoint) => streamEndpoint(ctx, endpoint.id)),
      ...due.map((endpointId) => sendDueRetries(ctx, endpointId)),
    ]);
    return made.reduce((sum, n) => sum + n, 0);
  }

  /** Deletes deliveries and attempts older than the log keeps. */
  async purge(): Promise<void> {
    const before = isoAt(this.#ctx.now() - DELIVERY_LOG_DAYS * 24 * 3_600_000);
    while ((await purgeDeliveries(this.#ctx.database.db, before, PURGE_BATCH)) === PURGE_BATCH) {
      if (this.#stop.signal.aborted) return;
    }
    await purgeAttempts(this.#ctx.database.db, before);
  }

  start(): void {
    if (this.#running !== null) return;
    this.#running = this.#loop();
  }

  async #loop(): Promise<void> {
    const { log } = this.#ctx;
    while (!this.#stop.signal.aborted) {
      try {
        if (Date.now() - this.#lastPurge >= PURGE_EVERY_MS) {
          this.#lastPurge = Date.now();
          await this.purge();
        }
        await Promise.all([this.#startStreams(), this.#startRetries()]);
      } catch (error) {
        if (this.#stop.signal.aborted) break;
        log.warn({ err: error }, 'webhook delivery pass failed; trying again');
      }
      await this.#pause(this.#pollMs);
    }
  }

  /** Starts a stream for each endpoint with new events that nobody streams. */
  #startStreams(): Promise<void> {
    // Streams of this process that are gathering have let go of their lease: skipped.
    return this.#startEach(
      this.#streams,
      async (now, limit) =>
        (await endpointsBehind(this.#ctx.database.db, now, limit)).map(({ id }) => id),
      (id) => this.#stream(id),
    );
  }

  /** Starts sending the due retries of each endpoint that has some. */
  #startRetries(): Promise<void> {
    return this.#startEach(
      this.#retries,
      (now, limit) => endpointsWithDueRetries(this.#ctx.database.db, now, limit),
      (id) => this.#retry(id),
    );
  }

  /**
   * Runs `work` for each endpoint `find` answers that has none running in `running`
   * yet, up to STREAMS_AT_ONCE running at once; each leaves `running` when it ends.
   */
  async #startEach(
    running: Map<string, Promise<void>>,
    find: (now: string, limit: number) => Promise<string[]>,
    work: (endpointId: string) => Promise<void>,
  ): Promise<void> {
    const room = STREAMS_AT_ONCE - running.size;
    if (room <= 0) return;
    const found = await find(isoAt(this.#ctx.now()), STREAMS_AT_ONCE + running.size);
    for (const id of found.filter((id) => !running.has(id)).slice(0, room)) {
      if (this.#stop.signal.aborted) return;
      const done = work(id).catch((error: unknown) => {
        if (!this.#stop.signal.aborted) {
          this.#ctx.log.warn(
            { err: error },
            'webhook delivery to an endpoint failed; trying again',
          );
        }
      });
      running.set(id, done);
      void done.finally(() => running.delete(id));
    }
  }

  /** Streams one endpoint until it finds no new event (or another process has it). */
  async #stream(endpointId: string): Promise<void> {
    let made = await streamEndpoint(this.#ctx, endpointId);
    while (made > 0 && !this.#stop.signal.aborted) {
      if (made < STREAM_BATCH) await this.#pause(GATHER_MS);
      if (this.#stop.signal.aborted) return;
      made = await streamEndpoint(this.#ctx, endpointId);
    }
  }

  /** Sends one endpoint's due retries, batch after batch, until none is left. */
  async #retry(endpointId: string): Promise<void> {
    while (!this.#stop.signal.aborted && (await sendDueRetries(this.#ctx, endpointId)) > 0);
  }

  /** Waits `ms`, or less when the worker stops. */
  #pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const signal = this.#stop.signal;
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
    });
  }

  /**
   * Stops: attempts in flight are cut short (and logged for a retry), the pass in
   * progress commits, and what this process held is released for others at once.
   */
  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#running;
    this.#running = null;
    await Promise.allSettled([
      ...this.#streams.values(),
      ...this.#retries.values(),
      ...this.#passes,
    ]);
    const { database, owner, now } = this.#ctx;
    await Promise.all([
      releaseStreams(database.db, owner),
      releaseDeliveries(database.db, owner, isoAt(now())),
    ]).catch((error: unknown) =>
      this.#ctx.log.warn({ err: error }, 'could not release webhook leases'),
    );
    await this.#ctx.sender.close();
  }
}
