import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { defaultDeviceAllowance, isPlan } from '../../kernel/access.js';
import { generateCredential, type Environment } from '../../kernel/credentials.js';
import { AppError, errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { parseJsonObject } from '../../kernel/json.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import { nowIso } from '../../kernel/time.js';
import { getWorkspace } from '../identity/identity.service.js';
import { requireRoom } from '../lab/lab.service.js';
import {
  countDevicesInUse,
  devices,
  findDeviceById,
  findDevicesIn,
  lockDevicesIn,
  findDeviceToken,
  findDeviceTokenForAuth as findDeviceTokenRow,
  insertDeviceToken,
  listAllDevices,
  listDevicePage,
  listDeviceTokenPage,
  lockDeviceAllowance,
  revokeDeviceToken,
  revokeDeviceTokens,
  setDeviceStatus as setDeviceStatusRow,
  touchDeviceToken,
  touchLastSeen,
  type DeviceRow,
  type ListedDeviceToken,
} from './devices.repository.js';
import {
  DEVICE_STATUSES,
  type Device,
  type DeviceToken,
  type DeviceTokenCreated,
  type RegisterDeviceBody,
} from './devices.schemas.js';

export { DEVICE_STATUSES, DEVICE_TYPES } from './devices.schemas.js';
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];
export type DeviceRecord = Static<typeof Device>;
export type DeviceTokenRecord = Static<typeof DeviceToken>;

/** The most JSON `metadata` (and a device event's `payload`) may hold, as UTF-8 bytes. */
export const JSON_OBJECT_MAX_BYTES = 10_000;

/** Refuses a free-form JSON object larger than JSON_OBJECT_MAX_BYTES; returns its text. */
export function boundedJson(field: string, value: Record<string, unknown>): string {
  const text = JSON.stringify(value);
  if (Buffer.byteLength(text, 'utf8') > JSON_OBJECT_MAX_BYTES) {
    throw errors.validation(`${field}: must be at most ${JSON_OBJECT_MAX_BYTES} bytes of JSON`);
  }
  return text;
}

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

/**
 * A device token may act for its own device only (403 DEVICE_TOKEN_WRONG_DEVICE),
 * whether or not the device it names exists: a token learns nothing of others.
 */
export function requireOwnDevice(principal: Principal, deviceId: string): void {
  if (principal.kind === 'device' && principal.deviceId !== deviceId) {
    throw new AppError(
      'DEVICE_TOKEN_WRONG_DEVICE',
      'This device token belongs to another device; a token may act for its own device only',
    );
  }
}

async function requireDevice(db: Db, workspaceId: string, id: string): Promise<DeviceRow> {
  const device = await devices.find(db, workspaceId, id);
  if (device === undefined) throw errors.notFound('Device');
  return device;
}

/**
 * Checks, holding the workspace until the transaction ends, that one more device
 * fits the allowance: the workspace's own, else its plan's (resources.md decision
 * 7); retired devices do not count. A check that cannot be made answers 503.
 */
