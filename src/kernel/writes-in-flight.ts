import type { Database } from '../db/database.js';

/**
 * Write handlers still running, per database. A server shutting down waits for
 * them before it closes the database: a write whose client went away (or whose
 * connection a shutdown closed) still commits or rolls back whole, with its
 * Idempotency-Key completed or released, instead of failing half-way on a
 * closed pool.
 */
const running = new WeakMap<Database, Set<Promise<unknown>>>();

export function trackWrite<T>(database: Database, work: Promise<T>): Promise<T> {
  let set = running.get(database);
  if (set === undefined) {
    set = new Set();
    running.set(database, set);
  }
  const tracked = set;
  tracked.add(work);
  const forget = () => tracked.delete(work);
  work.then(forget, forget);
  return work;
}

/** Resolves once every write running now (and any they lead to) has finished. */
export async function writesSettled(database: Database): Promise<void> {
  const set = running.get(database);
  while (set !== undefined && set.size > 0) await Promise.allSettled([...set]);
}
