import Type from 'typebox';
import type { Routes } from '../../src/kernel/routes/index.js';

/**
 * Routes that exist only in tests, to exercise the kernel before the real
 * device and sensor endpoints exist.
 */
export function kernelTestRoutes(routes: Routes): void {
  routes.write({
    method: 'POST',
    url: '/api/v1/test/device-ping',
    operationId: 'testDevicePing',
    tags: ['Devices'],
    summary: 'device-plan write that device tokens may call',
    credentials: 'key+device',
    scope: 'write:device_events',
    plan: 'devices',
    failureCode: 'DEVICE_EVENT_CREATE_FAILED',
    body: Type.Object({ n: Type.Optional(Type.Integer()) }, { additionalProperties: false }),
    bodyOptional: true,
    data: Type.Object({ kind: Type.String() }),
    handler: async (_req, ctx) => ({ data: { kind: ctx.principal.kind } }),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/test/readings',
    operationId: 'testReadings',
    tags: ['Sensor readings'],
    summary: 'counts readings like POST /sensor-readings',
    credentials: 'key+device',
    scope: 'write:sensor_readings',
    plan: 'devices',
    failureCode: 'READINGS_CREATE_FAILED',
    body: Type.Object(
      { count: Type.Integer({ minimum: 1, maximum: 500 }) },
      { additionalProperties: false },
    ),
    readings: (body) => body.count,
    data: Type.Object({ accepted: Type.Integer() }),
    handler: async (req) => ({ data: { accepted: req.body.count } }),
  });

  routes.read({
    url: '/api/v1/test/priced',
    operationId: 'testPriced',
    tags: ['Pricing'],
    summary: 'needs the pricing feature',
    scope: 'read:pricing',
    feature: 'pricing',
    failureCode: 'CULTURE_LINE_PRICE_QUERY_FAILED',
    data: Type.Object({ ok: Type.Boolean() }),
    handler: async () => ({ data: { ok: true } }),
  });
}
