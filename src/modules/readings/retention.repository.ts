import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { sqliteHandleOf, type Db, type Trx } from '../../db/database.js';
import { preparedQuery } from '../../db/prepared.js';

const rawSince = preparedQuery((db, p: { workspaceId: string }) =>
  db.selectFrom('sensor_retention').select('raw_since').where('workspace_id', '=', p.workspaceId),
);

/**
 * Where a workspace's raw readings now start (retention removed those before); null
 * = all kept. Asked by every readings list and summary: compiled once.
 */
export async function findRawSince(db: Db, workspaceId: string): Promise<string | null> {
  return (await rawSince.first(db, { workspaceId }))?.raw_since ?? null;
}

/** Every workspace with its own retention setting (null = the default) and where its raw readings start. */
export async function listRetentionSettings(
  db: Db,
): Promise<{ workspace_id: string; retention_days: number | null; raw_since: string | null }[]> {
  return db
    .selectFrom('workspaces as w')
    .leftJoin('sensor_retention as r', 'r.workspace_id', 'w.id')
    .select(['w.id as workspace_id', 'r.retention_days', 'r.raw_since'])
    .orderBy('w.id')
    .execute();
}

/** A workspace's own retention: days, 0 = for ever, null = the default. */
export async function findRetentionDays(db: Db, workspaceId: string): Promise<number | null> {
  const row = await db
    .selectFrom('sensor_retention')
    .select('retention_days')
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return row?.retention_days ?? null;
}

export async function saveRetentionDays(
  trx: Trx,
  workspaceId: string,
  days: number | null,
  now: string,
): Promise<void> {
  await trx
    .insertInto('sensor_retention')
    .values({ workspace_id: workspaceId, retention_days: days, raw_since: null, updated_at: now })
    .onConflict((oc) =>
      oc.column('workspace_id').doUpdateSet({ retention_days: days, updated_at: now }),
    )
    .execute();
}

/** Moves where a workspace's raw readings start forward to `since` (never back). */
export async function advanceRawSince(
  trx: Trx,
  workspaceId: string,
  since: string,
  now: string,
): Promise<void> {
  await trx
    .insertInto('sensor_retention')
    .values({ workspace_id: workspaceId, retention_days: null, raw_since: since, updated_at: now })
    .onConflict((oc) =>
      oc.column('workspace_id').doUpdateSet({
        raw_since: sql<string>`case when sensor_retention.raw_since is null
          or sensor_retention.raw_since < excluded.raw_since
          then excluded.raw_since else sensor_retention.raw_since end`,
        updated_at: now,
      }),
    )
    .execute();
}

/** Whether the workspace has raw readings taken before `before`. */
export async function hasReadingsBefore(
  db: Db,
  workspaceId: string,
  before: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('sensor_readings')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('recorded_at', '<', before)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * SQLite: deletes up to `limit` of the workspace's oldest readings taken before
 * `before`, one by one by key, stopping at `deadline` (a `performance.now()` time)
 * even if fewer went; returns how many, and whether none is left. On the transaction's own connection,
 * synchronously: its time is the write lock's, and the deadline bounds it whatever
 * the rows cost (their pages cold, the machine busy).
 */
export function deleteReadingsBefore(
  trx: Trx,
  workspaceId: string,
  before: string,
  limit: number,
  deadline: number,
): { removed: number; done: boolean } {
  const sqlite = sqliteHandleOf(trx);
  if (sqlite === undefined) throw new Error('deleteReadingsBefore is for SQLite');
  const keys = sqlite
    .prepare(
      'select device_id, recorded_at, id from sensor_readings ' +
        'where workspace_id = ? and recorded_at < ? order by recorded_at limit ?',
    )
    .all([workspaceId, before, limit]) as { device_id: string; recorded_at: string; id: string }[];
  const remove = sqlite.prepare(
    'delete from sensor_readings where workspace_id = ? and device_id = ? and recorded_at = ? and id = ?',
  );
  let removed = 0;
  for (const key of keys) {
    // Checked every 16 rows: reading the clock costs more than deleting a warm row.
    if ((removed & 15) === 15 && performance.now() >= deadline) break;
    removed += remove.run([workspaceId, key.device_id, key.recorded_at, key.id]).changes;
  }
  return { removed, done: keys.length < limit && removed === keys.length };
}
