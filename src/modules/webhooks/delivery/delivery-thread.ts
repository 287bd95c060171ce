import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DatabaseConfig, WebhookConfig } from '../../../config.js';
import { WriteTurn } from '../../../db/write-turn.js';
import type { DeliveryLog } from './delivery-context.js';
import type { DeliveryPressure, StreamOutcome } from './pressure.js';
import type { Deliverer } from './worker.js';

/** What the thread is started with: plain data (a thread shares no objects). */
export interface ThreadData {
  readonly database: DatabaseConfig;
  /** The server's SQLite write turn, taken by the thread's write transactions too. */
  readonly writeTurn?: SharedArrayBuffer;
  readonly webhooks: WebhookConfig;
  readonly pollMs?: number;
}

/** What the thread tells the thread that serves requests. */
export type ThreadMessage =
  | { readonly kind: 'read'; readonly endpointId: string; readonly oldest: string | null }
  | {
      readonly kind: 'ended';
      readonly endpointId: string;
      readonly made: StreamOutcome;
      readonly next: number | null;
    }
  | { readonly kind: 'warn'; readonly fields: Record<string, unknown>; readonly message: string };

/** Where the thread's warnings go, and its failures: the server's log. */
export interface ThreadLog extends DeliveryLog {
  error(fields: object, message: string): void;
}

/** A failed thread is started again after this long, twice as long after each failure in a row… */
const RESTART_MS = 1000;
/** …up to this long… */
const RESTART_MAX_MS = 60_000;
/** …and once a thread has run this long, a failure counts as the first again. */
const RESTART_FORGIVEN_MS = 60_000;

/** "a second", "8 seconds", "a minute": how the log says a restart's delay. */
function inWords(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds === 1) return 'a second';
  if (seconds === 60) return 'a minute';
  return `${seconds} seconds`;
}

/**
 * The thread's module: only the built server (dist/) has one a thread can load. The
 * TypeScript source (the tests, `npm run dev`) runs under tsx, whose loader Node 20
 * does not apply in worker threads; there the worker runs in-process (see app.ts).
 */
const THREAD_ENTRY = new URL('./thread.js', import.meta.url);

/** Whether this code can run its deliveries on a thread: it is the built server's. */
export function deliveryThreadAvailable(): boolean {
  return !fileURLToPath(import.meta.url).endsWith('.ts');
}

/**
 * Runs this process's webhook deliveries (worker.ts) on a thread of their own, with
 * its own database connection, so that sending, signing and logging them takes a
 * second core rather than the time of the thread that serves requests. On SQLite,
 * where one process does all the work, that thread was saturated by a steady write
 * load with three endpoints subscribed, and writes had to wait for deliveries.
 *
 * The thread tells each stream's progress to the server's write gate (pressure.ts,
 * hold.ts), which samples the event loop that serves requests, so writes wait as
 * before while that thread is saturated and deliveries fall behind. A thread that
 * fails is logged and started again a second later, then after 2, 4, 8… seconds while
 * it keeps failing (a minute at most); its leases lapse as a killed process's do.
 */
export class DeliveryThread implements Deliverer {
  readonly #data: ThreadData;
  readonly #log: ThreadLog;
  readonly #pressure: Pick<DeliveryPressure, 'read' | 'ended'>;
  #worker: Worker | null = null;
  #exited: Promise<void> = Promise.resolve();
  #stopping = false;
  #restart: NodeJS.Timeout | null = null;
  #started = false;
  /** Failures in a row: each restart waits twice as long as the one before. */
  #failures = 0;

  /** `pressure` is told the streams' progress: the server's write gate (hold.ts). */
  constructor(
    data: ThreadData,
    log: ThreadLog,
    pressure: Pick<DeliveryPressure, 'read' | 'ended'>,
  ) {
    this.#data = data;
    this.#log = log;
    this.#pressure = pressure;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#spawn();
  }

  #spawn(): void {
    const spawned = Date.now();
    const worker = new Worker(THREAD_ENTRY, { workerData: this.#data });
    this.#worker = worker;
    worker.on('message', (message: ThreadMessage) => this.#heard(message));
    let failure: unknown = null;
    worker.on('error', (error) => {
      failure = error;
    });
    this.#exited = new Promise((resolve) => {
      worker.once('exit', (code) => {
        // It may have ended holding its turn at writing, or waiting for it.
        if (this.#data.writeTurn !== undefined) WriteTurn.abandon(this.#data.writeTurn);
        resolve();
        if (this.#worker === worker) this.#worker = null;
        if (this.#stopping) return;
        if (Date.now() - spawned >= RESTART_FORGIVEN_MS) this.#failures = 0;
        const delay = Math.min(RESTART_MS * 2 ** this.#failures, RESTART_MAX_MS);
        this.#failures += 1;
        this.#log.error(
          { err: failure ?? new Error(`exit code ${code}`) },
          `the webhook delivery thread stopped; starting it again in ${inWords(delay)}`,
        );
        this.#restart = setTimeout(() => {
          this.#restart = null;
          if (!this.#stopping) this.#spawn();
        }, delay);
        this.#restart.unref();
      });
    });
  }

  #heard(message: ThreadMessage): void {
    switch (message.kind) {
      case 'read':
        this.#pressure.read(message.endpointId, message.oldest);
        return;
      case 'ended':
        this.#pressure.ended(message.endpointId, message.made, message.next);
        return;
      case 'warn':
        this.#log.warn(message.fields, message.message);
        return;
    }
  }

  /**
   * Stops: the thread cuts its attempts in flight short, commits its passes, releases
   * its leases and closes its connection, as an in-process worker's `stop` does.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#restart !== null) clearTimeout(this.#restart);
    this.#worker?.postMessage('stop');
    await this.#exited;
  }
}
