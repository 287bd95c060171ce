// The baseline's GET /api/v1/sensor-readings/summary for one device: the same queries as
// Vitro's summary (rollups.repository.ts) and the same arithmetic (Vitro's own pure functions
// from dist/: the range plan, exact sums, figure merging, the plausible ranges), without
// validation or the kernel.
import { decimalOfValue, meanOf } from '../dist/lib/exact-sum.js';
import { outOfRange } from '../dist/modules/readings/plausible.js';
import { figuresOf, mergeFigures, MINUTE_MS } from '../dist/modules/readings/rollups.js';
import { bucketOf, planSummary } from '../dist/modules/readings/summary.js';

export const BUCKET_MINUTES = { '1m': 1, '5m': 5, '15m': 15, '1h': 60, '6h': 360, '1d': 1440 };

/** Written with `?` placeholders; the PostgreSQL store numbers them. */
export const SUMMARY_SQL = {
  // SQLite hands back the rollup rows; the caller buckets and merges them.
  rollupRows:
    'select "type", "unit", "minute", "reading_count", "min_value", "max_value", "value_sum", ' +
    '"last_at", "last_id", "last_value" from "sensor_rollups" where "workspace_id" = ? and ' +
    '"device_id" = ? and "span_minutes" = ? and "minute" >= ? and "minute" < ?',
  // PostgreSQL groups them (exact numeric sums).
  rollupGroups:
    'select "type", "unit", minute - ((minute % ?) + ?) % ? as "bucket", ' +
    'sum(reading_count)::int8 as "reading_count", min(min_value) as "min_value", ' +
    'max(max_value) as "max_value", sum(value_sum) as "value_sum", max(last_at) as "last_at", ' +
    '(array_agg(last_id order by last_at desc, last_id desc))[1] as "last_id", ' +
    '(array_agg(last_value order by last_at desc, last_id desc))[1] as "last_value" ' +
    'from "sensor_rollups" where "workspace_id" = ? and "device_id" = ? and "span_minutes" = ? ' +
    'and "minute" >= ? and "minute" < ? group by "type", "unit", 3',
  rawReadings:
    'select "type", "unit", "value", "recorded_at", "id" from "sensor_readings" where ' +
    '"workspace_id" = ? and "device_id" = ? and "recorded_at" >= ? and "recorded_at" < ?',
};

const compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `store.rawSince(workspaceId)`, `store.rollups(workspaceId, deviceId, span, from, to, bucket)`
 * (rows with `bucket`), `store.rawReadings(workspaceId, deviceId, fromIso, toIso)`.
 */
export async function summarize(store, workspaceId, query) {
  const bucketMinutes = BUCKET_MINUTES[query.bucket];
  const since = new Date(query.since).toISOString();
  const until = new Date(query.until).toISOString();
  const rawSince = await store.rawSince(workspaceId);
  const plan = planSummary(
    Date.parse(since),
    Date.parse(until),
    bucketMinutes,
    rawSince === null ? null : Date.parse(rawSince),
  );
  const series = new Map();
  const add = (type, unit, bucket, figures) => {
    const key = `${type}\u0000${unit}\u0000${bucket}`;
    const found = series.get(key);
    if (found === undefined) series.set(key, { type, unit, bucket, figures });
    else mergeFigures(found.figures, figures);
  };
  for (const range of plan.rollups) {
    const rows = await store.rollups(
      workspaceId,
      query.device_id,
      range.span,
      range.from,
      range.to,
      bucketMinutes,
    );
    for (const row of rows) add(row.type, row.unit, row.bucket, figuresOf(row));
  }
  for (const range of plan.raw) {
    const rows = await store.rawReadings(
      workspaceId,
      query.device_id,
      new Date(range.from).toISOString(),
      new Date(range.to).toISOString(),
    );
    for (const row of rows) {
      const at = Date.parse(row.recorded_at);
      add(row.type, row.unit, bucketOf(at, bucketMinutes), {
        count: 1,
        min: row.value,
        max: row.value,
        sum: decimalOfValue(row.value),
        lastAt: at,
        lastId: row.id,
        lastValue: row.value,
      });
    }
  }
  const data = [...series.values()]
    .sort((a, b) => a.bucket - b.bucket || compare(a.type, b.type) || compare(a.unit, b.unit))
    .map((s) => ({
      start: new Date(s.bucket * MINUTE_MS).toISOString(),
      type: s.type,
      unit: s.unit,
      count: s.figures.count,
      min: s.figures.min,
      max: s.figures.max,
      avg: meanOf(s.figures.sum, s.figures.count),
      last: s.figures.lastValue,
      last_at: new Date(s.figures.lastAt).toISOString(),
      out_of_range: outOfRange(s.type, s.unit, s.figures.min, s.figures.max),
    }));
  return { data, meta: { since, until, raw_since: rawSince } };
}

/** SQLite's rollup rows, each with the start of its bucket (as Vitro's repository adds it). */
export const withBucket = (rows, b) =>
  rows.map(({ minute, ...row }) => ({ ...row, bucket: minute - (((minute % b) + b) % b) }));
