import type { Ajv } from 'ajv';
import { errors } from './errors.js';
import { isUuid } from './ids.js';
import { parseDateOnly, parseDateOrTimestamp, parseZonedTimestamp } from './time.js';

/**
 * The string formats Vitro's schemas use, each with the words a 422 completes
 * "field: …" with. Parsing happens here, in validation: a handler receives only
 * values that passed, and normalises them with `toUtc`.
 */
export const FORMATS: Readonly<
  Record<string, { validate: (value: string) => boolean; problem: string }>
> = {
  date: {
    validate: (value) => parseDateOnly(value) !== null,
    problem: 'must be a date (YYYY-MM-DD)',
  },
  'date-time': {
    validate: (value) => parseZonedTimestamp(value) !== null,
    problem: 'must be an ISO 8601 timestamp with a time zone (e.g. 2026-11-21T08:00:00Z)',
  },
  /** A calendar date (midnight UTC) or a zoned timestamp: `entered_on`, `transfer_date`, `since`. */
  'date-or-date-time': {
    validate: (value) => parseDateOrTimestamp(value) !== null,
    problem: 'must be a date (YYYY-MM-DD) or an ISO 8601 timestamp with a time zone',
  },
  uuid: {
    validate: isUuid,
    problem: 'must be a UUID',
  },
};

export function addVitroFormats(ajv: Ajv): void {
  for (const [name, format] of Object.entries(FORMATS)) {
    ajv.addFormat(name, { type: 'string', validate: format.validate });
  }
}

/** The words of a failed format, e.g. `must be a date (YYYY-MM-DD)`. */
export function formatProblem(format: string): string {
  return FORMATS[format]?.problem ?? `must be a valid ${format}`;
}

/** A value that passed `date`, `date-time` or `date-or-date-time`, as ISO 8601 UTC with milliseconds. */
export function toUtc(value: string): string {
  return parseDateOrTimestamp(value) ?? new Date(value).toISOString();
}

/**
 * A time field and `timestamp`, the older name some device clients send it by:
 * either may be sent; both must name the same moment (422 naming both otherwise).
 */
export function timeOrTimestamp(
  time: { name: string; value: string | undefined },
  timestamp: string | undefined,
  at = '',
): string | undefined {
  if (timestamp === undefined) return time.value;
  if (time.value !== undefined && Date.parse(time.value) !== Date.parse(timestamp)) {
    throw errors.validation(
      `${at}timestamp: differs from ${time.name}; send one of them (timestamp is its older name)`,
    );
  }
  return time.value ?? timestamp;
}
