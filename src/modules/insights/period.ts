import { errors } from '../../kernel/errors.js';
import { toUtc } from '../../kernel/formats.js';
import { parseDateOnly } from '../../kernel/time.js';
import type { Period } from './insights.repository.js';

/** The longest period an insight reads: five years. */
export const MAX_YEARS = 5;

const DAY_MS = 86_400_000;

/** Years after an instant, by the calendar (29 February to 28 February or 1 March as Date does). */
function yearsAfter(at: string, years: number): string {
  const date = new Date(at);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return date.toISOString();
}

/**
 * The period `since` … `until` asks for: `until` default now (a date: to its end),
 * `since` default a year before it (a date: its start). Refused (422) when since is
 * after until, or when they lie more than five years apart.
 */
export function periodOf(query: { since?: string; until?: string }, now: string): Period {
  const before =
    query.until === undefined
      ? new Date(Date.parse(now) + 1).toISOString()
      : parseDateOnly(query.until) !== null
        ? new Date(Date.parse(toUtc(query.until)) + DAY_MS).toISOString()
        : new Date(Date.parse(toUtc(query.until)) + 1).toISOString();
  const since = query.since === undefined ? yearsAfter(before, -1) : toUtc(query.since);
  if (since >= before) {
    throw errors.validation(`since: ${query.since} is after until (${query.until ?? 'now'})`);
  }
  if (yearsAfter(since, MAX_YEARS) < before) {
    throw errors.validation(
      `until: the period from since to until may be at most ${MAX_YEARS} years; ask for a shorter one`,
    );
  }
  return { since, before };
}
