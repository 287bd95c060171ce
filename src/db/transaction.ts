import type { Db, Trx } from './database.js';

/**
 * Runs `work` in one transaction: committed when it resolves, rolled back when it
 * throws. The one place that opens transactions; the kernel (one per write request)
 * and the CLI's `withTransaction` call it, so a write service, typed to take a
 * `Trx`, can never be handed the bare database.
 */
export function inTransaction<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  return db.transaction().execute(work);
}
