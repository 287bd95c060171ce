import { describe, expect, it } from 'vitest';
import { MINUTE_MS } from './rollups.js';
import { planSummary } from './summary.js';

const BUCKETS = [1, 5, 15, 60, 360, 1440];

/** Every millisecond of [since, until] once: raw ranges and whole rollup spans, none twice. */
function coverage(plan: ReturnType<typeof planSummary>) {
  const pieces = [
    ...plan.raw.map((r) => ({ from: r.from, to: r.to })),
    ...plan.rollups.map((r) => ({ from: r.from * MINUTE_MS, to: r.to * MINUTE_MS })),
  ].sort((a, b) => a.from - b.from);
  for (let i = 1; i < pieces.length; i++) expect(pieces[i]!.from).toBe(pieces[i - 1]!.to);
  return { from: pieces[0]!.from, to: pieces[pieces.length - 1]!.to };
}

describe('planSummary', () => {
  it('covers the range exactly once, with spans aligned and inside one bucket each', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 48271) % 2147483647;
      return seed % n;
    };
    for (let n = 0; n < 2000; n++) {
      const bucket = BUCKETS[n % BUCKETS.length]!;
      const since = Date.UTC(2026, 10, 1) + random(3 * 24 * 3600_000);
      const until = since + random(2 ** (n % 28) + 1);
      const plan = planSummary(since, until, bucket, null);
      expect(coverage(plan)).toEqual({ from: since, to: until + 1 });
      for (const range of plan.rollups) {
        expect(bucket % range.span).toBe(0);
        expect(range.from % range.span).toBe(0);
        expect(range.to % range.span).toBe(0);
        expect(range.to).toBeGreaterThan(range.from);
      }
      for (const range of plan.raw) expect(range.to - range.from).toBeLessThanOrEqual(MINUTE_MS);
    }
  });

  it('reads a day in 5-minute buckets from five-minute rollups, and 30 days in hours from hour rollups', () => {
    const midnight = Date.UTC(2026, 10, 1) / MINUTE_MS;
    const day = planSummary(
      Date.UTC(2026, 10, 1, 0, 0, 30),
      Date.UTC(2026, 10, 2, 0, 0, 30),
      5,
      null,
    );
    expect(day.rollups).toEqual([
      { span: 1, from: midnight + 1, to: midnight + 5 },
      { span: 5, from: midnight + 5, to: midnight + 1440 },
    ]);
    expect(day.raw).toHaveLength(2);
    const month = planSummary(Date.UTC(2026, 9, 2, 0, 7), Date.UTC(2026, 10, 1, 0, 7), 60, null);
    expect(month.rollups.map((r) => [r.span, r.to - r.from])).toEqual([
      [1, 3],
      [5, 50],
      [60, 720 * 60 - 60],
      [5, 5],
      [1, 2],
    ]);
  });

  it('takes a cut minute whole from its rollup once its raw readings are gone', () => {
    const since = Date.UTC(2026, 10, 1, 0, 0, 30);
    const plan = planSummary(since, since + 10 * MINUTE_MS, 5, since + 5 * MINUTE_MS);
    const minute = Math.floor(since / MINUTE_MS);
    expect(plan.raw.map((r) => r.from)).toEqual([minute * MINUTE_MS + 10 * MINUTE_MS]);
    expect(plan.rollups[0]).toEqual({ span: 1, from: minute, to: minute + 1 });
  });
});
