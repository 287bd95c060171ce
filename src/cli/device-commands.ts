import type { Command } from 'commander';
import {
  changeDeviceStatus,
  DEVICE_STATUSES,
  listWorkspaceDevices,
} from '../modules/devices/index.js';
import type { CommandKit } from './command-kit.js';

/** `vitro device …` (docs/cli.md): loaded only when a command names the group. */
export function registerDeviceCommands(
  device: Command,
  { action, read, required }: CommandKit,
): void {
  read(
    device
      .command('list')
      .description("List a workspace's devices, retired ones too, oldest first -> {devices: [...]}")
      .addOption(required('--workspace <id>', 'workspace id')),
    async (o: { workspace: string }, { db }) => ({
      devices: await listWorkspaceDevices(db, o.workspace),
    }),
  );
  action(
    device
      .command('set-status')
      .description(
        'Set a device status; paused or retired revokes its tokens -> {id, status, revoked_tokens}',
      )
      .addOption(required('--device <id>', 'device id'))
      .addOption(required('--status <status>', 'new status').choices(DEVICE_STATUSES)),
    async (o: { device: string; status: string }, trx) =>
      changeDeviceStatus(trx, o.device, o.status),
  );
}
