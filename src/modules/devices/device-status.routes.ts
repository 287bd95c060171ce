import Type from 'typebox';
import type { Routes } from '../../kernel/routes/index.js';
import { StringEnum } from '../../kernel/schemas.js';
import { changeWorkspaceDeviceStatus, getDevice } from './device-status.service.js';
import { Device, DEVICE_STATUSES, DeviceParams } from './devices.schemas.js';

const DeviceStatusBody = Type.Object(
  {
    status: StringEnum(DEVICE_STATUSES, {
      description: 'paused or retired revokes every token of the device; retired is final',
    }),
  },
  { additionalProperties: false },
);

/**
 * Changing a device's status is for console sessions of admins and owners only,
 * like the members and keys pages (an API key gets 403 SESSION_REQUIRED).
 */
const ADMIN = { credentials: 'session', scope: null, role: 'admin', plan: 'devices' } as const;

export function registerDeviceStatusRoutes(routes: Routes): void {
  routes.read({
    url: '/api/v1/devices/:deviceId',
    operationId: 'getDevice',
    tags: ['Devices'],
    summary: 'Get a device',
    description:
      'One device of the workspace, as the device list shows it. For keys with `read:devices` and ' +
      'console sessions; a device token is refused (403 DEVICE_TOKEN_NOT_ACCEPTED).',
    scope: 'read:devices',
    plan: 'devices',
    failureCode: 'DEVICE_QUERY_FAILED',
    params: DeviceParams,
    notFound: 'Device',
    data: Device,
    handler: async (req, ctx) => ({
      data: await getDevice(ctx.db, ctx.principal.workspaceId, req.params.deviceId),
    }),
  });

  routes.write({
    ...ADMIN,
    method: 'PATCH',
    url: '/api/v1/devices/:deviceId',
    operationId: 'changeDeviceStatus',
    tags: ['Devices'],
    summary: 'Pause, retire or re-activate a device',
    description:
      'Pausing or retiring revokes every token of the device at once (its readings are then ' +
      'refused); a paused device may be made active again and needs new tokens. A retired ' +
      'device stays retired (422): it no longer counts against the allowance.',
    failureCode: 'DEVICE_UPDATE_FAILED',
    params: DeviceParams,
    notFound: 'Device',
    body: DeviceStatusBody,
    data: Device,
    handler: async (req, ctx) => ({
      data: await changeWorkspaceDeviceStatus(
        ctx.trx,
        ctx.principal.workspaceId,
        req.params.deviceId,
        req.body.status,
        ctx.now,
      ),
    }),
  });
}
