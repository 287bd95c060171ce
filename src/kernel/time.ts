/** Timestamps leave the API and enter the database as ISO 8601 UTC with milliseconds. */
export function toIso(date: Date): string {
  return date.toISOString();
}

export function nowIso(): string {
  return new Date().toISOString();
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** A calendar date `YYYY-MM-DD` that exists, else null. */
export function parseDateOnly(value: string): Date | null {
  const match = DATE_ONLY.exec(value);
  if (!match) return null;
  const date = new Date(`${value}T00:00:00.000Z`);
  if (Number.isNaN(date.getTime())) return null;
  return date.toISOString().startsWith(value) ? date : null;
}

/** UTC with milliseconds: the form the API writes, and what most clients (devices) send. */
export const CANONICAL_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** An ISO 8601 timestamp that carries a time zone (Z or an offset), else null. */
export function parseZonedTimestamp(value: string): Date | null {
  // Fast path (a readings batch checks 500 of these): when the value reads back
  // unchanged, it is a real calendar time. Anything else takes the general checks.
  if (CANONICAL_UTC.test(value)) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime()) && date.toISOString() === value) return date;
  }
  if (!WITH_ZONE.test(value)) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const datePart = value.slice(0, 10);
  // Reject impossible calendar dates such as 2026-02-31 that Date silently rolls over.
  if (parseDateOnly(datePart) === null) return null;
  return date;
}

/** Accepts a date (midnight UTC) or a zoned timestamp, normalised to ISO UTC; null if neither. */
export function parseDateOrTimestamp(value: string): string | null {
  const date = parseDateOnly(value) ?? parseZonedTimestamp(value);
  return date === null ? null : date.toISOString();
}

/** The later of `candidate` and one millisecond after `previous`, as ISO text. */
export function strictlyAfter(candidate: string, previous: string | null): string {
  if (previous === null || candidate > previous) return candidate;
  return new Date(new Date(previous).getTime() + 1).toISOString();
}
