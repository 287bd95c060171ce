import { bulkInsert } from '../../db/bulk-insert.js';
import type { Db, Trx } from '../../db/database.js';
import { claimDue } from '../../db/due-rows.js';
import { fetchPage, NEWEST_FIRST } from '../../db/pages.js';
import type { WebhookAttemptTable, WebhookDeliveryTable } from '../../db/schema.js';
import type { Page, PageRequest } from '../../db/pages.js';

export type DeliveryRow = WebhookDeliveryTable;
export type AttemptRow = WebhookAttemptTable;

const storeDeliveries = bulkInsert(
  'webhook_deliveries',
  {
    id: 'text',
    workspace_id: 'text',
    endpoint_id: 'text',
    event_id: 'text',
    event_seq: 'bigint',
    event_type: 'text',
    status: 'text',
    attempts: 'integer',
    schedule_step: 'integer',
    next_attempt_at: 'text',
    lease_owner: 'text',
    last_attempt_at: 'text',
    last_status_code: 'integer',
    last_duration_ms: 'integer',
    last_response: 'text',
    last_error: 'text',
    created_at: 'text',
    updated_at: 'text',
  },
  { ignoreConflictOn: ['endpoint_id', 'event_id'] },
);

const storeAttempts = bulkInsert('webhook_attempts', {
  id: 'text',
  workspace_id: 'text',
  delivery_id: 'text',
  attempted_at: 'text',
  status_code: 'integer',
  duration_ms: 'integer',
  response: 'text',
  error: 'text',
  next_attempt_at: 'text',
});

const COLUMNS = storeDeliveries.columns;
const ATTEMPT_COLUMNS = storeAttempts.columns;

/** Stores deliveries; one already stored for its endpoint and event is left as it is. */
export async function insertDeliveries(trx: Trx, rows: readonly DeliveryRow[]): Promise<void> {
  await storeDeliveries.run(trx, rows);
}

export async function insertAttempts(trx: Trx, rows: readonly AttemptRow[]): Promise<void> {
  await storeAttempts.run(trx, rows);
}

/**
 * The endpoints with retries due (or deliveries sent again by hand), up to `limit`:
 * each endpoint's queue is read on its own (index `webhook_deliveries_endpoint_due`).
 */
export async function endpointsWithDueRetries(
  db: Db,
  now: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_endpoints as e')
    .select('e.id')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('webhook_deliveries as d')
          .select('d.id')
          .whereRef('d.endpoint_id', '=', 'e.id')
          .where('d.status', '=', 'pending')
          .where('d.next_attempt_at', '<=', now),
      ),
    )
    .orderBy('e.id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Takes up to `limit` due retries of one endpoint for `owner` until `leaseUntil` (see `claimDue`). */
export function claimDueDeliveries(
  db: Db,
  endpointId: string,
  owner: string,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<DeliveryRow[]> {
  return claimDue(db, 'webhook_deliveries', COLUMNS, {
    owner,
    now,
    leaseUntil,
    limit,
    within: { column: 'endpoint_id', value: endpointId },
  });
}

/** Writes an attempt's outcome if `owner` still holds the delivery; says whether it did. */
export async function completeDelivery(
  trx: Trx,
  id: string,
  owner: string,
  changes: Partial<DeliveryRow>,
): Promise<boolean> {
  const result = await trx
    .updateTable('webhook_deliveries')
    .set(changes)
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Releases what `owner` holds (a stopping process): due again at once. */
export async function releaseDeliveries(db: Db, owner: string, now: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ lease_owner: null, next_attempt_at: now })
    .where('lease_owner', '=', owner)
    .where('status', '=', 'pending')
    .execute();
}

/** An endpoint's pending deliveries fail with `reason` (the endpoint was disabled). */
export async function failPendingDeliveries(
  trx: Trx,
  workspaceId: string,
  endpointId: string,
  reason: string,
  at: string,
): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({
      status: 'failed',
      next_attempt_at: null,
      lease_owner: null,
      last_error: reason,
      updated_at: at,
    })
    .where('workspace_id', '=', workspaceId)
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}

