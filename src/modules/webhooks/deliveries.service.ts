import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { AppError, errors } from '../../kernel/errors.js';
import type { Page, PageRequest } from '../../db/pages.js';
import {
  attemptsOf,
  findDelivery,
  findDeliveryById,
  keepFirstAttempt,
  listDeliveryPage,
  scheduleAgain,
  type AttemptRow,
  type DeliveryRow,
} from './deliveries.repository.js';
import { endpoints } from './endpoints.repository.js';
import type {
  DeliveryQuery,
  WebhookAttempt,
  WebhookDeliveryDetail,
  WebhookDeliveryRecord,
} from './webhooks.schemas.js';

/** How long the delivery log keeps a delivery. */
export const DELIVERY_LOG_DAYS = 30;

/** Attempts shown with one delivery. */
const ATTEMPTS_SHOWN = 50;

export function presentDelivery(row: DeliveryRow): WebhookDeliveryRecord {
  return {
    id: row.id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status as WebhookDeliveryRecord['status'],
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    last_attempt_at: row.last_attempt_at,
    last_status_code: row.last_status_code,
    last_duration_ms: row.last_duration_ms,
    last_response: row.last_response,
    last_error: row.last_error,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function presentAttempt(row: AttemptRow): Static<typeof WebhookAttempt> {
  return {
    attempted_at: row.attempted_at,
    status_code: row.status_code,
    duration_ms: row.duration_ms,
    response: row.response,
    error: row.error,
    next_attempt_at: row.next_attempt_at,
  };
}

async function requireEndpointOf(db: Db, workspaceId: string, endpointId: string) {
  const endpoint = await endpoints.find(db, workspaceId, endpointId);
  if (endpoint === undefined) throw errors.notFound('Webhook endpoint');
  return endpoint;
}

/** An endpoint's delivery log (the last 30 days), newest first. */
export async function listDeliveries(
  db: Db,
  workspaceId: string,
  endpointId: string,
  query: Static<typeof DeliveryQuery>,
  page: PageRequest,
): Promise<Page<WebhookDeliveryRecord>> {
  await requireEndpointOf(db, workspaceId, endpointId);
  const { items, nextKey } = await listDeliveryPage(
    db,
    workspaceId,
    endpointId,
    {
      ...(query.status === undefined ? {} : { status: query.status }),
      ...(query.event_type === undefined ? {} : { eventType: query.event_type }),
    },
    page,
  );
  return { items: items.map(presentDelivery), nextKey };
}

/** One delivery with its latest attempts. */
export async function getDelivery(
  db: Db,
  workspaceId: string,
  endpointId: string,
  id: string,
): Promise<Static<typeof WebhookDeliveryDetail>> {
  const row = await findDelivery(db, workspaceId, endpointId, id);
  if (row === undefined) throw errors.notFound('Webhook delivery');
  const attempts = await attemptsOf(db, row, ATTEMPTS_SHOWN);
  return { ...presentDelivery(row), attempt_log: attempts.map(presentAttempt) };
}

/**
 * Sends a delivery again, whatever became of it: it is due at once, with the same
 * `webhook-id` and body, and a failure retries on the schedule from its start.
 * The endpoint must be enabled.
 */
export async function redeliver(
  trx: Trx,
  workspaceId: string,
  endpointId: string,
  id: string,
  now: string,
): Promise<Static<typeof WebhookDeliveryDetail>> {
  const endpoint = await endpoints.lock(trx, workspaceId, endpointId);
  if (endpoint === undefined) throw errors.notFound('Webhook endpoint');
  const row = await findDelivery(trx, workspaceId, endpointId, id);
  if (row === undefined) throw errors.notFound('Webhook delivery');
  if (endpoint.status !== 'enabled') {
    throw new AppError(
      'WEBHOOK_ENDPOINT_DISABLED',
      'The webhook endpoint is disabled; enable it before sending a delivery again',
    );
  }
  await keepFirstAttempt(trx, row);
  await scheduleAgain(trx, workspaceId, id, now);
  return getDelivery(trx, workspaceId, endpointId, id);
}

/** The CLI's redelivery: by the delivery's id alone. */
export async function redeliverById(
  trx: Trx,
  id: string,
  now: string,
): Promise<Static<typeof WebhookDeliveryDetail>> {
  const row = await findDeliveryById(trx, id);
  if (row === undefined) throw errors.notFound('Webhook delivery');
  return redeliver(trx, row.workspace_id, row.endpoint_id, id, now);
}
