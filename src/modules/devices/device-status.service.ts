import type { Db, Trx } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import { devices, revokeDeviceTokens, setDeviceStatus } from './devices.repository.js';
import { presentDevice, type DeviceRecord, type DeviceStatus } from './devices.service.js';

/** One device of the workspace (404 for another workspace's, as for an unknown id). */
export async function getDevice(db: Db, workspaceId: string, id: string): Promise<DeviceRecord> {
  const device = await devices.find(db, workspaceId, id);
  if (device === undefined) throw errors.notFound('Device');
  return presentDevice(device);
}

/**
 * Pauses, retires or re-activates a paused device of the workspace: pausing or
 * retiring revokes all its tokens at once, as `vitro device set-status` does.
 * The device is answered whole, as it now is.
 */
export async function changeWorkspaceDeviceStatus(
  trx: Trx,
  workspaceId: string,
  id: string,
  status: DeviceStatus,
  now: string,
): Promise<DeviceRecord> {
  const device = await devices.lock(trx, workspaceId, id);
  if (device === undefined) throw errors.notFound('Device');
  // Retired devices do not count against the plan's allowance: bringing one back
  // would pass it by. Register the device again instead.
  if (device.status === 'retired' && status !== 'retired') {
    throw errors.validation('status: a retired device stays retired; register it again');
  }
  if (device.status !== status) {
    await setDeviceStatus(trx, workspaceId, id, status, now);
    if (status !== 'active') await revokeDeviceTokens(trx, workspaceId, id, now);
  }
  return getDevice(trx, workspaceId, id);
}
