import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { MadeAttempt } from './attempt.js';

/** The delivery lag this process keeps its write requests to, when it is what holds deliveries back. */
export const LAG_TARGET_MS = 300;
/** The longest a write request is held. */
export const MAX_HOLD_MS = 250;
/** The first hold, and the least: below it the hold ends. */
export const MIN_HOLD_MS = 5;
/** How often the hold is adjusted. */
export const ADJUST_EVERY_MS = 100;
/**
 * The event loop's busy share from which the process counts as busy: lag with the loop
 * less busy than this is not for want of CPU. Not higher: with writes held, the loop
 * works less than all the time, and the hold must not let go because of that.
 */
export const BUSY_SHARE = 0.5;
/** An attempt slower than this (or failing) marks its endpoint slow: its lag is its own doing. */
export const SLOW_ATTEMPT_MS = 1000;
/** How long a finished stream's lag still counts. */
const REMEMBER_MS = 1000;
/** How long an endpoint stays marked slow without a stream (one deleted, say). */
const SLOW_FORGOTTEN_MS = 3_600_000;

interface Stream {
  /** When the oldest event the stream read was recorded. */
  readonly oldest: number;
  /** When the stream committed; null while it runs. */
  finished: number | null;
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
 * Backpressure from webhook delivery onto write requests. A process that is saturated
 * serves the requests in front of it and starves its own delivery work: under a steady
 * create load the feed would run minutes ahead of the receivers. So the streams report
 * how old the oldest event they read was (`started`) and when they delivered it
 * (`finished`); every 100 ms `adjust` compares the lag of healthy endpoints with 300 ms
 * and, only while the event loop is busy, grows the time a write request is held
 * before it is served (from 5 ms, doubling while far behind, up to 250 ms), and
 * otherwise shrinks it back to nothing. Reads
 * are never held. An endpoint whose attempts fail or take over a second is left out:
 * its lag is the receiver's, and holding writes would not help it; nor does a quiet
 * process (a slow receiver is not a busy server).
 */
export class DeliveryPressure {
  readonly #streams = new Map<string, Stream>();
  /** Slow endpoints, with when their last stream ended. */
  readonly #slow = new Map<string, number>();
  readonly #now: () => number;
  readonly #utilization: () => number;
  #hold = 0;
  #lag = 0;

  constructor(now: () => number = Date.now, utilization: () => number = loopUtilization()) {
    this.#now = now;
    this.#utilization = utilization;
  }

  /** A stream read its endpoint's backlog; `oldest` is when its first event was recorded (ISO). */
  started(endpointId: string, oldest: string): void {
    this.#streams.set(endpointId, { oldest: Date.parse(oldest), finished: null });
  }

  /** A stream ended; `made` are its attempts (none when it failed before sending). */
  finished(endpointId: string, made: readonly MadeAttempt[]): void {
    const now = this.#now();
    const stream = this.#streams.get(endpointId);
    if (stream !== undefined) stream.finished = now;
    const slow = made.some(
      (one) => one.result.outcome !== 'delivered' || one.result.durationMs > SLOW_ATTEMPT_MS,
    );
    if (slow) this.#slow.set(endpointId, now);
    else if (made.length > 0) this.#slow.delete(endpointId);
  }

  /** The age of the oldest event healthy endpoints wait for, or took to get, lately (ms). */
  lagMs(): number {
    const now = this.#now();
    let lag = 0;
    for (const [endpointId, stream] of this.#streams) {
      if (stream.finished !== null && now - stream.finished > REMEMBER_MS) {
        this.#streams.delete(endpointId);
        continue;
      }
      if (this.#slow.has(endpointId)) continue;
      lag = Math.max(lag, (stream.finished ?? now) - stream.oldest);
    }
    return lag;
  }

  /** Moves the hold one step: up while healthy endpoints lag and the loop is busy, else down. */
  adjust(): void {
    this.#lag = this.lagMs();
    const now = this.#now();
    for (const [endpointId, at] of this.#slow) {
      if (now - at > SLOW_FORGOTTEN_MS) this.#slow.delete(endpointId);
    }
    const busy = this.#utilization() >= BUSY_SHARE;
    if (busy && this.#lag > LAG_TARGET_MS) {
      // Quickly while far behind, gently near the target, so that it settles.
      const step = this.#lag > 2 * LAG_TARGET_MS ? 2 : 1.25;
      this.#hold = Math.min(MAX_HOLD_MS, Math.max(MIN_HOLD_MS, this.#hold * step));
    } else {
      this.#hold = this.#hold < MIN_HOLD_MS ? 0 : this.#hold * 0.8;
    }
  }

  /** How long to hold a write request now (ms); 0 almost always. */
  holdMs(): number {
    return this.#hold;
  }

  /** The lag the last adjustment saw (ms). */
  lastLagMs(): number {
    return this.#lag;
  }
}