async function requireDeviceRoom(trx: Trx, workspaceId: string): Promise<void> {
  let allowance: number | null;
  let inUse: number;
  try {
    const workspace = await lockDeviceAllowance(trx, workspaceId);
    if (workspace === undefined || !isPlan(workspace.plan)) throw new Error('workspace unreadable');
    allowance = workspace.device_allowance ?? defaultDeviceAllowance(workspace.plan);
    inUse = allowance === null ? 0 : await countDevicesInUse(trx, workspaceId);
  } catch (error) {
    const failure = new AppError(
      'DEVICE_LIMIT_UNAVAILABLE',
      'The device allowance could not be checked just now; nothing was registered; retry shortly',
      { 'retry-after': '1' },
    );
    // The log shows why (the kernel logs every 5xx with its error).
    Object.assign(failure, { cause: error });
    throw failure;
  }
  if (allowance !== null && inUse >= allowance) {
    throw new AppError(
      'DEVICE_LIMIT_REACHED',
      `This workspace may have ${allowance} device${allowance === 1 ? '' : 's'} in use and has ${inUse}; ` +
        'retire one (vitro device set-status) or raise the allowance',
    );
  }
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

export interface MintedDeviceToken {
  id: string;
  deviceId: string;
  name: string | null;
  prefix: string;
  token: string;
  createdAt: string;
  environment: Environment;
}

/** A new device token; the secret is in the result only (only its SHA-256 is kept). */
export async function mintDeviceToken(
  trx: Trx,
  input: { workspaceId: string; deviceId: string; name?: string | null; environment?: Environment },
): Promise<MintedDeviceToken> {
  const environment = input.environment ?? 'production';
  const credential = generateCredential('device', environment);
  const row = {
    id: newId(),
    workspace_id: input.workspaceId,
    device_id: input.deviceId,
    name: input.name ?? null,
    prefix: credential.displayPrefix,
    token_hash: credential.hash,
    environment,
    created_at: nowIso(),
    last_used_at: null,
    revoked_at: null,
  };
  await insertDeviceToken(trx, row);
  return {
    id: row.id,
    deviceId: row.device_id,
    name: row.name,
    prefix: row.prefix,
    token: credential.secret,
    createdAt: row.created_at,
    environment,
  };
}

/**
 * POST /devices/{deviceId}/tokens: a token for an active device of the workspace.
 * A paused or retired device would refuse it (401), so none is minted for one.
 */
export async function createDeviceToken(
  trx: Trx,
  workspaceId: string,
  deviceId: string,
  body: { name?: string; environment?: Environment },
): Promise<Static<typeof DeviceTokenCreated>> {
  const device = await requireDevice(trx, workspaceId, deviceId);
  if (device.status !== 'active') {
    throw errors.validation(
      `deviceId: the device is ${device.status}; re-activate it (vitro device set-status) before minting a token`,
    );
  }
  return mintDeviceToken(trx, {
    workspaceId,
    deviceId,
    name: body.name ?? null,
    environment: body.environment ?? 'production',
  });
}

export function presentDeviceToken(row: ListedDeviceToken): DeviceTokenRecord {
  return {
    id: row.id,
    deviceId: row.device_id,
    name: row.name,
    prefix: row.prefix,
    status: row.revoked_at === null ? 'active' : 'revoked',
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    createdAt: row.created_at,
    environment: row.environment,
  };
}

/** A device's tokens, active and revoked, newest first; never a secret. */
export async function listDeviceTokens(
  db: Db,
  workspaceId: string,
  deviceId: string,
  page: PageRequest,
): Promise<Page<DeviceTokenRecord>> {
  await requireDevice(db, workspaceId, deviceId);
  const { items, nextKey } = await listDeviceTokenPage(db, workspaceId, deviceId, page);
  return { items: items.map(presentDeviceToken), nextKey };
}

/**
 * DELETE /devices/{deviceId}/tokens/{tokenId}: the token answers 401 from the next
 * request on. Revoking it again changes nothing and answers the same record, with
 * the first `revokedAt`.
 */
export async function revokeToken(
  trx: Trx,
  workspaceId: string,
  deviceId: string,
  tokenId: string,
  now: string,
): Promise<DeviceTokenRecord> {
  const token = await findDeviceToken(trx, workspaceId, deviceId, tokenId);
  if (token === undefined) throw errors.notFound('Device token');
  if (token.revoked_at !== null) return presentDeviceToken(token);
  await revokeDeviceToken(trx, workspaceId, tokenId, now);
  const revoked = await findDeviceToken(trx, workspaceId, deviceId, tokenId);
  return presentDeviceToken(revoked ?? { ...token, revoked_at: now });
}

/** POST /devices/{deviceId}/heartbeat: stamps `last_seen_at` with the time of receipt. */
export async function sendHeartbeat(
  trx: Trx,
  principal: Principal,
  deviceId: string,
  now: string,
): Promise<{ received_at: string }> {
  requireOwnDevice(principal, deviceId);
  await requireDevice(trx, principal.workspaceId, deviceId);
  await touchLastSeen(trx, principal.workspaceId, deviceId, now, now);
  return { received_at: now };
}

/** What a device-scoped write needs to know of the devices it names. */
export type IngestDevice = Pick<DeviceRow, 'id' | 'status' | 'room_id'>;

/**
 * The devices a write names, checked: a device token only for its own (403), every
 * one in the workspace (404, as for an id that exists nowhere). With `holdStatus`
 * (a write refused for a paused or retired device), their rows stay locked until
 * the transaction ends, so the status read is still theirs when it commits.
 */
export async function requireDevices(
  trx: Trx,
  principal: Principal,
  ids: readonly string[],
  options: { holdStatus?: boolean } = {},
): Promise<Map<string, IngestDevice>> {
  for (const id of ids) requireOwnDevice(principal, id);
  const found = await (options.holdStatus === true ? lockDevicesIn : findDevicesIn)(
    trx,
    principal.workspaceId,
    ids,
  );
  if (found.length !== ids.length) throw errors.notFound('Device');
  return new Map(found.map((device) => [device.id, device]));
}

/** How stale `last_seen_at` may get before an accepted reading stamps it again. */
const LAST_SEEN_INTERVAL_MS = 1000;

/** Marks a device seen now, at most once a second (accepted readings). */
export async function markDeviceSeen(
  trx: Trx,
  workspaceId: string,
  deviceId: string,
  now: string,
): Promise<void> {
  const before = new Date(Date.parse(now) - LAST_SEEN_INTERVAL_MS).toISOString();
  await touchLastSeen(trx, workspaceId, deviceId, now, before);
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

/** A device token by its SHA-256, with its device and workspace: what authentication needs. */
export function findDeviceTokenForAuth(db: Db, tokenHash: string) {
  return findDeviceTokenRow(db, tokenHash);
}

/** Stamps a token's last use (kept to the minute by the caller). */
export function recordDeviceTokenUse(db: Db, tokenId: string, at: string): Promise<void> {
  return touchDeviceToken(db, tokenId, at);
}
