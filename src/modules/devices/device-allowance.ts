import type { Trx } from '../../db/database.js';
import { defaultDeviceAllowance, isPlan } from '../../kernel/access.js';
import { AppError } from '../../kernel/errors.js';
import { countDevicesInUse, lockDeviceAllowance } from './devices.repository.js';

/**
 * Checks, holding the workspace until the transaction ends, that one more device
 * fits the allowance: the workspace's own, else its plan's (resources.md decision
 * 7); retired devices do not count. A check that cannot be made answers 503.
 */
export async function requireDeviceRoom(trx: Trx, workspaceId: string): Promise<void> {
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
