import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import Type, { type TSchema } from 'typebox';
import type { Page, PageRequest, SortKey } from '../../db/pages.js';
import { wantsSpreadsheet, type CsvLayout } from './csv-spreadsheet.js';

/**
 * CSV export of a list (a list route declares `paging.csv`): asked with
 * `Accept: text/csv`, the list answers every row matching its filters, not one
 * page, as CSV. Rows are read a page at a time by the list's own handler (so its
 * filters, order and rules apply unchanged) and streamed as the client reads
 * them, so an export of any size takes the memory of one page.
 */

/** Rows read per query while exporting. */
export const EXPORT_PAGE_ROWS = 500;

/** The `q` of each media range the Accept header lists, by range. */
function acceptWeights(accept: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [range, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (range === undefined || range === '') continue;
    let q = 1;
    for (const param of params) {
      const match = /^q=([0-9.]+)$/.exec(param);
      if (match) q = Number(match[1]);
    }
    if (Number.isFinite(q)) weights.set(range, Math.max(weights.get(range) ?? 0, q));
  }
  return weights;
}

/**
 * Whether a request asks for CSV: `text/csv` is named with a weight above 0 and
 * JSON (`application/json`, `application/*`, `*\/*`) is not preferred to it. A
 * request that names no CSV gets JSON, as every list answers today.
 */
export function wantsCsv(accept: string | undefined): boolean {
  if (accept === undefined || !accept.toLowerCase().includes('text/csv')) return false;
  const weights = acceptWeights(accept);
  const csv = weights.get('text/csv') ?? 0;
  if (csv <= 0) return false;
  const json = Math.max(
    weights.get('application/json') ?? 0,
    weights.get('application/*') ?? 0,
    weights.get('*/*') ?? 0,
  );
  return csv >= json;
}

/**
 * The `format` query parameter of every operation that answers CSV: what `Accept`
 * asks, for a client that cannot set a header (a link, a browser's download).
 * `csv` is `Accept: text/csv`, `spreadsheet` is `Accept: text/csv; profile=spreadsheet`;
 * without it, the Accept header decides.
 */
export const FORMATS = ['csv', 'spreadsheet'] as const;

export const formatParameter = () => ({
  format: Type.Optional(
    Type.Unsafe<(typeof FORMATS)[number]>({
      type: 'string',
      enum: [...FORMATS],
      description:
        'CSV without an Accept header (a link): `csv` answers as `Accept: text/csv`, ' +
        '`spreadsheet` as `Accept: text/csv; profile=spreadsheet`',
    }),
  ),
});

/** Whether a request asks for CSV, and in its spreadsheet profile: its `format`, else its Accept. */
export function csvAsked(
  accept: string | undefined,
  format: unknown,
): { csv: boolean; spreadsheet: boolean } {
  if (format === 'csv' || format === 'spreadsheet') {
    return { csv: true, spreadsheet: format === 'spreadsheet' };
  }
  return { csv: wantsCsv(accept), spreadsheet: wantsSpreadsheet(accept) };
}

/** First characters a spreadsheet reads as a formula (OWASP CSV injection), tab and CR included. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A line break followed by such a character: a spreadsheet may read a new line, or row, there. */
const FORMULA_AFTER_BREAK = /(\r\n|\r|\n)(?=[=+\-@\t\r])/g;

/**
 * One cell: text as it is, except that text a spreadsheet would run as a formula
 * is neutralised with a `'` (OWASP): at its start, and after every line break
 * inside it, since a reader that splits lines (or a field left unquoted) starts
 * a line there; numbers as numbers; true/false; nested objects and arrays as JSON
 * text; null (and a missing field) as an empty cell.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') {
    const lines = value.replace(FORMULA_AFTER_BREAK, "$1'");
    return FORMULA_START.test(lines) ? `'${lines}` : lines;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The header of a list's CSV: the top-level fields of its item, in the schema's order. */
export function csvColumns(item: TSchema): string[] {
  const properties = (item as { properties?: Record<string, unknown> }).properties;
  return Object.keys(properties ?? {});
}

/** The raw form: a column per top-level field of the item, each value as it is. */
const rawLayout = (columns: readonly string[]): CsvLayout => ({
  header: columns,
  page: () => Promise.resolve(),
  row: (record) => columns.map((column) => record[column]),
});

async function* csvRows(
  layout: CsvLayout,
  first: Page<unknown>,
  next: (after: SortKey) => Promise<Page<unknown>>,
): AsyncGenerator<string[]> {
  yield [...layout.header];
  let page = first;
  for (;;) {
    await layout.page(page.items);
    for (const item of page.items) {
      yield layout.row(item as Record<string, unknown>).map(csvCell);
    }
    if (page.nextKey === null) return;
    page = await next(page.nextKey);
  }
}

/**
 * Answers a list as CSV. The first page is read before anything is sent, so a
 * failure there still answers the JSON error envelope; a failure later can only
 * cut the stream short (the status line is gone by then), and is logged.
 */
export async function sendCsv(
  reply: FastifyReply,
  input: {
    list: string;
    item: TSchema;
    page: (request: PageRequest) => Promise<Page<unknown>>;
    /** Another layout than the raw one (the spreadsheet-friendly form). */
    layout?: CsvLayout;
  },
): Promise<FastifyReply> {
  const pageAfter = (after: SortKey | null) =>
    input.page({ limit: EXPORT_PAGE_ROWS, offset: 0, after });
  const first = await pageAfter(null);
  const layout = input.layout ?? rawLayout(csvColumns(input.item));
  const rows = Readable.from(csvRows(layout, first, (after) => pageAfter(after)));
  // Either end failing (a later page's query, the client leaving) stops both.
  const writer = stringify({
    eof: true,
    record_delimiter: 'windows',
    // Rows end with CRLF, so the writer would leave a lone CR or LF unquoted, and a
    // spreadsheet would start a row there: every field holding one is quoted.
    quoted_match: /[\r\n]/,
  });
  const csv = pipeline(rows, writer, (error) => {
    if (error) reply.log.warn({ err: error }, 'a CSV export stopped before its end');
  });
  return reply
    .code(200)
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${input.list}.csv"`)
    .header('vary', 'Accept')
    .send(csv);
}
