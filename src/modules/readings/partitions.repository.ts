import { sql } from 'kysely';
import type { Db, Trx } from '../../db/database.js';

/**
 * PostgreSQL only: `sensor_readings` is partitioned by calendar month (UTC) of
 * `recorded_at` (migration 20261126210000): `sensor_readings_pYYYYMM` for
 * [first of the month, first of the next), and `sensor_readings_default` for any
 * time without its month's partition.
 */

export const DEFAULT_PARTITION = 'sensor_readings_default';

export interface MonthPartition {
  readonly name: string;
  /** ISO times: the month is [from, to). */
  readonly from: string;
  readonly to: string;
}

/** `2026-11` → its partition. */
export function monthPartition(year: number, monthIndex: number): MonthPartition {
  const from = new Date(Date.UTC(year, monthIndex, 1));
  const to = new Date(Date.UTC(year, monthIndex + 1, 1));
  const name = `sensor_readings_p${from.toISOString().slice(0, 7).replace('-', '')}`;
  return { name, from: from.toISOString(), to: to.toISOString() };
}

/** The month partitions that exist, oldest first. */
export async function listMonthPartitions(db: Db): Promise<MonthPartition[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'sensor_readings'::regclass`.execute(db);
  return rows
    .map((row) => /^sensor_readings_p(\d{4})(\d{2})$/.exec(row.name))
    .filter((match) => match !== null)
    .map((match) => monthPartition(Number(match[1]), Number(match[2]) - 1))
    .sort((a, b) => (a.from < b.from ? -1 : 1));
}

/**
 * Makes a month's partition, when it does not exist yet: built as a table of its
 * own, given the month's readings the default partition held (a device clock
 * ahead), then attached. Attaching holds the parent table only against other
 * schema changes; readings are written and read meanwhile.
 */
export async function ensureMonthPartition(trx: Trx, month: MonthPartition): Promise<boolean> {
  const { rows } = await sql<{ found: string | null }>`
    select to_regclass(${month.name})::text as found`.execute(trx);
  if (rows[0]?.found != null) return false;
  const table = sql.ref(month.name);
  await sql`set local lock_timeout = '5s'`.execute(trx);
  await sql`create table ${table} (like sensor_readings including defaults including constraints)`.execute(
    trx,
  );
  await sql`with moved as (
      delete from ${sql.ref(DEFAULT_PARTITION)}
      where recorded_at >= ${month.from} and recorded_at < ${month.to} returning *)
    insert into ${table} select * from moved`.execute(trx);
  await sql`alter table sensor_readings attach partition ${table}
    for values from (${sql.lit(month.from)}) to (${sql.lit(month.to)})`.execute(trx);
  return true;
}

/** The workspaces with readings in a partition, one index probe each. */
export async function workspacesIn(db: Db, partition: string): Promise<string[]> {
  const table = sql.ref(partition);
  const { rows } = await sql<{ workspace_id: string }>`
    with recursive found as (
      (select workspace_id from ${table} order by workspace_id limit 1)
      union all
      select (select workspace_id from ${table} where workspace_id > found.workspace_id
              order by workspace_id limit 1)
      from found where found.workspace_id is not null)
    select workspace_id from found where workspace_id is not null`.execute(db);
  return rows.map((row) => row.workspace_id);
}

/**
 * Drops a partition: its readings go at once, their space back to the system.
 * Dropping holds the parent table for a moment; when readings requests keep it
 * busier than `lockTimeoutMs`, it fails with `isLockTimeout` (nothing changed).
 */
export async function dropPartition(
  trx: Trx,
  partition: string,
  lockTimeoutMs: number,
): Promise<void> {
  await sql`set local lock_timeout = ${sql.lit(`${lockTimeoutMs}ms`)}`.execute(trx);
  await sql`drop table ${sql.ref(partition)}`.execute(trx);
}

/** PostgreSQL's lock_not_available (55P03): a lock_timeout ran out. */
export const isLockTimeout = (error: unknown): boolean =>
  (error as { code?: unknown }).code === '55P03';

/**
 * Deletes up to `limit` of a workspace's readings taken before `before` from one
 * partition (by row address: a partition's own rows), returning how many.
 */
export async function deleteFromPartition(
  trx: Trx,
  partition: string,
  workspaceId: string,
  before: string,
  limit: number,
): Promise<number> {
  const table = sql.ref(partition);
  const result = await sql`
    delete from ${table} where ctid = any(array(
      select ctid from ${table} where workspace_id = ${workspaceId} and recorded_at < ${before}
      limit ${limit}))`.execute(trx);
  return Number(result.numAffectedRows ?? 0n);
}
