import type { Routes } from '../../kernel/routes/index.js';
import {
  CreateReadingsBody,
  CreateReadingsData,
  CreateReadingsMeta,
  ReadingListMeta,
  ReadingQuery,
  SensorReading,
  SUMMARY_MAX_BUCKETS,
  SummaryData,
  SummaryMeta,
  SummaryQuery,
} from './readings.schemas.js';
import {
  ingestReadings,
  listReadings,
  readingsIn,
  type StoredReadingsHook,
} from './readings.service.js';
import { summarizeReadings } from './summary.service.js';

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
      '(default 100; larger values are capped). Once retention has removed old raw readings, ' +
      '`meta.raw_since` says where they now start.',
    scope: 'read:sensor_readings',
    failureCode: 'READINGS_QUERY_FAILED',
    querystring: ReadingQuery,
    paging: { list: 'sensor-readings', defaultLimit: 100, maxLimit: 1000 },
    item: SensorReading,
    meta: ReadingListMeta,
    handler: (req, ctx) => listReadings(ctx.db, ctx.principal.workspaceId, req.query, ctx.page),
  });

  routes.read({
    url: '/api/v1/sensor-readings/summary',
    operationId: 'summarizeSensorReadings',
    tags: ['Sensor readings'],
    summary: 'Summarize sensor readings',
    description:
      "A device's or a room's readings (`device_id` or `room_id`; both: the device's readings in " +
      'that room) in buckets of `bucket`, aligned to UTC: each bucket has its `start`, `count`, ' +
      '`min`, `max`, `avg` and `last`, oldest first; buckets with no reading are left out. ' +
      'Without `type`, every type is summarised: one series per `type` and `unit`, the buckets of ' +
      'one start ordered by type, then unit, so a chart draws one line (with its min–max band) ' +
      'per series. `since` and `until` are inclusive, as in the readings list; the first and ' +
      'last bucket may cover only part of their span; the range may span at most ' +
      `${SUMMARY_MAX_BUCKETS.toLocaleString('en-US')} buckets. Summaries agree exactly with the readings ` +
      'they cover, late or out of order ones included, repeats counted once. `avg` is the exact ' +
      'mean of the values, each taken as the decimal JSON shows for it (21.3, not its binary ' +
      'approximation), rounded once to the nearest double: it does not depend on the order ' +
      'readings arrived in. `last` is the value of the reading taken latest (greatest ' +
      '`recorded_at`, then greatest `id`, as the list orders them) and `last_at` its time. Where ' +
      'retention removed raw readings (`meta.raw_since`), buckets still hold them; there a bound ' +
      'inside a minute counts that whole minute.',
    scope: 'read:sensor_readings',
    failureCode: 'READINGS_QUERY_FAILED',
    querystring: SummaryQuery,
    data: SummaryData,
    meta: SummaryMeta,
    metaRequired: true,
    handler: (req, ctx) => summarizeReadings(ctx.db, ctx.principal.workspaceId, req.query, ctx.now),
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
    bodyOfAnyType: true,
    readings: readingsIn,
    data: CreateReadingsData,
    meta: CreateReadingsMeta,
    handler: (req, ctx) =>
      ingestReadings(ctx.trx, ctx.principal, req.body, ctx.now, deps.afterStore),
  });
}
