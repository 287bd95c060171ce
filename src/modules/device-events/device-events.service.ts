import type { Static } from 'typebox';
import type { Trx } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import { timeOrTimestamp, toUtc } from '../../kernel/formats.js';
import { newId } from '../../kernel/ids.js';
import { boundedJson, parseJsonObject } from '../../kernel/json.js';
import type { Principal } from '../../kernel/principal.js';
import { requireDevices } from '../devices/index.js';
import {
  findDeviceEventByExternalId,
  insertDeviceEvent,
  type DeviceEventRow,
} from './device-events.repository.js';
import {
  DEVICE_EVENT_TYPES,
  type CreateDeviceEventBody,
  type DeviceEvent,
  type DeviceEventMeta,
} from './device-events.schemas.js';

export type DeviceEventRecord = Static<typeof DeviceEvent>;

export function presentDeviceEvent(row: DeviceEventRow): DeviceEventRecord {
  return {
    id: row.id,
    device_id: row.device_id,
    team_id: row.workspace_id,
    event_type: row.event_type,
    payload: parseJsonObject(row.payload),
    occurred_at: row.occurred_at,
    created_at: row.created_at,
    external_id: row.external_id,
  };
}

const KNOWN_TYPES: ReadonlySet<string> = new Set(DEVICE_EVENT_TYPES);

/**
 * POST /device-events: stores a device's status event. A type outside the list
 * is stored as `other`, the type sent kept in `payload.original_event_type`. An event whose device
 * already sent its `external_id` is not stored again: the stored one is answered
 * with `meta.duplicate`.
 */
export async function recordDeviceEvent(
  trx: Trx,
  principal: Principal,
  body: Static<typeof CreateDeviceEventBody>,
  now: string,
): Promise<{ data: DeviceEventRecord; meta?: Static<typeof DeviceEventMeta> }> {
  const occurredAt = timeOrTimestamp(
    { name: 'occurred_at', value: body.occurred_at },
    body.timestamp,
  );
  await requireDevices(trx, principal, [body.device_id]);
  const known = KNOWN_TYPES.has(body.event_type);
  const payload = body.payload ?? {};
  const row: DeviceEventRow = {
    id: newId(),
    workspace_id: principal.workspaceId,
    device_id: body.device_id,
    event_type: known ? body.event_type : 'other',
    payload: boundedJson(
      'payload',
      known ? payload : { original_event_type: body.event_type, ...payload },
    ),
    occurred_at: occurredAt === undefined ? now : toUtc(occurredAt),
    external_id: body.external_id ?? null,
    created_at: now,
  };
  if (await insertDeviceEvent(trx, row)) return { data: presentDeviceEvent(row) };
  const stored =
    row.external_id === null
      ? undefined
      : await findDeviceEventByExternalId(trx, row.workspace_id, row.device_id, row.external_id);
  if (stored === undefined) throw errors.notFound('Device');
  return { data: presentDeviceEvent(stored), meta: { duplicate: true } };
}
