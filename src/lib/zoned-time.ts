/**
 * Days in a time zone (an IANA name Intl knows): when a person's day starts, for
 * "due today" and the daily digest. Pure; tested beside it.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, format);
  }
  return format;
}

/** The wall clock in `zone` at an instant: year, month (1-12), day, hour, minute, second. */
export function wallClock(ms: number, zone: string): number[] {
  const parts = formatIn(zone).formatToParts(new Date(ms));
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return [part('year'), part('month'), part('day'), part('hour'), part('minute'), part('second')];
}

/** How far `zone` is ahead of UTC at an instant, in ms. */
function offsetAt(ms: number, zone: string): number {
  const [y, mo, d, h, mi, s] = wallClock(ms, zone);
  return Date.UTC(y!, mo! - 1, d, h, mi, s) - Math.floor(ms / 1000) * 1000;
}

/** The instant a wall-clock midnight of a local date happens in `zone`. */
function localMidnight(y: number, mo: number, d: number, zone: string): number {
  const guess = Date.UTC(y, mo - 1, d);
  const first = guess - offsetAt(guess, zone);
  // Again with the offset in force at that instant (a change of offset near midnight).
  return guess - offsetAt(first, zone);
}

/** When the local day holding the instant began in `zone`. */
export function startOfDay(ms: number, zone: string): number {
  const [y, mo, d] = wallClock(ms, zone);
  return localMidnight(y!, mo!, d!, zone);
}

/** When the local day after the one holding the instant begins in `zone`. */
export function startOfNextDay(ms: number, zone: string): number {
  const [y, mo, d] = wallClock(ms, zone);
  const next = new Date(Date.UTC(y!, mo! - 1, d! + 1));
  return localMidnight(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), zone);
}

/** The local date of the instant in `zone`, as YYYY-MM-DD. */
export function localDate(ms: number, zone: string): string {
  const [y, mo, d] = wallClock(ms, zone);
  return `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}
