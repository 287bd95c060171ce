/**
 * PostgreSQL `timestamptz` values as the API writes every time: ISO 8601 UTC with
 * milliseconds (`2026-11-20T08:00:00.120Z`), the same text SQLite stores, so a
 * column's type never shows in an answer or a cursor.
 *
 * PostgreSQL sends them in its ISO style in the session's time zone:
 * `2026-11-20 08:00:00.12+00`, or `2026-11-20 09:00:00.12+01` elsewhere. Times in
 * Vitro are stored to the millisecond; finer digits (none are written) are cut.
 */
export function timestamptzToIso(text: string): string {
  // The date and time of day: `YYYY-MM-DD HH:MM:SS` (years 1 to 9999: the API's range).
  const base = `${text.slice(0, 10)}T${text.slice(11, 19)}`;
  let rest = text.slice(19);
  let millis = '000';
  if (rest.charCodeAt(0) === 46 /* . */) {
    let end = 1;
    while (end < rest.length && rest.charCodeAt(end) >= 48 && rest.charCodeAt(end) <= 57) end++;
    millis = `${rest.slice(1, end)}00`.slice(0, 3);
    rest = rest.slice(end);
  }
  // A UTC session, the usual case, needs no arithmetic.
  if (rest === '+00') return `${base}.${millis}Z`;
  const zone = /^([+-])(\d{2})(?::(\d{2}))?(?::(\d{2}))?$/.exec(rest);
  if (zone === null || text.length < 19 || text.charCodeAt(10) !== 32) {
    throw new Error(`unexpected timestamptz text from PostgreSQL: ${JSON.stringify(text)}`);
  }
  const offsetSeconds =
    (Number(zone[2]) * 3600 + Number(zone[3] ?? 0) * 60 + Number(zone[4] ?? 0)) *
    (zone[1] === '-' ? -1 : 1);
  const local = Date.parse(`${base}.${millis}Z`);
  return new Date(local - offsetSeconds * 1000).toISOString();
}
