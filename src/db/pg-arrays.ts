/** What one element of a PostgreSQL array parameter may be. */
type ArrayElement = string | number | bigint | boolean | null | undefined;

/** A string element holds a character that must be escaped inside double quotes. */
const NEEDS_ESCAPE = /["\\]/;
const ESCAPED = /["\\]/g;

/**
 * The text of a PostgreSQL array literal of one column of `rows`, for a `$n::type[]`
 * parameter: what the pg driver writes for `rows.map((row) => row[column])`, built in
 * one pass without the copy. The driver runs two regular-expression replaces on every
 * element; a readings batch carries thousands of elements, and that showed in the
 * ingest's profile. Strings are double-quoted (so `NULL`, spaces and commas stay text)
 * and escaped only when they hold a quote or a backslash; numbers, bigints and booleans
 * are written as JavaScript prints them; null and undefined are NULL.
 */
export function pgColumn<R>(rows: readonly R[], column: keyof R): string {
  let text = '{';
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) text += ',';
    const value = rows[i]![column] as ArrayElement;
    if (value === null || value === undefined) text += 'NULL';
    else if (typeof value === 'string') {
      text += NEEDS_ESCAPE.test(value) ? `"${value.replace(ESCAPED, '\\$&')}"` : `"${value}"`;
    } else if (
      typeof value === 'number' ||
      typeof value === 'bigint' ||
      typeof value === 'boolean'
    ) {
      text += String(value);
    } else
      throw new TypeError(`${String(column)}: an array element must be text, a number or null`);
  }
  return `${text}}`;
}

/**
 * One column of `rows` that repeats a few values (a batch's devices and rooms): the
 * distinct values once, as an array literal, and each row's 1-based position in it
 * (NULL for null), as an `int4[]` literal. The statement reads `($n::type[])[i]`:
 * a 500-reading batch of one device sends its id once, not 500 times.
 */
export function pgDictionary<R>(
  rows: readonly R[],
  column: keyof R,
): { values: string; positions: string } {
  const positionOf = new Map<string, number>();
  const values: { value: string }[] = [];
  let positions = '{';
  for (let i = 0; i < rows.length; i++) {
    if (i > 0) positions += ',';
    const value = rows[i]![column] as ArrayElement;
    if (value === null || value === undefined) {
      positions += 'NULL';
      continue;
    }
    if (typeof value !== 'string') {
      throw new TypeError(`${String(column)}: a dictionary column holds text or null`);
    }
    let position = positionOf.get(value);
    if (position === undefined) {
      values.push({ value });
      position = values.length;
      positionOf.set(value, position);
    }
    positions += position;
  }
  return { values: pgColumn(values, 'value'), positions: `${positions}}` };
}
