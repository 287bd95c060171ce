import { parse } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import { readSheet } from 'read-excel-file/node';
import { AppError, errors } from '../../kernel/errors.js';
import { XLSX_MEDIA_TYPE } from '../../kernel/http.js';

/*
 * A lab's spreadsheet as rows of cells, whether it came as CSV or XLSX: the file is
 * read, never run (a cell holding `=SUM(…)` is that text; an XLSX formula cell
 * gives the value the spreadsheet last computed).
 */

/** An import file's largest size: about 1,000 times a 10,000-row file of plants. */
export const IMPORT_MAX_BYTES = 16 * 1024 * 1024;
/** The most data rows one file may hold (the header aside). */
export const IMPORT_MAX_ROWS = 10_000;
const MAX_COLUMNS = 200;
/** An XLSX's parts once unpacked: a workbook of 10,000 rows takes a few MB. */
const XLSX_MAX_UNPACKED_BYTES = 128 * 1024 * 1024;

export type Cell = string | number | boolean | Date | null;

export interface Spreadsheet {
  /** The header (row 1) and the rows after it, as a spreadsheet numbers them. */
  readonly header: readonly Cell[];
  readonly rows: readonly (readonly Cell[])[];
  /** How CSV text was read: `utf-8` (a byte order mark or none), `windows-1252` (Latin-1). */
  readonly encoding: 'utf-8' | 'windows-1252' | null;
}

const fileError = (message: string) => errors.validation(`file: ${message}`);

const tooManyRows = (rows: number) =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    `file: ${rows.toLocaleString('en')} rows; an import takes at most ` +
      `${IMPORT_MAX_ROWS.toLocaleString('en')} rows a file: split it into several files`,
  );

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const isZip = (bytes: Buffer) => ZIP.every((byte, i) => bytes[i] === byte);

/** The line (1-based) a byte offset is on. */
function lineAt(bytes: Buffer, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line += 1;
  return line;
}

/** The first byte that is not part of valid UTF-8 (-1: none), and whether any multi-byte character is. */
function utf8Scan(bytes: Buffer): { invalidAt: number; multiByte: boolean } {
  let multiByte = false;
  let i = 0;
  while (i < bytes.length) {
    const byte = bytes[i]!;
    const length =
      byte < 0x80
        ? 1
        : byte >= 0xc2 && byte <= 0xdf
          ? 2
          : byte >= 0xe0 && byte <= 0xef
            ? 3
            : byte >= 0xf0 && byte <= 0xf4
              ? 4
              : 0;
    if (length === 0) return { invalidAt: i, multiByte };
    for (let j = 1; j < length; j++) {
      const next = bytes[i + j];
      if (next === undefined || (next & 0xc0) !== 0x80) return { invalidAt: i, multiByte };
    }
    if (length > 1) multiByte = true;
    i += length;
  }
  return { invalidAt: -1, multiByte };
}

/**
 * CSV bytes as text: UTF-8 (its byte order mark dropped), else Latin-1 read as
 * Windows-1252 (what spreadsheets on Windows save). Bytes that are both (UTF-8
 * characters and bytes UTF-8 cannot hold) are refused: no one reading is right.
 */
function decodeCsv(bytes: Buffer): { text: string; encoding: 'utf-8' | 'windows-1252' } {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw fileError('UTF-16 text is not read; save the file as "CSV UTF-8"');
  }
  const body =
    bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  const { invalidAt, multiByte } = utf8Scan(body);
  if (invalidAt < 0) return { text: body.toString('utf8'), encoding: 'utf-8' };
  if (multiByte) {
    throw fileError(
      `mixes encodings: UTF-8 characters, and on line ${lineAt(body, invalidAt)} a byte UTF-8 ` +
        'cannot hold; save the whole file as "CSV UTF-8"',
    );
  }
  return { text: new TextDecoder('windows-1252').decode(body), encoding: 'windows-1252' };
}

