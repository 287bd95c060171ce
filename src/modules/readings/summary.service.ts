import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import { decimalOfValue, meanOf } from '../../lib/exact-sum.js';
import { isoTime } from '../../lib/iso-time.js';
import { errors } from '../../kernel/errors.js';
import { toUtc } from '../../kernel/formats.js';
import { boundOf } from './readings.service.js';
import {
  READING_TYPES,
  SUMMARY_BUCKETS,
  SUMMARY_MAX_BUCKETS,
  type SummaryBucket,
  type SummaryData,
  type SummaryMeta,
  type SummaryQuery,
} from './readings.schemas.js';
import { findRawSince } from './retention.repository.js';
import { visitRawReadings, visitRollupFigures, type RollupFilter } from './rollups.repository.js';
import { mergeFigures, MINUTE_MS, type Figures } from './rollups.js';
import { outOfRange } from './plausible.js';
import { bucketOf, planSummary } from './summary.js';

type SummaryBucketRecord = Static<typeof SummaryBucket>;

interface Series {
  type: string;
  unit: string;
  bucket: number;
  figures: Figures;
}

/**
 * GET /sensor-readings/summary: a device's or a room's readings in buckets, oldest
 * first, one series per type and unit (buckets of one start ordered by type, then
 * unit); empty buckets are left out. Whole minutes, five minutes and hours are
 * read from the rollups, the parts of minutes since/until cut from the raw readings.
 */
export async function summarizeReadings(
  db: Db,
  workspaceId: string,
  query: Static<typeof SummaryQuery>,
  now: string,
): Promise<{ data: Static<typeof SummaryData>; meta: Static<typeof SummaryMeta> }> {
  if (query.device_id === undefined && query.room_id === undefined) {
    throw errors.validation(
      'device_id: send device_id or room_id (a summary is of a device or a room)',
    );
  }
  const bucketMinutes = SUMMARY_BUCKETS[query.bucket];
  const until = boundOf(query.until === undefined ? now : toUtc(query.until));
  const untilMs = Date.parse(until);
  const since =
    query.since === undefined
      ? boundOf(
          new Date(
            (bucketOf(untilMs, bucketMinutes) - (SUMMARY_MAX_BUCKETS - 1) * bucketMinutes) *
              MINUTE_MS,
          ).toISOString(),
        )
      : boundOf(toUtc(query.since));
  const sinceMs = Date.parse(since);
  if (until < since) throw errors.validation('until: must not be earlier than since');
  const spanned =
    (bucketOf(untilMs, bucketMinutes) - bucketOf(sinceMs, bucketMinutes)) / bucketMinutes + 1;
  if (spanned > SUMMARY_MAX_BUCKETS) {
    throw errors.validation(
      `since: the range spans ${spanned} buckets of ${query.bucket}; at most ${SUMMARY_MAX_BUCKETS} ` +
        '(ask for larger buckets or a shorter range)',
    );
  }

  const filter: RollupFilter = {
    ...(query.device_id === undefined ? {} : { deviceId: query.device_id }),
    ...(query.room_id === undefined ? {} : { roomId: query.room_id }),
    ...(query.type === undefined ? {} : { type: query.type }),
  };
  const rawSince = await findRawSince(db, workspaceId);
  const plan = planSummary(
    sinceMs,
    untilMs,
    bucketMinutes,
    rawSince === null ? null : Date.parse(rawSince),
  );

  const series = new Map<string, Series>();
  const add = (type: string, unit: string, bucket: number, figures: Figures) => {
    const key = `${type}\u0000${unit}\u0000${bucket}`;
    const found = series.get(key);
    if (found === undefined) series.set(key, { type, unit, bucket, figures });
    else mergeFigures(found.figures, figures);
  };
  for (const range of plan.rollups) {
    await visitRollupFigures(db, workspaceId, filter, { ...range, bucketMinutes }, add);
  }
  for (const range of plan.raw) {
    await visitRawReadings(
      db,
      workspaceId,
      filter,
      new Date(range.from).toISOString(),
      new Date(range.to).toISOString(),
      (type, unit, value, recordedAt, id) => {
        const at = Date.parse(recordedAt);
        add(type, unit, bucketOf(at, bucketMinutes), {
          count: 1,
          min: value,
          max: value,
          sum: decimalOfValue(value),
          lastAt: at,
          lastId: id,
          lastValue: value,
        });
      },
    );
  }

  const ordered = [...series.values()].sort(
    (a, b) => a.bucket - b.bucket || compare(a.type, b.type) || compare(a.unit, b.unit),
  );
  const limit = SUMMARY_MAX_BUCKETS * READING_TYPES.length;
  if (ordered.length > limit) {
    throw errors.validation(
      `type: the range holds more than ${limit} buckets (several units of one type); ask for one type`,
    );
  }
  return {
    data: ordered.map(presentBucket),
    meta: { since, until, raw_since: rawSince },
  };
}

function presentBucket(s: Series): SummaryBucketRecord {
  return {
    start: isoTime(s.bucket * MINUTE_MS),
    type: s.type,
    unit: s.unit,
    count: s.figures.count,
    min: s.figures.min,
    max: s.figures.max,
    avg: meanOf(s.figures.sum, s.figures.count),
    last: s.figures.lastValue,
    last_at: isoTime(s.figures.lastAt),
    out_of_range: outOfRange(s.type, s.unit, s.figures.min, s.figures.max),
  };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
