import type { Routes } from '../../kernel/routes/index.js';
import {
  Device,
  DeviceParams,
  DeviceToken,
  DeviceTokenCreated,
  DeviceTokenParams,
  Heartbeat,
  HeartbeatBody,
  MintTokenBody,
  RegisterDeviceBody,
} from './devices.schemas.js';
import { createDeviceToken, listDeviceTokens, revokeToken } from './device-tokens.service.js';
import { createDevice, listDevices, sendHeartbeat } from './devices.service.js';

/** Device and token lists default to a page of 200 (resources.md decision 16). */
const DEVICE_PAGE = { defaultLimit: 200, maxLimit: 200 };

export function registerDeviceRoutes(routes: Routes): void {
  routes.list({
    url: '/api/v1/devices',
    operationId: 'listDevices',
    tags: ['Devices'],
    summary: 'List devices',
    description: 'Every device of the workspace, retired ones too, newest first.',
    scope: 'read:devices',
    plan: 'devices',
    failureCode: 'DEVICE_QUERY_FAILED',
    paging: { list: 'devices', ...DEVICE_PAGE, csv: true },
    item: Device,
    handler: (_req, ctx) => listDevices(ctx.db, ctx.principal.workspaceId, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/devices',
    operationId: 'createDevice',
    tags: ['Devices'],
    summary: 'Register a device',
    description:
      "Registers a sensor, controller or gateway. The plan's device allowance (Hobby 3, Pro Lab 10, " +
      'Teams 100, Enterprise unlimited, or the workspace’s own) counts every device but retired ' +
      'ones; beyond it: 402 DEVICE_LIMIT_REACHED, nothing registered. `room_id` must be a room of ' +
      'the workspace (404).',
    scope: 'write:devices',
    plan: 'devices',
    failureCode: 'DEVICE_CREATE_FAILED',
    errors: ['DEVICE_LIMIT_REACHED', 'NOT_FOUND', 'DEVICE_LIMIT_UNAVAILABLE'],
    body: RegisterDeviceBody,
    data: Device,
    handler: async (req, ctx) => ({
      data: await createDevice(ctx.trx, ctx.principal, req.body, ctx.now),
    }),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/devices/:deviceId/heartbeat',
    operationId: 'sendHeartbeat',
    tags: ['Devices'],
    summary: 'Send a heartbeat',
    description:
      "Stamps the device's `last_seen_at` with the time of receipt. The body is ignored: none, `{}` " +
      'or any JSON object. A device token may send it for its own device only.',
    credentials: 'key+device',
    scope: 'write:devices',
    plan: 'devices',
    status: 200,
    failureCode: 'DEVICE_UPDATE_FAILED',
    errors: ['DEVICE_TOKEN_WRONG_DEVICE'],
    params: DeviceParams,
    notFound: 'Device',
    body: HeartbeatBody,
    bodyOptional: true,
    bodyOfAnyType: true,
    data: Heartbeat,
    handler: async (req, ctx) => ({
      data: await sendHeartbeat(ctx.trx, ctx.principal, req.params.deviceId, ctx.now),
    }),
  });

  routes.list({
    url: '/api/v1/devices/:deviceId/tokens',
    operationId: 'listDeviceTokens',
    tags: ['Devices'],
    summary: 'List device tokens',
    description: "The device's tokens, active and revoked, newest first. Secrets are never shown.",
    scope: 'read:devices',
    plan: 'devices',
    failureCode: 'DEVICE_TOKEN_QUERY_FAILED',
    params: DeviceParams,
    notFound: 'Device',
    paging: { list: 'device-tokens', ...DEVICE_PAGE },
    item: DeviceToken,
    handler: (req, ctx) =>
      listDeviceTokens(ctx.db, ctx.principal.workspaceId, req.params.deviceId, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/devices/:deviceId/tokens',
    operationId: 'createDeviceToken',
    tags: ['Devices'],
    summary: 'Create a device token',
    description:
      'Mints a token for an active device: `xpd_live_…` (production, the default) or `xpd_dev_…`. ' +
      'The token is in this response only and is stored as a hash; a retry, even with the same ' +
      'Idempotency-Key, mints another token. The body is optional.',
    scope: 'write:devices',
    plan: 'devices',
    failureCode: 'DEVICE_TOKEN_CREATE_FAILED',
    params: DeviceParams,
    notFound: 'Device',
    body: MintTokenBody,
    bodyOptional: true,
    idempotency: 'ignore',
    data: DeviceTokenCreated,
    handler: async (req, ctx) => ({
      data: await createDeviceToken(
        ctx.trx,
        ctx.principal.workspaceId,
        req.params.deviceId,
        req.body,
      ),
    }),
  });

  routes.write({
    method: 'DELETE',
    url: '/api/v1/devices/:deviceId/tokens/:tokenId',
    operationId: 'revokeDeviceToken',
    tags: ['Devices'],
    summary: 'Revoke a device token',
    description:
      'The token answers 401 from the next request on and stays listed as revoked. Revoking it ' +
      'again answers the same record with the first `revokedAt`. Takes no body; one sent anyway ' +
      'is ignored, also by Idempotency-Key matching.',
    scope: 'write:devices',
    plan: 'devices',
    failureCode: 'DEVICE_TOKEN_REVOKE_FAILED',
    params: DeviceTokenParams,
    notFound: 'Device token',
    data: DeviceToken,
    handler: async (req, ctx) => ({
      data: await revokeToken(
        ctx.trx,
        ctx.principal.workspaceId,
        req.params.deviceId,
        req.params.tokenId,
        ctx.now,
      ),
    }),
  });
}
