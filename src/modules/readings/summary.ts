import { MINUTE_MS, HOUR_MINUTES, modulo } from './rollups.js';

/**
 * Which stored figures a summary of [sinceMs, untilMs] (inclusive, milliseconds)
 * reads. Whole hours come from the hour rollups (when buckets are an hour or
 * more), whole minutes from the minute rollups, and the part of a minute a bound
 * cuts from the raw readings, so every reading in the range counts exactly once.
 * A cut minute before `rawSinceMs` (its raw readings removed by retention) is
 * taken whole from its rollup instead.
 */
export interface SummaryPlan {
  /** Raw readings taken in [from, to), ms. */
  readonly raw: { from: number; to: number }[];
  /** Minute rollups starting in [from, to), minutes. */
  readonly minutes: { from: number; to: number }[];
  /** Hour rollups starting in [from, to), minutes (whole hours). */
  readonly hours: { from: number; to: number }[];
}

export function planSummary(
  sinceMs: number,
  untilMs: number,
  bucketMinutes: number,
  rawSinceMs: number | null,
): SummaryPlan {
  const plan: SummaryPlan = { raw: [], minutes: [], hours: [] };
  const end = untilMs + 1;
  const firstWhole = Math.ceil(sinceMs / MINUTE_MS);
  const endWhole = Math.floor(end / MINUTE_MS);

  const cut = (from: number, to: number) => {
    const minute = Math.floor(from / MINUTE_MS);
    if (rawSinceMs !== null && minute * MINUTE_MS < rawSinceMs) {
      plan.minutes.push({ from: minute, to: minute + 1 });
    } else {
      plan.raw.push({ from, to });
    }
  };
  const minutes = (from: number, to: number) => {
    if (from < to) plan.minutes.push({ from, to });
  };

  if (firstWhole > endWhole) {
    // The whole range lies inside one minute.
    cut(sinceMs, end);
    return plan;
  }
  if (sinceMs < firstWhole * MINUTE_MS) cut(sinceMs, firstWhole * MINUTE_MS);
  if (bucketMinutes < HOUR_MINUTES) {
    minutes(firstWhole, endWhole);
  } else {
    const firstHour =
      firstWhole + modulo(HOUR_MINUTES - modulo(firstWhole, HOUR_MINUTES), HOUR_MINUTES);
    const endHour = endWhole - modulo(endWhole, HOUR_MINUTES);
    if (firstHour < endHour) {
      minutes(firstWhole, firstHour);
      plan.hours.push({ from: firstHour, to: endHour });
      minutes(endHour, endWhole);
    } else {
      minutes(firstWhole, endWhole);
    }
  }
  if (endWhole * MINUTE_MS < end) cut(endWhole * MINUTE_MS, end);
  return plan;
}

/** The start (in minutes) of the bucket of `bucketMinutes` holding the time `ms`. */
export function bucketOf(ms: number, bucketMinutes: number): number {
  const minute = Math.floor(ms / MINUTE_MS);
  return minute - modulo(minute, bucketMinutes);
}
