import type { ReferenceExpression, SelectQueryBuilder } from 'kysely';
import { errors } from './errors.js';
import { toUtc } from './formats.js';

/** A time window of a list, both ends inclusive, in ISO 8601 UTC; null = open. */
export interface TimeWindow {
  readonly from: string | null;
  readonly to: string | null;
}

/**
 * The `from`/`to` query parameters of a list (they passed `date-time`), in UTC.
 * `from` later than `to` is refused (422), before anything is read.
 */
export function timeWindow(query: { from?: string; to?: string }): TimeWindow {
  const from = query.from === undefined ? null : toUtc(query.from);
  const to = query.to === undefined ? null : toUtc(query.to);
  if (from !== null && to !== null && Date.parse(from) > Date.parse(to)) {
    throw errors.validation('from: must not be later than to');
  }
  return { from, to };
}

/**
 * A list query narrowed to the rows whose `column` (an ISO 8601 UTC time) lies in
 * `window`, both ends inclusive; an open end adds nothing.
 */
export function withinWindow<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  column: ReferenceExpression<DB, TB>,
  window: TimeWindow,
): SelectQueryBuilder<DB, TB, O> {
  let narrowed = query;
  // Kysely cannot check a value against a column of a generic table; the column holds text.
  if (window.from !== null) narrowed = narrowed.where(column, '>=', window.from as never);
  if (window.to !== null) narrowed = narrowed.where(column, '<=', window.to as never);
  return narrowed;
}
