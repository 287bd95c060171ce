import type { Routes } from '../../kernel/routes/index.js';
import {
  CreateReadingsBody,
  CreateReadingsData,
  CreateReadingsMeta,
  ReadingQuery,
  SensorReading,
} from './readings.schemas.js';
import {
  ingestReadings,
  listReadings,
  readingsIn,
  type StoredReadingsHook,
} from './readings.service.js';

export function registerReadingRoutes(
  routes: Routes,
  deps: { afterStore: StoredReadingsHook | null } = { afterStore: null },
): void {
  routes.list({
    url: '/api/v1/sensor-readings',
    operationId: 'listSensorReadings',
    tags: ['Sensor readings'],
    summary: 'List sensor readings',
    description:
      'Newest first by `recorded_at`; readings taken at the same moment keep a fixed order, so none ' +
      'is skipped or repeated across pages. `since` and `until` are inclusive. Page size 1 to 1000 ' +
      '(default 100; larger values are capped).',
    scope: 'read:sensor_readings',
    failureCode: 'READINGS_QUERY_FAILED',
    querystring: ReadingQuery,
    paging: { list: 'sensor-readings', defaultLimit: 100, maxLimit: 1000 },
    item: SensorReading,
    handler: (req, ctx) => listReadings(ctx.db, ctx.principal.workspaceId, req.query, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/sensor-readings',
    operationId: 'createSensorReadings',
    tags: ['Sensor readings'],
    summary: 'Submit sensor readings',
    description:
      'One reading, or `{readings: [...]}` with 1 to 500; the response has the same shape. All or ' +
      'nothing: every device must be an active device of the workspace (a device token: its own), ' +
      'every room a room of the workspace. `recorded_at` is required with `external_id`; a reading ' +
      'with the device, external_id and recorded_at of a stored one is a repeat and is stored once ' +
      '(a batch leaves it out of its answer; a single reading answers the stored one with ' +
      '`meta.duplicate`). Readings count against the readings budgets (5,000 per key or token and ' +
      '10,000 per workspace per 5 minutes); a refused request spends nothing.',
    credentials: 'key+device',
    scope: 'write:sensor_readings',
    plan: 'devices',
    failureCode: 'READINGS_CREATE_FAILED',
    errors: ['DEVICE_TOKEN_WRONG_DEVICE', 'NOT_FOUND', 'DEVICE_INGEST_DISABLED'],
    body: CreateReadingsBody,
    readings: readingsIn,
    data: CreateReadingsData,
    meta: CreateReadingsMeta,
    handler: (req, ctx) =>
      ingestReadings(ctx.trx, ctx.principal, req.body, ctx.now, deps.afterStore),
  });
}
