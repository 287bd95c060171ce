import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import type { Page, PageRequest } from '../../db/pages.js';
import { generateCredential, type Environment } from '../../kernel/credentials.js';
import { errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { nowIso } from '../../kernel/time.js';
import {
  findDeviceToken,
  insertDeviceToken,
  listDeviceTokenPage,
  revokeDeviceToken,
  type ListedDeviceToken,
} from './devices.repository.js';
import type { DeviceToken, DeviceTokenCreated } from './devices.schemas.js';
import { requireDevice } from './devices.service.js';

export type DeviceTokenRecord = Static<typeof DeviceToken>;

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
