import type { Trx } from '../../db/database.js';
import { AppError, errors } from '../../kernel/errors.js';
import type { Principal } from '../../kernel/principal.js';
import {
  findDevicesIn,
  lockDevicesIn,
  touchLastSeen,
  type DeviceRow,
} from './devices.repository.js';

/*
 * What a device-scoped write (heartbeats, device events, readings) checks of the
 * devices it names, and the stamp an accepted reading leaves on its device.
 */

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