export interface DeliveryFilter {
  readonly status?: string;
  readonly eventType?: string;
}

/** An endpoint's delivery log, newest first. */
export function listDeliveryPage(
  db: Db,
  workspaceId: string,
  endpointId: string,
  filter: DeliveryFilter,
  page: PageRequest,
): Promise<Page<DeliveryRow>> {
  let query = db
    .selectFrom('webhook_deliveries')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('endpoint_id', '=', endpointId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.eventType !== undefined) query = query.where('event_type', '=', filter.eventType);
  return fetchPage(query, NEWEST_FIRST, page);
}

export function findDelivery(
  db: Db,
  workspaceId: string,
  endpointId: string,
  id: string,
): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A delivery by id alone, with its workspace (the CLI's redelivery). */
export function findDeliveryById(db: Db, id: string): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .select(COLUMNS)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * A delivery's latest attempts, newest first. A delivery delivered at its first attempt
 * has no attempt row: its own `last_*` columns are that attempt (see `firstAttemptOf`),
 * so the stream, which logs thousands a second, writes one row per delivery, not two.
 */
export async function attemptsOf(
  db: Db,
  delivery: DeliveryRow,
  limit: number,
): Promise<AttemptRow[]> {
  const rows = await storedAttemptsOf(db, delivery.workspace_id, delivery.id, limit);
  const first = rows.length === 0 ? firstAttemptOf(delivery) : undefined;
  return first === undefined ? rows : [first];
}

/**
 * The attempt a delivery holds in its own columns: the first, when it delivered
 * (attempted once, and nothing logged for it). Its id is the delivery's: an attempt's id
 * is never shown, and the row written for it later (`keepFirstAttempt`) has the same.
 */
function firstAttemptOf(delivery: DeliveryRow): AttemptRow | undefined {
  if (delivery.attempts !== 1 || delivery.status !== 'delivered') return undefined;
  if (delivery.last_attempt_at === null || delivery.last_duration_ms === null) return undefined;
  return {
    id: delivery.id,
    workspace_id: delivery.workspace_id,
    delivery_id: delivery.id,
    attempted_at: delivery.last_attempt_at,
    status_code: delivery.last_status_code,
    duration_ms: delivery.last_duration_ms,
    response: delivery.last_response,
    error: delivery.last_error,
    next_attempt_at: null,
  };
}

/**
 * Before a delivery's columns change for another attempt (a redelivery), the first
 * attempt they hold is written to the log as a row of its own. A delivery logged
 * before this rule (its first attempt already a row) is left as it is.
 */
export async function keepFirstAttempt(trx: Trx, delivery: DeliveryRow): Promise<void> {
  const first = firstAttemptOf(delivery);
  if (first === undefined) return;
  if ((await storedAttemptsOf(trx, delivery.workspace_id, delivery.id, 1)).length > 0) return;
  await storeAttempts.run(trx, [first]);
}

function storedAttemptsOf(
  db: Db,
  workspaceId: string,
  deliveryId: string,
  limit: number,
): Promise<AttemptRow[]> {
  return db
    .selectFrom('webhook_attempts')
    .select(ATTEMPT_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('delivery_id', '=', deliveryId)
    .orderBy('attempted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Makes a delivery due now, its schedule started again (a redelivery asked for by hand). */
export async function scheduleAgain(
  trx: Trx,
  workspaceId: string,
  id: string,
  at: string,
): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      schedule_step: 0,
      next_attempt_at: at,
      lease_owner: null,
      updated_at: at,
    })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/**
 * Deletes up to `limit` finished deliveries created before `before` (their attempts go
 * with them: the foreign key cascades); how many went.
 */
export async function purgeDeliveries(db: Db, before: string, limit: number): Promise<number> {
  const old = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('created_at', '<', before)
    .where('status', '!=', 'pending')
    .limit(limit);
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('id', 'in', old)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Attempts made before `before` (the older attempts of a delivery sent again since). */
export async function purgeAttempts(db: Db, before: string): Promise<void> {
  await db.deleteFrom('webhook_attempts').where('attempted_at', '<', before).execute();
}
