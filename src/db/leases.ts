import type { Db, Trx } from './database.js';
import { inTransaction } from './transaction.js';

/**
 * Leases: which process runs a periodic job right now, across every process that
 * shares the database (one server on SQLite, many on PostgreSQL). A lease is held
 * by one holder until it expires; its holder may renew it, anyone may take it once
 * it has expired (its holder died), and the holder releases it when done.
 */

/** Takes (or renews) the lease `name` for `holder` until `until`; false when another holds it. */
export async function takeLease(
  trx: Trx,
  name: string,
  holder: string,
  now: string,
  until: string,
): Promise<boolean> {
  await trx
    .insertInto('maintenance_leases')
    .values({ name, holder, expires_at: '' })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const result = await trx
    .updateTable('maintenance_leases')
    .set({ holder, expires_at: until })
    .where('name', '=', name)
    .where((eb) => eb.or([eb('holder', '=', holder), eb('expires_at', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Gives the lease up, if `holder` still holds it. */
export async function releaseLease(trx: Trx, name: string, holder: string): Promise<void> {
  await trx
    .updateTable('maintenance_leases')
    .set({ expires_at: '' })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .execute();
}

/**
 * `holder`'s hold on the lease `name`: `take` takes or renews it for `ms` from
 * `nowMs` (false when another holds it), `release` gives it up; each in a
 * transaction of its own.
 */
export function leaseOf(db: Db, name: string, holder: string, ms: number) {
  return {
    take: (nowMs: number): Promise<boolean> =>
      inTransaction(db, (trx) =>
        takeLease(
          trx,
          name,
          holder,
          new Date(nowMs).toISOString(),
          new Date(nowMs + ms).toISOString(),
        ),
      ),
    release: (): Promise<void> => inTransaction(db, (trx) => releaseLease(trx, name, holder)),
  };
}
