import type { Routes } from '../../kernel/routes/index.js';
import { CreateDeviceEventBody, DeviceEvent, DeviceEventMeta } from './device-events.schemas.js';
import { recordDeviceEvent } from './device-events.service.js';

export function registerDeviceEventRoutes(routes: Routes): void {
  routes.write({
    method: 'POST',
    url: '/api/v1/device-events',
    operationId: 'createDeviceEvent',
    tags: ['Devices'],
    summary: 'Record a device status event',
    description:
      'An alert, error, firmware update, configuration change, heartbeat or other event of a device ' +
      'of the workspace (404 otherwise). With `external_id`, a repeat for the same device is not ' +
      'stored again: the stored event is answered, 201 with `meta.duplicate: true`. A device token ' +
      'may record events of its own device only.',
    credentials: 'key+device',
    scope: 'write:device_events',
    plan: 'devices',
    failureCode: 'DEVICE_EVENT_CREATE_FAILED',
    errors: ['DEVICE_TOKEN_WRONG_DEVICE', 'NOT_FOUND'],
    body: CreateDeviceEventBody,
    bodyOfAnyType: true,
    data: DeviceEvent,
    meta: DeviceEventMeta,
    handler: (req, ctx) => recordDeviceEvent(ctx.trx, ctx.principal, req.body, ctx.now),
  });
}
