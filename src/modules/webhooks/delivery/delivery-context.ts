import type { Database } from '../../../db/database.js';
import type { PressureReport } from './pressure.js';
import type { WebhookSender } from './sender.js';

/** What both delivery paths (the feed stream and the retry queue) share in one process. */
export interface DeliveryContext {
  readonly database: Database;
  readonly sender: WebhookSender;
  /** This process's name on the leases it takes. */
  readonly owner: string;
  /** How long a lease lasts; a process that dies lets go of its work this long after. */
  readonly leaseMs: number;
  readonly now: () => number;
  readonly random: () => number;
  /** Aborts attempts in flight when the process stops. */
  readonly abort: AbortSignal;
  readonly log: DeliveryLog;
  /** Told how far behind the streams run, to hold writes back when the process is saturated. */
  readonly pressure?: PressureReport;
}

/** What delivery logs: warnings of passes that failed (a thread forwards them to its parent). */
export interface DeliveryLog {
  warn(fields: object, message: string): void;
}

export const isoAt = (ms: number) => new Date(ms).toISOString();

/** Runs `work` on every item, at most `limit` at a time, starting them in order. */
export async function inOrder<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
  stopAfter: (result: R) => boolean = () => false,
): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  let stop = false;
  const lane = async () => {
    while (!stop && next < items.length) {
      const i = next++;
      const result = await work(items[i]!);
      results[i] = result;
      if (stopAfter(result)) stop = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  // Everything started has finished: the results are a prefix of the items.
  return results.slice(0, next);
}
