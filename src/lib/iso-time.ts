/**
 * `new Date(ms).toISOString()`, about eight times faster for the times readings
 * carry (years 1970 to 9999, whole milliseconds): a summary writes two per bucket,
 * hundreds per answer, and `toISOString` costs about a microsecond each. The day's
 * part is kept from the previous call (a summary's times come in order).
 */

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00.000Z: from there on `toISOString` writes six-digit years. */
const YEAR_10000_MS = 253_402_300_800_000;

let lastDay = Number.NaN;
/** `YYYY-MM-DDT` of lastDay. */
let lastDayText = '';

const twoDigits = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const threeDigits = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

export function isoTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= YEAR_10000_MS) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay) {
    lastDayText = new Date(day * DAY_MS).toISOString().slice(0, 11);
    lastDay = day;
  }
  let rest = ms - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${lastDayText}${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(seconds)}.${threeDigits(rest - seconds * 1000)}Z`;
}
