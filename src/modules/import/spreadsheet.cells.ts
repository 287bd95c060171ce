import { AppError } from '../../kernel/errors.js';
import type { CustomFieldDefinitionRow } from '../lab/index.js';
import { headerKey, type Column, type ColumnMap } from './spreadsheet.columns.js';
import type { Cell } from './spreadsheet.read.js';

/*
 * Cells as the API's values: what a lab types in a spreadsheet becomes the field
 * the API takes, and the API's own checks then speak (a cell the conversion
 * cannot read stays as written, for the API to refuse in its words).
 */

/** Text of a cell (a number as written, a date as YYYY-MM-DD). */
export const textOf = (cell: Cell): string => (typeof cell === 'string' ? cell : String(cell));

/** A whole number of a cell, else the cell as text (the API then says it must be an integer). */
export function countOf(cell: Cell): number | string {
  if (typeof cell === 'number') return cell;
  const text = textOf(cell);
  return /^\d+$/.test(text) ? Number(text) : text;
}

/** One of `values` as a lab may write it (`In culture` for `in_culture`), else the text. */
export function choiceOf(cell: Cell, values: readonly string[]): string {
  const text = textOf(cell);
  return values.find((value) => headerKey(value) === headerKey(text)) ?? text;
}

const TRUE = new Set(['true', 'yes', 'y', '1', 'x']);
const FALSE = new Set(['false', 'no', 'n', '0']);

/** A custom field's value of a cell, by the field's type. */
export function customValueOf(cell: Cell, definition: CustomFieldDefinitionRow): unknown {
  switch (definition.type) {
    case 'number': {
      if (typeof cell === 'number') return cell;
      const text = textOf(cell).replace(/\s/g, '');
      return text !== '' && Number.isFinite(Number(text)) ? Number(text) : textOf(cell);
    }
    case 'boolean': {
      if (typeof cell === 'boolean') return cell;
      const text = textOf(cell).toLowerCase();
      return TRUE.has(text) ? true : FALSE.has(text) ? false : textOf(cell);
    }
    default:
      return textOf(cell);
  }
}

/** The custom field columns of a kind: each field by its key, as a lab may write it. */
export const customFieldColumns = (definitions: readonly CustomFieldDefinitionRow[]): Column[] =>
  definitions.map((definition) => ({
    field: `custom_fields.${definition.key}`,
    names: [definition.key, definition.key.replace(/_/g, ' ')],
  }));

/** The custom field values of a row's cells, or undefined when it has none. */
export function customFieldsOfCells(
  cells: ReadonlyMap<string, Cell>,
  definitions: readonly CustomFieldDefinitionRow[],
): Record<string, unknown> | undefined {
  const values: Record<string, unknown> = {};
  for (const definition of definitions) {
    const cell = cells.get(`custom_fields.${definition.key}`);
    if (cell !== undefined && cell !== null)
      values[definition.key] = customValueOf(cell, definition);
  }
  return Object.keys(values).length === 0 ? undefined : values;
}

/** A row's outcome, as the import answers it. */
export interface RowResult {
  /** The row's number in the spreadsheet: the header is row 1. */
  row: number;
  status: 'created' | 'updated' | 'unchanged' | 'failed';
  /** The record (null for a row not written: a dry run's new record, a failed row). */
  id: string | null;
  /** The column the error is about, as the file names it. */
  column: string | null;
  error: string | null;
}

/**
 * A failed row from an error: the API's message, and the column it names (its
 * field, or a name the row was resolved by). Anything but an API refusal is
 * thrown on: it is not the row's fault.
 */
export function failedRow(
  row: number,
  error: unknown,
  map: ColumnMap,
  fieldColumns: Readonly<Record<string, string>> = {},
): RowResult {
  if (!(error instanceof AppError)) throw error;
  const field = /^([A-Za-z_][\w.]*):/.exec(error.message)?.[1] ?? null;
  const column = field === null ? null : (map.headers.get(fieldColumns[field] ?? field) ?? null);
  return { row, status: 'failed', id: null, column, error: error.message };
}