/** The delimiter of the header line: a comma, else a semicolon or tab if it has more of those. */
function delimiterOf(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const count = (c: string) => firstLine.split(c).length - 1;
  return [';', '\t'].reduce((best, c) => (count(c) > count(best) ? c : best), ',');
}

function readCsv(bytes: Buffer): Spreadsheet {
  if (isZip(bytes)) {
    throw fileError(
      `this is an XLSX workbook, not CSV: send it as Content-Type: ${XLSX_MEDIA_TYPE}`,
    );
  }
  if (bytes.includes(0)) throw fileError('not a CSV file: it holds binary data');
  const { text, encoding } = decodeCsv(bytes);
  let records: string[][];
  try {
    const options = {
      delimiter: delimiterOf(text),
      relax_column_count: true,
      skip_empty_lines: false,
      max_record_size: 100_000,
    };
    const parsed: unknown = parse(text, options);
    records = parsed as string[][];
  } catch (error) {
    throw fileError(`not readable as CSV: ${(error as Error).message}`);
  }
  const [header = [], ...rows] = records;
  return { header, rows, encoding };
}

/** The parts' sizes once unpacked, as the zip's directory declares them (nothing is unpacked). */
function unpackedBytes(bytes: Buffer): number {
  let total = 0;
  unzipSync(bytes, {
    filter: (file) => {
      total += file.originalSize;
      return false;
    },
  });
  return total;
}

/** A date cell: the day when it has no time of day, else the instant (UTC). */
const dateCell = (value: Date) =>
  value.getUTCHours() === 0 && value.getUTCMinutes() === 0 && value.getUTCSeconds() === 0
    ? value.toISOString().slice(0, 10)
    : value.toISOString();

async function readXlsx(bytes: Buffer): Promise<Spreadsheet> {
  if (!isZip(bytes)) throw fileError('not an XLSX workbook (an .xlsx file is a zip archive)');
  let size: number;
  try {
    size = unpackedBytes(bytes);
  } catch {
    throw fileError('not a readable XLSX workbook: its zip archive is damaged');
  }
  if (size > XLSX_MAX_UNPACKED_BYTES) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `file: the workbook unpacks to more than ${XLSX_MAX_UNPACKED_BYTES / 1024 / 1024} MB; ` +
        'split it into several files',
    );
  }
  let sheet: Cell[][];
  try {
    sheet = (await readSheet(bytes, { trim: false })) as Cell[][];
  } catch (error) {
    throw fileError(`not a readable XLSX workbook: ${(error as Error).message}`);
  }
  const cells = sheet.map((row) =>
    row.map((cell) => (cell instanceof Date ? dateCell(cell) : cell)),
  );
  const [header = [], ...rows] = cells;
  return { header, rows, encoding: null };
}

/** Reads an import file of the media type it was sent as; 413 or 422 for what it cannot take. */
export async function readSpreadsheet(bytes: Buffer, mediaType: string): Promise<Spreadsheet> {
  if (bytes.length === 0) throw fileError('the file is empty');
  const sheet = mediaType === XLSX_MEDIA_TYPE ? await readXlsx(bytes) : readCsv(bytes);
  let last = sheet.rows.length;
  while (last > 0 && isBlank(sheet.rows[last - 1]!)) last -= 1;
  if (last > IMPORT_MAX_ROWS) throw tooManyRows(last);
  if (sheet.header.length > MAX_COLUMNS) {
    throw fileError(`${sheet.header.length} columns; at most ${MAX_COLUMNS}`);
  }
  if (isBlank(sheet.header)) throw fileError('row 1 must be the header: the names of the columns');
  return { ...sheet, rows: sheet.rows.slice(0, last) };
}

/** A row with nothing in it. */
export const isBlank = (row: readonly Cell[]) =>
  row.every((cell) => cell === null || (typeof cell === 'string' && cell.trim() === ''));
