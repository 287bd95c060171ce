import { sql } from 'kysely';
import type { Db, Trx } from '../../db/database.js';
import type { WebhookEndpointTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';

export type EndpointRow = WebhookEndpointTable;

const COLUMNS = [
  'id',
  'workspace_id',
  'url',
  'description',
  'event_types',
  'status',
  'disabled_reason',
  'disabled_at',
  'secret',
  'previous_secret',
  'previous_secret_expires_at',
  'feed_seq',
  'lease_owner',
  'lease_until',
  'failing_since',
  'last_success_at',
  'created_by',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof EndpointRow)[];

/** Endpoints by id, inserted, updated, listed newest first. */
export const endpoints = workspaceTable('webhook_endpoints', COLUMNS);

export async function countEndpoints(db: Db, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function deleteEndpointRow(trx: Trx, workspaceId: string, id: string): Promise<void> {
  // Its log goes with it (the foreign keys cascade).
  await trx
    .deleteFrom('webhook_endpoints')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/**
 * Endpoints with events to stream: enabled, behind their workspace's latest event,
 * and held by no process (nor paused for a `Retry-After`) at `now`.
 */
export async function endpointsBehind(
  db: Db,
  now: string,
  limit: number,
): Promise<{ id: string; workspace_id: string }[]> {
  return db
    .selectFrom('webhook_endpoints as e')
    .innerJoin('workspaces as w', 'w.id', 'e.workspace_id')
    .select(['e.id', 'e.workspace_id'])
    .where('e.status', '=', 'enabled')
    .where(sql<boolean>`e.feed_seq < w.event_seq`)
    .where((eb) => eb.or([eb('e.lease_until', 'is', null), eb('e.lease_until', '<', now)]))
    .orderBy('e.lease_until')
    .limit(limit)
    .execute();
}

/**
 * Takes an endpoint's stream for `owner` until `until`, when nobody holds it. On
 * PostgreSQL a concurrent taker waits for the row, then finds the lease taken and
 * changes nothing: exactly one process streams an endpoint at a time.
 */
export async function takeStream(
  db: Db,
  id: string,
  owner: string,
  now: string,
  until: string,
): Promise<EndpointRow | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set({ lease_owner: owner, lease_until: until })
    .where('id', '=', id)
    .where('status', '=', 'enabled')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .returning(COLUMNS)
    .executeTakeFirst();
}

/** Extends a held stream; false when the lease was lost (taken over after it ran out). */
export async function renewStream(
  db: Db,
  id: string,
  owner: string,
  until: string,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ lease_until: until })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Writes what a stream's batch changed, if `owner` still holds the lease; says whether it did. */
export async function finishStream(
  trx: Trx,
  id: string,
  owner: string,
  changes: Partial<EndpointRow>,
): Promise<boolean> {
  const result = await trx
    .updateTable('webhook_endpoints')
    .set(changes)
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Endpoints by id, of any workspace (the retry queue mixes workspaces). */
export async function endpointsByIds(db: Db, ids: readonly string[]): Promise<EndpointRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('webhook_endpoints').select(COLUMNS).where('id', 'in', ids).execute();
}

/** Releases what `owner` holds (a stopping process), so another takes over at once. */
export async function releaseStreams(db: Db, owner: string): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ lease_owner: null, lease_until: null })
    .where('lease_owner', '=', owner)
    .execute();
}

/**
 * Records attempts' outcomes on their endpoint. After a success (`successAt`), the
 * failing streak is what followed it (`failingSince`, or none); with failures only, a
 * streak already running goes on, else one starts at `failingSince`. Answers when the
 * streak began (null: none).
 */
export async function recordEndpointHealth(
  trx: Trx,
  id: string,
  health: { successAt: string | null; failingSince: string | null },
): Promise<string | null> {
  const row = await trx
    .updateTable('webhook_endpoints')
    .set(
      health.successAt !== null
        ? { failing_since: health.failingSince, last_success_at: health.successAt }
        : { failing_since: sql<string>`coalesce(failing_since, ${health.failingSince})` },
    )
    .where('id', '=', id)
    .returning('failing_since')
    .executeTakeFirst();
  return row?.failing_since ?? null;
}

/** Disables an endpoint (410 Gone, days of failures, or by hand), saying why. */
export async function disableEndpointRow(
  trx: Trx,
  workspaceId: string,
  id: string,
  reason: string,
  at: string,
): Promise<void> {
  await trx
    .updateTable('webhook_endpoints')
    .set({
      status: 'disabled',
      disabled_reason: reason,
      disabled_at: at,
      lease_owner: null,
      lease_until: null,
      updated_at: at,
    })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('status', '=', 'enabled')
    .execute();
}

/** The workspace an endpoint belongs to (the CLI names endpoints by id alone). */
export async function endpointWorkspace(db: Db, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select('workspace_id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.workspace_id;
}
