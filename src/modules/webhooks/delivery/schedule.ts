/**
 * When a failed delivery is tried again: after each failed attempt, the next delay
 * of this list, with ±20 % jitter so that many deliveries failing together (an
 * endpoint that was down) do not all come back at one instant. Twelve attempts over
 * three days (the last no sooner than three days after the first: see outcomeOf);
 * then the delivery has failed (it can still be sent again by hand).
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
  12 * 3_600_000,
  12 * 3_600_000,
];

/** An endpoint whose every attempt has failed for this long is disabled. */
export const FAILING_DISABLES_AFTER_MS = 3 * 24 * 3_600_000;

/** The longest wait a `Retry-After` can ask for; a longer one is capped. */
export const RETRY_AFTER_MAX_MS = 24 * 3_600_000;

const JITTER = 0.2;

/**
 * The delay before the attempt after `step` failed attempts (1 = the first failed),
 * or null when the schedule is spent. A `Retry-After` the receiver sent is honoured:
 * never sooner than it asks.
 */
export function retryDelay(
  step: number,
  retryAfterMs: number | null,
  random: number,
): number | null {
  const base = RETRY_DELAYS_MS[step - 1];
  if (base === undefined) return null;
  const jittered = Math.round(base * (1 - JITTER + 2 * JITTER * random));
  return retryAfterMs === null ? jittered : Math.max(jittered, retryAfterMs);
}

/**
 * A `Retry-After` header in milliseconds: whole seconds or an HTTP date, capped at a
 * day; null when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  let ms: number;
  if (/^\d{1,10}$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    ms = at - nowMs;
  }
  return Math.min(Math.max(ms, 0), RETRY_AFTER_MAX_MS);
}
