import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { AppError, errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { parseJsonArray } from '../../kernel/json.js';
import type { Page, PageRequest } from '../../db/pages.js';
import { currentEventSequence } from '../events/index.js';
import { failPendingDeliveries } from './deliveries.repository.js';
import {
  countEndpoints,
  deleteEndpointRow,
  disableEndpointRow,
  endpoints,
  endpointWorkspace,
  type EndpointRow,
} from './endpoints.repository.js';
import { newSigningSecret } from './signing.js';
import { checkTargetUrl, type TargetPolicy } from './target.js';
import type {
  CreateWebhookEndpointBody,
  UpdateWebhookEndpointBody,
  WebhookEndpointRecord,
} from './webhooks.schemas.js';

/** How many endpoints one workspace may have. */
export const ENDPOINTS_PER_WORKSPACE = 20;

/** After a rotation the old secret keeps signing this long, so receivers can switch. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

export function presentEndpoint(row: EndpointRow): WebhookEndpointRecord {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: row.event_types === null ? null : (parseJsonArray(row.event_types) as string[]),
    status: row.status as WebhookEndpointRecord['status'],
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at,
    failing_since: row.failing_since,
    last_success_at: row.last_success_at,
    previous_secret_expires_at: row.previous_secret_expires_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The secrets that sign at `now`: the current one, and the previous one for a day after a rotation. */
export function signingSecrets(row: EndpointRow, now: string): string[] {
  return row.previous_secret !== null &&
    row.previous_secret_expires_at !== null &&
    row.previous_secret_expires_at > now
    ? [row.secret, row.previous_secret]
    : [row.secret];
}

const eventTypesText = (types: readonly string[] | null | undefined) =>
  types === undefined || types === null ? null : JSON.stringify(types);

async function requireEndpoint(db: Db, workspaceId: string, id: string): Promise<EndpointRow> {
  const row = await endpoints.find(db, workspaceId, id);
  if (row === undefined) throw errors.notFound('Webhook endpoint');
  return row;
}

/** Creates an endpoint that receives the events recorded from now on; answers its secret once. */
export async function createEndpoint(
  trx: Trx,
  actor: { workspaceId: string; memberId: string | null },
  body: Static<typeof CreateWebhookEndpointBody>,
  policy: TargetPolicy,
  now: string,
): Promise<WebhookEndpointRecord & { secret: string }> {
  const url = checkTargetUrl(body.url, policy);
  if ((await countEndpoints(trx, actor.workspaceId)) >= ENDPOINTS_PER_WORKSPACE) {
    throw new AppError(
      'CONFLICT',
      `A workspace has at most ${ENDPOINTS_PER_WORKSPACE} webhook endpoints; delete one first`,
    );
  }
  const row: EndpointRow = {
    id: newId(),
    workspace_id: actor.workspaceId,
    url,
    description: body.description ?? '',
    event_types: eventTypesText(body.event_types),
    status: 'enabled',
    disabled_reason: null,
    disabled_at: null,
    secret: newSigningSecret(),
    previous_secret: null,
    previous_secret_expires_at: null,
    feed_seq: await currentEventSequence(trx, actor.workspaceId),
    lease_owner: null,
    lease_until: null,
    failing_since: null,
    last_success_at: null,
    created_by: actor.memberId,
    created_at: now,
    updated_at: now,
  };
  await endpoints.insert(trx, row);
  const stored = await requireEndpoint(trx, actor.workspaceId, row.id);
  return { ...presentEndpoint(stored), secret: stored.secret };
}

export async function listEndpoints(
  db: Db,
  workspaceId: string,
  page: PageRequest,
): Promise<Page<WebhookEndpointRecord>> {
  const { items, nextKey } = await endpoints.newest(db, workspaceId, page);
  return { items: items.map(presentEndpoint), nextKey };
}

export async function getEndpoint(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<WebhookEndpointRecord> {
  return presentEndpoint(await requireEndpoint(db, workspaceId, id));
}

/** Changes the URL, description or event types; the deliveries already made stay as they were. */
export async function updateEndpoint(
  trx: Trx,
  workspaceId: string,
  id: string,
  body: Static<typeof UpdateWebhookEndpointBody>,
  policy: TargetPolicy,
  now: string,
): Promise<WebhookEndpointRecord> {
  const row = await endpoints.lock(trx, workspaceId, id);
  if (row === undefined) throw errors.notFound('Webhook endpoint');
  const changes: Partial<EndpointRow> = { updated_at: now };
  if (body.url !== undefined) changes.url = checkTargetUrl(body.url, policy);
  if (body.description !== undefined) changes.description = body.description;
  if (body.event_types !== undefined) changes.event_types = eventTypesText(body.event_types);
  await endpoints.update(trx, workspaceId, id, changes);
  return getEndpoint(trx, workspaceId, id);
}

/** Deletes an endpoint and its delivery log; answers the endpoint as it was. */
export async function deleteEndpoint(
  trx: Trx,
  workspaceId: string,
  id: string,
): Promise<WebhookEndpointRecord> {
  const row = await endpoints.lock(trx, workspaceId, id);
  if (row === undefined) throw errors.notFound('Webhook endpoint');
  await deleteEndpointRow(trx, workspaceId, id);
  return presentEndpoint(row);
}

/**
 * Disables an endpoint: nothing more is sent to it, and its pending retries fail
 * with the reason. Disabling a disabled endpoint changes nothing.
 */
export async function disableEndpoint(
  trx: Trx,
  workspaceId: string,
  id: string,
  reason: string,
  now: string,
): Promise<WebhookEndpointRecord> {
  const row = await endpoints.lock(trx, workspaceId, id);
  if (row === undefined) throw errors.notFound('Webhook endpoint');
  if (row.status === 'enabled') {
    await disableEndpointRow(trx, workspaceId, id, reason, now);
    await failPendingDeliveries(trx, workspaceId, id, `endpoint disabled: ${reason}`, now);
  }
  return getEndpoint(trx, workspaceId, id);
}

/**
 * Enables an endpoint again. It receives the events recorded from now on: what happened
 * while it was disabled is in GET /events (and any logged delivery can be sent again).
 */
export async function enableEndpoint(
  trx: Trx,
  workspaceId: string,
  id: string,
  now: string,
): Promise<WebhookEndpointRecord> {
  const row = await endpoints.lock(trx, workspaceId, id);
  if (row === undefined) throw errors.notFound('Webhook endpoint');
  if (row.status !== 'enabled') {
    await endpoints.update(trx, workspaceId, id, {
      status: 'enabled',
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      feed_seq: await currentEventSequence(trx, workspaceId),
      lease_owner: null,
      lease_until: null,
      updated_at: now,
    });
  }
  return getEndpoint(trx, workspaceId, id);
}

/** A new signing secret, answered once; the old one signs too for the next 24 hours. */
export async function rotateSecret(
  trx: Trx,
  workspaceId: string,
  id: string,
  now: string,
): Promise<WebhookEndpointRecord & { secret: string }> {
  const row = await endpoints.lock(trx, workspaceId, id);
  if (row === undefined) throw errors.notFound('Webhook endpoint');
  const secret = newSigningSecret();
  await endpoints.update(trx, workspaceId, id, {
    secret,
    previous_secret: row.secret,
    previous_secret_expires_at: new Date(Date.parse(now) + ROTATION_OVERLAP_MS).toISOString(),
    updated_at: now,
  });
  return { ...(await getEndpoint(trx, workspaceId, id)), secret };
}

/** The workspace of an endpoint named by id alone (the CLI), or 404. */
export async function workspaceOfEndpoint(db: Db, id: string): Promise<string> {
  const workspaceId = await endpointWorkspace(db, id);
  if (workspaceId === undefined) throw errors.notFound('Webhook endpoint');
  return workspaceId;
}
