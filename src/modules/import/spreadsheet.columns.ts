import { errors } from '../../kernel/errors.js';
import type { Cell } from './spreadsheet.read.js';

/*
 * A spreadsheet's columns, matched by their header as a lab writes it: letter
 * case, spaces, accents and punctuation aside (`External ID`, `external_id` and
 * `ExternalId` are one column), under the names and aliases each kind lists.
 */

export interface Column {
  /** What the cells are: a field of the API's body, or a name to resolve. */
  readonly field: string;
  /** The name shown in documentation and errors, then the other names taken. */
  readonly names: readonly [string, ...string[]];
  readonly required?: boolean;
}

/** The form a header is compared in. */
export const headerKey = (header: string): string =>
  header
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/** Where each column of the file goes: by position, the column (null: an empty, unnamed column). */
export interface ColumnMap {
  readonly columns: readonly (Column | null)[];
  /** The header as written, by field: errors name the column the lab wrote. */
  readonly headers: ReadonlyMap<string, string>;
}

const letter = (index: number): string =>
  index < 26
    ? String.fromCharCode(65 + index)
    : letter(Math.floor(index / 26) - 1) + letter(index % 26);

/**
 * Matches the header row against a kind's columns (and its custom fields): a
 * header that names none, or one named twice, or a required column missing, is
 * an error of the whole file.
 */
export function mapColumns(
  kind: string,
  header: readonly Cell[],
  columns: readonly Column[],
  rows: readonly (readonly Cell[])[],
): ColumnMap {
  const byKey = new Map<string, Column>();
  for (const column of columns) for (const name of column.names) byKey.set(headerKey(name), column);
  const mapped: (Column | null)[] = [];
  const headers = new Map<string, string>();
  for (const [index, cell] of header.entries()) {
    const text = cell === null ? '' : String(cell).trim();
    if (text === '') {
      const used = rows.some(
        (row) => row[index] !== null && String(row[index] ?? '').trim() !== '',
      );
      if (used) throw errors.validation(`file: column ${letter(index)} has values but no header`);
      mapped.push(null);
      continue;
    }
    const column = byKey.get(headerKey(text));
    if (column === undefined) {
      throw errors.validation(
        `file: column ${letter(index)} "${text}" is not a column of a ${kind} import; the columns ` +
          `are ${columns.map((c) => c.names[0]).join(', ')}`,
      );
    }
    const earlier = headers.get(column.field);
    if (earlier !== undefined) {
      throw errors.validation(
        `file: columns "${earlier}" and "${text}" are both ${column.names[0]}; keep one`,
      );
    }
    headers.set(column.field, text);
    mapped.push(column);
  }
  for (const column of columns) {
    if (column.required === true && !headers.has(column.field)) {
      throw errors.validation(`file: a ${kind} import needs a ${column.names[0]} column`);
    }
  }
  return { columns: mapped, headers };
}

/** A row's cells by field: text trimmed, empty cells left out. */
export function cellsOf(map: ColumnMap, row: readonly Cell[]): Map<string, Cell> {
  const cells = new Map<string, Cell>();
  for (const [index, column] of map.columns.entries()) {
    if (column === null) continue;
    const cell = row[index] ?? null;
    if (cell === null) continue;
    const value = typeof cell === 'string' ? cell.trim() : cell;
    if (value !== '') cells.set(column.field, value);
  }
  return cells;
}
