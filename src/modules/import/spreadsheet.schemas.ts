import Type from 'typebox';
import { Count, Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

export const IMPORT_KINDS = ['plants', 'explants', 'rooms'] as const;

export const ImportQuery = Type.Object({
  kind: StringEnum(IMPORT_KINDS, { description: 'What the rows are' }),
  dry_run: Type.Optional(
    Type.Boolean({
      description:
        'true: check every row and answer what importing would do (created, updated, unchanged, or the error), writing nothing',
    }),
  ),
});

const RowResult = Type.Object({
  row: Type.Integer({
    minimum: 2,
    description: "The row's number in the spreadsheet (row 1 is the header)",
  }),
  status: StringEnum(['created', 'updated', 'unchanged', 'failed'] as const),
  id: Nullable(
    Uuid({ description: 'The record; null for a failed row and for a new record of a dry run' }),
  ),
  column: Nullable(
    Type.String({ description: 'The column the error is about, as the file names it' }),
  ),
  error: Nullable(
    Type.String({ description: "Why the row cannot be imported, in the API's words" }),
  ),
});

/** What an import did, or would do (a dry run): every row's outcome and the counts. */
export const ImportResult = Type.Object(
  {
    kind: StringEnum(IMPORT_KINDS),
    dry_run: Type.Boolean(),
    encoding: Nullable(
      Type.String({ description: 'How a CSV file was read: utf-8 or windows-1252; null for XLSX' }),
    ),
    counts: Type.Object({
      rows: Count(),
      created: Count(),
      updated: Count(),
      unchanged: Count(),
      failed: Count(),
    }),
    rows: Type.Array(RowResult),
  },
  { $id: 'ImportResult' },
);
