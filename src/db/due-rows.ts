import type { Kysely } from 'kysely';
import { isPostgres, type Db } from './database.js';
import type { DB } from './schema.js';

/** Tables of work done later by whichever process takes a row first (emails, webhook retries). */
type DueTable = 'notification_emails' | 'webhook_deliveries';

/** The untyped view the claim is built on: Kysely cannot check a query on a table parameter. */
type DueRow = { id: string; status: string; next_attempt_at: string; lease_owner: string | null };
type Loose = Kysely<Record<string, DueRow>>;

export interface DueClaim<T extends DueTable> {
  readonly owner: string;
  readonly now: string;
  readonly leaseUntil: string;
  readonly limit: number;
  /** Only the rows with this value in this column (one endpoint's deliveries). */
  readonly within?: { readonly column: keyof DB[T] & string; readonly value: string };
}

/**
 * Takes up to `limit` pending rows due at `now` for `owner`, the oldest due first:
 * their `next_attempt_at` becomes the end of the lease, so a process that dies while
 * working leaves them due again once it has run out. On PostgreSQL rows another
 * process is taking are skipped (`FOR UPDATE SKIP LOCKED`): two processes never take
 * the same row. They are looked for with a read first: an idle worker's polls never
 * take the write lock (on SQLite, every process's writers would queue behind them).
 */
export async function claimDue<T extends DueTable>(
  db: Db,
  table: T,
  columns: readonly (keyof DB[T] & string)[],
  claim: DueClaim<T>,
): Promise<DB[T][]> {
  const loose = db as unknown as Loose;
  const name: string = table;
  const within = claim.within;
  const due = () =>
    loose
      .selectFrom(name)
      .select('id')
      .$if(within !== undefined, (q) => q.where(within!.column as 'id', '=', within!.value))
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', claim.now)
      .orderBy('next_attempt_at')
      .limit(claim.limit);
  if ((await due().executeTakeFirst()) === undefined) return [];
  const taking = isPostgres(db) ? due().forUpdate().skipLocked() : due();
  const rows = await loose
    .updateTable(name)
    .set({ next_attempt_at: claim.leaseUntil, lease_owner: claim.owner })
    .where('id', 'in', taking)
    .$if(within !== undefined, (q) => q.where(within!.column as 'id', '=', within!.value))
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', claim.now)
    .returning(columns as readonly string[] as 'id'[])
    .execute();
  return rows as unknown as DB[T][];
}
