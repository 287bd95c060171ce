import { MINUTE_MS, modulo, ROLLUP_SPANS, type Span } from './rollups.js';

/**
 * Which stored figures a summary of [sinceMs, untilMs] (inclusive, milliseconds)
 * reads. Each whole stretch comes from the coarsest rollups that fit both it and
 * the buckets (hours for buckets of an hour or more, five minutes for 5- and
 * 15-minute buckets), its ragged ends from finer ones, and the part of a minute
 * a bound cuts from the raw readings, so every reading in the range counts
 * exactly once. A cut minute before `rawSinceMs` (its raw readings removed by
 * retention) is taken whole from its rollup instead.
 */
export interface SummaryPlan {
  /** Raw readings taken in [from, to), ms. */
  readonly raw: { from: number; to: number }[];
  /** Rollups of `span` starting in [from, to), minutes (whole spans). */
  readonly rollups: { span: Span; from: number; to: number }[];
}

export function planSummary(
  sinceMs: number,
  untilMs: number,
  bucketMinutes: number,
  rawSinceMs: number | null,
): SummaryPlan {
  const plan: SummaryPlan = { raw: [], rollups: [] };
  const end = untilMs + 1;
  const firstWhole = Math.ceil(sinceMs / MINUTE_MS);
  const endWhole = Math.floor(end / MINUTE_MS);

  const cut = (from: number, to: number) => {
    const minute = Math.floor(from / MINUTE_MS);
    if (rawSinceMs !== null && minute * MINUTE_MS < rawSinceMs) {
      plan.rollups.push({ span: 1, from: minute, to: minute + 1 });
    } else {
      plan.raw.push({ from, to });
    }
  };
  // A bucket holds whole spans of these: their rows fall in one bucket each.
  const spans = ROLLUP_SPANS.filter((span) => bucketMinutes % span === 0);
  /** Covers whole minutes [from, to) with spans[level] and coarser. */
  const cover = (from: number, to: number, level: number) => {
    if (from >= to) return;
    const span = spans[level]!;
    const coarser = spans[level + 1];
    if (coarser !== undefined) {
      const first = from + modulo(coarser - modulo(from, coarser), coarser);
      const last = to - modulo(to, coarser);
      if (first < last) {
        cover(from, first, level);
        cover(first, last, level + 1);
        cover(last, to, level);
        return;
      }
    }
    plan.rollups.push({ span, from, to });
  };

  if (firstWhole > endWhole) {
    // The whole range lies inside one minute.
    cut(sinceMs, end);
    return plan;
  }
  if (sinceMs < firstWhole * MINUTE_MS) cut(sinceMs, firstWhole * MINUTE_MS);
  cover(firstWhole, endWhole, 0);
  if (endWhole * MINUTE_MS < end) cut(endWhole * MINUTE_MS, end);
  return plan;
}

/** The start (in minutes) of the bucket of `bucketMinutes` holding the time `ms`. */
export function bucketOf(ms: number, bucketMinutes: number): number {
  const minute = Math.floor(ms / MINUTE_MS);
  return minute - modulo(minute, bucketMinutes);
}
