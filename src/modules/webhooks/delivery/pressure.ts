import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { MadeAttempt } from './attempt.js';

/** The delivery lag past which a busy process makes its write requests wait. */
export const LAG_TARGET_MS = 300;
/** The longest a write request waits. */
export const MAX_HOLD_MS = 250;
/** How often the event loop's busy share is sampled. */
export const SAMPLE_EVERY_MS = 100;
/**
 * The event loop's busy share from which the process counts as busy: lag with the loop
 * less busy than this is not for want of CPU. Not higher: with writes waiting, the loop
 * works less than all the time, and the gate must not open because of that.
 */
export const BUSY_SHARE = 0.5;
/** An attempt slower than this (or failing) marks its endpoint slow: its lag is its own doing. */
export const SLOW_ATTEMPT_MS = 1000;
/** An endpoint no stream has told about for this long no longer counts (deleted, say). */
const STALE_MS = 2000;
/** How long an endpoint stays marked slow without a stream. */
const SLOW_FORGOTTEN_MS = 3_600_000;

/** What the streams tell (stream.ts): the server's DeliveryPressure, or a delivery thread's messenger to it. */
export interface PressureReport {
  read(endpointId: string, oldest: string | null): void;
  finished(endpointId: string, made: readonly MadeAttempt[], next: number | null): void;
}

/** What a stream's attempts came to, as the pressure counts them. */
export interface StreamOutcome {
  readonly sent: number;
  /** Some attempt failed or took over a second. */
  readonly slow: boolean;
}

export function slowAttempts(made: readonly MadeAttempt[]): boolean {
  return made.some(
    (one) => one.result.outcome !== 'delivered' || one.result.durationMs > SLOW_ATTEMPT_MS,
  );
}

interface Backlog {
  /** The oldest event of the endpoint that may still wait was recorded no earlier than this. */
  since: number;
  /** When a stream last said so. */
  told: number;
}

/** The share of the last interval the event loop spent working, from Node's own count. */
export function loopUtilization(): () => number {
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const share = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    return share;
  };
}

/**
 * Backpressure from webhook delivery onto write requests. A saturated process serves
 * the requests in front of it and starves its own delivery work: under a steady create
 * load its feed would run minutes ahead of the receivers. So the streams tell how old
 * the oldest event each endpoint may still wait for is, and a write request (`admit`)
 * waits, while the event loop is busy and that age passes 300 ms for a healthy
 * endpoint, until a stream makes progress that brings it back, 250 ms at most. Writes
 * then go at the pace deliveries keep; reads never wait. An endpoint whose attempts
 * fail or take over a second is left out: its lag is the receiver's, and holding
 * writes would not help it; nor does a quiet process (a slow receiver is not a busy
 * server).
 */
export class DeliveryPressure implements PressureReport {
  readonly #backlogs = new Map<string, Backlog>();
  /** Slow endpoints, with when a stream last found them so. */
  readonly #slow = new Map<string, number>();
  readonly #now: () => number;
  readonly #utilization: () => number;
  #busy = false;
  #sampling: NodeJS.Timeout | null = null;
  #waiting = 0;
  #progress: (() => void)[] = [];

  constructor(now: () => number = Date.now, utilization: () => number = loopUtilization()) {
    this.#now = now;
    this.#utilization = utilization;
  }

  /** A stream read its endpoint's feed: `oldest` is when the first event it read was recorded (ISO), null when there was none. */
  read(endpointId: string, oldest: string | null): void {
    if (oldest === null) this.#backlogs.delete(endpointId);
    else this.#backlogs.set(endpointId, { since: Date.parse(oldest), told: this.#now() });
    this.#wake();
  }

  /**
   * A stream ended: `made` are its attempts (none when it failed before sending), and
   * `next` bounds what may still wait: the time of the last event it sent when its
   * batch was full (more follow), else the time it read the feed (anything after is new).
   */
  finished(endpointId: string, made: readonly MadeAttempt[], next: number | null): void {
    this.ended(endpointId, { sent: made.length, slow: slowAttempts(made) }, next);
  }

  /** `finished`, told by a delivery thread (delivery-thread.ts): what its attempts came to. */
  ended(endpointId: string, made: StreamOutcome, next: number | null): void {
    const now = this.#now();
    if (made.slow) this.#slow.set(endpointId, now);
    else if (made.sent > 0) this.#slow.delete(endpointId);
    if (next !== null) this.#backlogs.set(endpointId, { since: next, told: now });
    this.#wake();
  }

  /** How old the oldest event a healthy endpoint may still wait for is (ms). */
  lagMs(): number {
    const now = this.#now();
    let lag = 0;
    for (const [endpointId, backlog] of this.#backlogs) {
      if (now - backlog.told > STALE_MS) {
        this.#backlogs.delete(endpointId);
        continue;
      }
      if (this.#slow.has(endpointId)) continue;
      lag = Math.max(lag, now - backlog.since);
    }
    return lag;
  }

  /** Samples the event loop every 100 ms until `stopSampling` (the server's write gate, hold.ts). */
  startSampling(): void {
    if (this.#sampling !== null) return;
    this.#sampling = setInterval(() => this.sample(), SAMPLE_EVERY_MS);
    this.#sampling.unref();
  }

  stopSampling(): void {
    if (this.#sampling !== null) clearInterval(this.#sampling);
    this.#sampling = null;
  }

  /** Samples the event loop (every 100 ms once `startSampling`). */
  sample(): void {
    this.#busy = this.#utilization() >= BUSY_SHARE;
    const now = this.#now();
    for (const [endpointId, at] of this.#slow) {
      if (now - at > SLOW_FORGOTTEN_MS) this.#slow.delete(endpointId);
    }
  }

  /** Whether a write request should wait now. */
  behind(): boolean {
    return this.#busy && this.lagMs() > LAG_TARGET_MS;
  }

  /**
   * Lets a write request go: at once unless `behind()`, else when a stream's progress
   * brings deliveries back within the target, or after 250 ms. Answers whether it waited.
   */
  async admit(): Promise<boolean> {
    if (!this.behind()) return false;
    this.#waiting += 1;
    let expired = false;
    let wakeMe = () => {};
    const timer = setTimeout(() => {
      expired = true;
      wakeMe();
    }, MAX_HOLD_MS);
    try {
      while (!expired && this.behind()) {
        await new Promise<void>((resolve) => {
          wakeMe = resolve;
          this.#progress.push(resolve);
        });
      }
    } finally {
      clearTimeout(timer);
      this.#waiting -= 1;
    }
    return true;
  }

  /** Write requests waiting now. */
  waiting(): number {
    return this.#waiting;
  }

  #wake(): void {
    if (this.#progress.length === 0) return;
    const waking = this.#progress;
    this.#progress = [];
    for (const wake of waking) wake();
  }
}
