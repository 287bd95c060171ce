import type { Schemas } from '../../api/client';

type Bucket = Schemas['SensorReadingSummaryBucket'];
export type BucketSize = '1m' | '5m' | '15m' | '1h' | '6h' | '1d';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const BUCKET_MS: Record<BucketSize, number> = {
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '1h': HOUR,
  '6h': 6 * HOUR,
  '1d': DAY,
};

/** The ranges a person picks with one tap; `picked` takes two dates. */
export const PRESETS = { '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY } as const;
export type Preset = keyof typeof PRESETS;

/** A chart's points stay near this many: enough for a phone's or a desk's width, never thousands. */
const TARGET_POINTS = 800;

/** A preset's bucket: 5 minutes for a day (288 points), an hour for a week (168) or a month (720). */
const PRESET_BUCKET: Record<Preset, BucketSize> = { '24h': '5m', '7d': '1h', '30d': '1h' };

/** A picked span's bucket: the finest size that keeps it under about 800 points. */
export function bucketFor(spanMs: number): BucketSize {
  const sizes: BucketSize[] = ['1m', '5m', '15m', '1h', '6h', '1d'];
  return sizes.find((size) => spanMs / BUCKET_MS[size] <= TARGET_POINTS) ?? '1d';
}

export interface Range {
  readonly since: Date;
  readonly until: Date;
  readonly bucket: BucketSize;
}

export function presetRange(preset: Preset, now: Date): Range {
  const since = new Date(now.getTime() - PRESETS[preset]);
  return { since, until: now, bucket: PRESET_BUCKET[preset] };
}

/** One line of a chart: a sensor type in one unit, one value per bucket of the grid. */
export interface ChartSeries {
  readonly type: string;
  readonly unit: string;
  readonly label: string;
  readonly avg: (number | null)[];
  readonly min: (number | null)[];
  readonly max: (number | null)[];
  /** The buckets that had readings, as the API gave them (for the values table). */
  readonly buckets: Bucket[];
}

/**
 * The API's buckets (only those with readings) on a full grid of bucket starts
 * from the range's first bucket to its last, in seconds as uPlot takes them: a
 * bucket without readings is a null, so the chart shows a gap there rather than
 * a line drawn across the silence.
 */
export function toSeries(
  buckets: readonly Bucket[],
  range: Range,
  label: (type: string) => string,
): { x: number[]; series: ChartSeries[] } {
  const step = BUCKET_MS[range.bucket];
  const first = Math.floor(range.since.getTime() / step) * step;
  const last = Math.floor(range.until.getTime() / step) * step;
  const x: number[] = [];
  for (let at = first; at <= last; at += step) x.push(at / 1000);
  const byKey = new Map<string, ChartSeries>();
  for (const bucket of buckets) {
    const key = `${bucket.type}\u0000${bucket.unit}`;
    let series = byKey.get(key);
    if (series === undefined) {
      series = {
        type: bucket.type,
        unit: bucket.unit,
        label: label(bucket.type),
        avg: new Array<number | null>(x.length).fill(null),
        min: new Array<number | null>(x.length).fill(null),
        max: new Array<number | null>(x.length).fill(null),
        buckets: [],
      };
      byKey.set(key, series);
    }
    const index = Math.round((Date.parse(bucket.start) - first) / step);
    if (index >= 0 && index < x.length) {
      series.avg[index] = bucket.avg;
      series.min[index] = bucket.min;
      series.max[index] = bucket.max;
    }
    series.buckets.push(bucket);
  }
  const series = [...byKey.values()].sort(
    (a, b) => a.type.localeCompare(b.type) || a.unit.localeCompare(b.unit),
  );
  return { x, series };
}

/** A series in words, for the figure's caption: what a screen reader reads instead of the canvas. */
export function describe(series: ChartSeries): {
  count: number;
  low: number | null;
  high: number | null;
  latest: Bucket | null;
} {
  let low: number | null = null;
  let high: number | null = null;
  let count = 0;
  for (const bucket of series.buckets) {
    count += bucket.count;
    low = low === null ? bucket.min : Math.min(low, bucket.min);
    high = high === null ? bucket.max : Math.max(high, bucket.max);
  }
  return { count, low, high, latest: series.buckets.at(-1) ?? null };
}
