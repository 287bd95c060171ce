import type { Db, Trx } from './database.js';

interface Pending {
  readonly state: unknown;
  readonly step: (trx: Trx) => Promise<void>;
}

/** Work a transaction's writes left to do, by name, run just before it commits. */
const pendingOf = new WeakMap<Trx, Map<string, Pending>>();

/**
 * Runs `work` in one transaction: committed when it resolves, rolled back when it
 * throws. The one place that opens transactions; the kernel (one per write request)
 * and the CLI's `withTransaction` call it, so a write service, typed to take a
 * `Trx`, can never be handed the bare database. What `beforeCommit` left runs after
 * `work`, in the same transaction.
 */
export function inTransaction<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const result = await work(trx);
    const pending = pendingOf.get(trx);
    if (pending !== undefined) {
      pendingOf.delete(trx);
      for (const { step } of pending.values()) await step(trx);
    }
    return result;
  });
}

/**
 * Leaves `step` to run once when the transaction's work is done, whatever how many
 * writes ask for it by `name`: each gets the same state (made by the first) to add
 * to, and the step does the work of all of them at once.
 */
export function beforeCommit<S>(
  trx: Trx,
  name: string,
  state: () => S,
  step: (trx: Trx, state: S) => Promise<void>,
): S {
  let pending = pendingOf.get(trx);
  if (pending === undefined) pendingOf.set(trx, (pending = new Map<string, Pending>()));
  const existing = pending.get(name);
  if (existing !== undefined) return existing.state as S;
  const value = state();
  pending.set(name, { state: value, step: (t) => step(t, value) });
  return value;
}
