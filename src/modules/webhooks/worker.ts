import { setMaxListeners } from 'node:events';
import type { Database } from '../../db/database.js';
import type { Resolver } from '../../files/outbound-address.js';
import { newId } from '../../kernel/ids.js';
import { isoAt, type DeliveryContext, type DeliveryLog } from './delivery-context.js';
import { purgeAttempts, purgeDeliveries, releaseDeliveries } from './deliveries.repository.js';
import { DELIVERY_LOG_DAYS } from './deliveries.service.js';
import { endpointsBehind, releaseStreams } from './endpoints.repository.js';
import type { PressureReport } from './pressure.js';
import { sendDueRetries } from './retries.js';
import { WebhookSender } from './sender.js';
import { STREAM_BATCH, streamEndpoint } from './stream.js';
import type { TargetPolicy } from './target.js';

/** How often an idle worker looks for new events and due retries. */
const POLL_MS = 250;
/**
 * After a pass that sent less than a batch, the next waits this long for more events
 * to gather: each pass costs a few queries and a transaction per endpoint whatever it
 * sends, so while writes keep coming, back-to-back passes of a few events each would
 * cost more than the events do.
 */
export const GATHER_MS = 100;
/** How often the delivery log is pruned. */
const PURGE_EVERY_MS = 10 * 60_000;
const PURGE_BATCH = 1000;
/** Endpoints streamed at once by one process. */
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
 * sends due retries (retries.ts), polling while there is nothing to do, and prunes
 * the delivery log. Any number of processes may run one on the same database. It
 * never blocks a request: it only awaits the database and the network.
 */
export class DeliveryWorker implements Deliverer {
  readonly #ctx: DeliveryContext;
  readonly #stop = new AbortController();
  readonly #pollMs: number;
  #running: Promise<void> | null = null;
  /** Passes in progress: stopping waits for them to commit what they sent. */
  readonly #passes = new Set<Promise<number>>();
  #wake: (() => void) | null = null;
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

  /** One pass: every endpoint with new events, and the due retries. Answers the attempts made. */
  tick(): Promise<number> {
    const pass = this.#pass();
    this.#passes.add(pass);
    const forget = () => this.#passes.delete(pass);
    pass.then(forget, forget);
    return pass;
  }

  async #pass(): Promise<number> {
    const ctx = this.#ctx;
    const behind = await endpointsBehind(ctx.database.db, isoAt(ctx.now()), STREAMS_AT_ONCE);
    const [streamed, retried] = await Promise.all([
      Promise.all(behind.map((endpoint) => streamEndpoint(ctx, endpoint.id))),
      sendDueRetries(ctx),
    ]);
    return streamed.reduce((sum, n) => sum + n, retried);
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
      let made = 0;
      try {
        if (Date.now() - this.#lastPurge >= PURGE_EVERY_MS) {
          this.#lastPurge = Date.now();
          await this.purge();
        }
        made = await this.tick();
      } catch (error) {
        if (this.#stop.signal.aborted) break;
        log.warn({ err: error }, 'webhook delivery pass failed; trying again');
      }
      if (made === 0) await this.#sleep(this.#pollMs);
      else if (made < STREAM_BATCH) await this.#sleep(Math.min(GATHER_MS, this.#pollMs));
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    });
  }

  /**
   * Stops: attempts in flight are cut short (and logged for a retry), the pass in
   * progress commits, and what this process held is released for others at once.
   */
  async stop(): Promise<void> {
    this.#stop.abort();
    this.#wake?.();
    await this.#running;
    this.#running = null;
    await Promise.allSettled([...this.#passes]);
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
