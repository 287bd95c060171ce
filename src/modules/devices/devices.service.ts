import type { Db, Trx } from '../../db/database.js';
import { generateCredential, type Environment } from '../../kernel/credentials.js';
import { errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { nowIso } from '../../kernel/time.js';
import {
  findDeviceById,
  findDeviceTokenForAuth as findDeviceTokenRow,
  touchDeviceToken,
  insertDevice,
  insertDeviceToken,
  revokeDeviceTokens,
  setDeviceStatus as setDeviceStatusRow,
  type DeviceRow,
} from './devices.repository.js';

export const DEVICE_TYPES = ['sensor', 'controller', 'gateway'] as const;
export const DEVICE_STATUSES = ['active', 'paused', 'retired'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

export interface NewDevice {
  workspaceId: string;
  name: string;
  type?: string;
  hardware?: string | null;
  firmwareVersion?: string | null;
  roomId?: string | null;
  metadata?: Record<string, unknown>;
  createdBy: string | null;
}

export async function registerDevice(trx: Trx, input: NewDevice): Promise<DeviceRow> {
  const at = nowIso();
  const row: DeviceRow = {
    id: newId(),
    workspace_id: input.workspaceId,
    name: input.name,
    type: input.type ?? 'sensor',
    hardware: input.hardware ?? null,
    status: 'active',
    firmware_version: input.firmwareVersion ?? null,
    room_id: input.roomId ?? null,
    last_seen_at: null,
    metadata: JSON.stringify(input.metadata ?? {}),
    created_by: input.createdBy,
    created_at: at,
    updated_at: at,
  };
  await insertDevice(trx, row);
  return row;
}

export interface MintedDeviceToken {
  id: string;
  deviceId: string;
  name: string | null;
  prefix: string;
  token: string;
  createdAt: string;
}

/** A new device token; the secret is in the result only (only its SHA-256 is kept). */
export async function mintDeviceToken(
  trx: Trx,
  input: { workspaceId: string; deviceId: string; name?: string | null; environment?: Environment },
): Promise<MintedDeviceToken> {
  const credential = generateCredential('device', input.environment ?? 'production');
  const row = {
    id: newId(),
    workspace_id: input.workspaceId,
    device_id: input.deviceId,
    name: input.name ?? null,
    prefix: credential.displayPrefix,
    token_hash: credential.hash,
    environment: input.environment ?? 'production',
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

/** A device token by its SHA-256, with its device and workspace: what authentication needs. */
export function findDeviceTokenForAuth(db: Db, tokenHash: string) {
  return findDeviceTokenRow(db, tokenHash);
}

/** Stamps a token's last use (kept to the minute by the caller). */
export function recordDeviceTokenUse(db: Db, tokenId: string, at: string): Promise<void> {
  return touchDeviceToken(db, tokenId, at);
}
