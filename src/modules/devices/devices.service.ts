import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import type { Page, PageRequest } from '../../db/pages.js';
import { errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { boundedJson, parseJsonObject } from '../../kernel/json.js';
import type { Principal } from '../../kernel/principal.js';
import { nowIso } from '../../kernel/time.js';
import { getWorkspace } from '../identity/index.js';
import { requireRoom } from '../lab/index.js';
import { requireDeviceRoom } from './device-allowance.js';
import { requireOwnDevice } from './device-guards.js';
import {
  countDevicesByRoom,
  devices,
  findDeviceById,
  listAllDevices,
  listDevicePage,
  revokeDeviceTokens,
  setDeviceStatus as setDeviceStatusRow,
  touchLastSeen,
  type DeviceRow,
} from './devices.repository.js';
import { DEVICE_STATUSES, type Device, type RegisterDeviceBody } from './devices.schemas.js';

export { DEVICE_STATUSES, DEVICE_TYPES } from './devices.schemas.js';
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];
export type DeviceRecord = Static<typeof Device>;

export function presentDevice(row: DeviceRow): DeviceRecord {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    hardware: row.hardware,
    status: row.status,
    firmware_version: row.firmware_version,
    room_id: row.room_id,
    last_seen_at: row.last_seen_at,
    metadata: parseJsonObject(row.metadata),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The device, or 404 (an id of another workspace is not found either). */
export async function requireDevice(db: Db, workspaceId: string, id: string): Promise<DeviceRow> {
  const device = await devices.find(db, workspaceId, id);
  if (device === undefined) throw errors.notFound('Device');
  return device;
}

/** The room a device of the workspace is in; null when it is in none, or unknown. */
export async function deviceRoom(db: Db, workspaceId: string, id: string): Promise<string | null> {
  return (await devices.find(db, workspaceId, id))?.room_id ?? null;
}

export interface NewDevice {
  workspaceId: string;
  name: string;
  type?: string;
  hardware?: string | null;
  firmwareVersion?: string | null;
  roomId?: string | null;
  metadata?: Record<string, unknown>;
  createdBy: string | null;
  /** The time of the request; default now. */
  at?: string;
}

/**
 * Registers a device inside the caller's transaction: the room must be one of the
 * workspace (404), and the device must fit the allowance (402 DEVICE_LIMIT_REACHED).
 */
export async function registerDevice(trx: Trx, input: NewDevice): Promise<DeviceRow> {
  const metadata = boundedJson('metadata', input.metadata ?? {});
  const roomId = input.roomId ?? null;
  if (roomId !== null) await requireRoom(trx, input.workspaceId, roomId);
  await requireDeviceRoom(trx, input.workspaceId);
  const at = input.at ?? nowIso();
  const row: DeviceRow = {
    id: newId(),
    workspace_id: input.workspaceId,
    name: input.name,
    type: input.type ?? 'sensor',
    hardware: input.hardware ?? null,
    status: 'active',
    firmware_version: input.firmwareVersion ?? null,
    room_id: roomId,
    last_seen_at: null,
    metadata,
    created_by: input.createdBy,
    created_at: at,
    updated_at: at,
  };
  await devices.insert(trx, row);
  return row;
}

/** POST /devices: registers a device as the key's owner. */
export async function createDevice(
  trx: Trx,
  principal: Principal,
  body: Static<typeof RegisterDeviceBody>,
  now: string,
): Promise<DeviceRecord> {
  const row = await registerDevice(trx, {
    workspaceId: principal.workspaceId,
    name: body.name,
    type: body.type ?? 'sensor',
    hardware: body.hardware ?? null,
    firmwareVersion: body.firmware_version ?? null,
    roomId: body.room_id ?? null,
    metadata: body.metadata ?? {},
    createdBy: principal.memberId,
    at: now,
  });
  return presentDevice(row);
}

export async function listDevices(
  db: Db,
  workspaceId: string,
  page: PageRequest,
): Promise<Page<DeviceRecord>> {
  const { items, nextKey } = await listDevicePage(db, workspaceId, page);
  return { items: items.map(presentDevice), nextKey };
}

/** Every device of a workspace, retired ones too, oldest first (`vitro device list`). */
export async function listWorkspaceDevices(db: Db, workspaceId: string): Promise<DeviceRecord[]> {
  await getWorkspace(db, workspaceId);
  return (await listAllDevices(db, workspaceId)).map(presentDevice);
}

/** POST /devices/{deviceId}/heartbeat: stamps `last_seen_at` with the time of receipt. */
export async function sendHeartbeat(
  trx: Trx,
  principal: Principal,
  deviceId: string,
  now: string,
): Promise<{ received_at: string; device_id: string; last_seen_at: string }> {
  requireOwnDevice(principal, deviceId);
  const device = await requireDevice(trx, principal.workspaceId, deviceId);
  await touchLastSeen(trx, principal.workspaceId, deviceId, now, now);
  const seen = device.last_seen_at;
  return {
    received_at: now,
    device_id: deviceId,
    last_seen_at: seen !== null && seen > now ? seen : now,
  };
}

/** Pauses, retires or re-activates a device; pausing or retiring revokes all its tokens. */
export async function changeDeviceStatus(
  trx: Trx,
  deviceId: string,
  status: string,
): Promise<{ id: string; status: DeviceStatus; revoked_tokens: number }> {
  if (!(DEVICE_STATUSES as readonly string[]).includes(status)) {
    throw errors.validation('status: must be active, paused or retired');
  }
  const device = await findDeviceById(trx, deviceId);
  if (device === undefined) throw errors.notFound('Device');
  const at = nowIso();
  await setDeviceStatusRow(trx, device.workspace_id, device.id, status, at);
  const revoked =
    status === 'active' ? 0 : await revokeDeviceTokens(trx, device.workspace_id, device.id, at);
  return { id: device.id, status: status as DeviceStatus, revoked_tokens: revoked };
}

/** Devices per room (retired ones left out), for the rooms' summaries. */
export function deviceCountsByRoom(
  db: Db,
  workspaceId: string,
  roomIds: readonly string[],
): Promise<Map<string, number>> {
  return countDevicesByRoom(db, workspaceId, roomIds);
}
