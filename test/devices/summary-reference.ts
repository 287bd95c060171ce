import { roundedQuotient } from '../../src/lib/exact-sum.js';

/** A stored reading as the list answers it (or as read from the table). */
export interface RawReading {
  id: string;
  device_id: string;
  room_id: string | null;
  type: string;
  unit: string;
  value: number;
  recorded_at: string;
}

export const BUCKET_MINUTES = { '1m': 1, '5m': 5, '15m': 15, '1h': 60, '6h': 360, '1d': 1440 };

/**
 * The summary the API must answer, computed from the raw readings alone, with its
 * own arithmetic: buckets of `bucket` aligned to UTC, oldest first, then type, then
 * unit; `avg` from the exact sum of each value's shortest decimal (a BigInt at 10^-30,
 * every test value has fewer decimals), rounded once; `last` the greatest
 * (recorded_at, id); `out_of_range` when a value lies outside what a sensor can report
 * (the ranges of docs/readings.md for the units the tests send).
 */
export function summaryOf(
  readings: readonly RawReading[],
  options: { bucket: keyof typeof BUCKET_MINUTES; since: string; until: string },
) {
  const bucketMs = BUCKET_MINUTES[options.bucket] * 60_000;
  const groups = new Map<
    string,
    { start: number; type: string; unit: string; values: number[]; last: RawReading }
  >();
  for (const r of readings) {
    if (r.recorded_at < options.since || r.recorded_at > options.until) continue;
    const ms = Date.parse(r.recorded_at);
    const start = Math.floor(ms / bucketMs) * bucketMs;
    const key = `${start}|${r.type}|${r.unit}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { start, type: r.type, unit: r.unit, values: [], last: r };
      groups.set(key, group);
    }
    group.values.push(r.value);
    if (
      r.recorded_at > group.last.recorded_at ||
      (r.recorded_at === group.last.recorded_at && r.id > group.last.id)
    ) {
      group.last = r;
    }
  }
  return [...groups.values()]
    .sort(
      (a, b) =>
        a.start - b.start ||
        (a.type < b.type ? -1 : a.type > b.type ? 1 : 0) ||
        (a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0),
    )
    .map((g) => ({
      start: new Date(g.start).toISOString(),
      type: g.type,
      unit: g.unit,
      count: g.values.length,
      min: Math.min(...g.values),
      max: Math.max(...g.values),
      avg: roundedQuotient(
        g.values.reduce((sum, v) => sum + scaled(v), 0n),
        BigInt(g.values.length) * 10n ** 30n,
      ),
      last: g.last.value,
      last_at: g.last.recorded_at,
      out_of_range: g.values.some((v) => implausible(g.type, g.unit, v)),
    }));
}

const RANGES: Record<string, [number, number]> = {
  'temperature C': [-50, 100],
  'temperature F': [-58, 212],
  'humidity %': [0, 100],
};

function implausible(type: string, unit: string, value: number): boolean {
  const range = RANGES[`${type} ${unit}`];
  // A unit no range is known in (humidity in F) is never flagged.
  return range !== undefined && (value < range[0] || value > range[1]);
}

/** A value's shortest decimal as an integer count of 10^-30. */
function scaled(value: number): bigint {
  const [mantissa, exponent = '0'] = String(value).split('e');
  const [whole, fraction = ''] = mantissa!.split('.');
  const places = 30 - fraction.length + Number(exponent);
  if (places < 0) throw new Error(`test values need at most 30 decimals: ${value}`);
  return BigInt(`${whole}${fraction}`) * 10n ** BigInt(places);
}
