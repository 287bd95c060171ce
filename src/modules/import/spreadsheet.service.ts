import type { Static } from 'typebox';
import type { Trx } from '../../db/database.js';
import { effectiveScopes } from '../../kernel/access.js';
import { AppError } from '../../kernel/errors.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { cellsOf, mapColumns } from './spreadsheet.columns.js';
import { SHEET_KINDS, type SheetKindName } from './spreadsheet.kinds.js';
import { isBlank, readSpreadsheet } from './spreadsheet.read.js';
import type { ImportResult } from './spreadsheet.schemas.js';

export type ImportResultRecord = Static<typeof ImportResult>;

/**
 * POST /imports: a lab's spreadsheet (CSV or XLSX) of plants, explants or rooms.
 * Every row is checked first, as the API checks a write of it (its schema and
 * its service's rules), and matched to the record it is; then, unless it is a
 * dry run, all rows are written in the caller's one transaction. Any row wrong:
 * 422 with every row's outcome in `details`, and nothing written.
 */
export async function importSpreadsheet(
  trx: Trx,
  principal: Principal,
  input: { kind: SheetKindName; dryRun: boolean; body: unknown; mediaType: string },
  records: RecordLookup,
  now: string,
): Promise<ImportResultRecord> {
  const kind = SHEET_KINDS[input.kind];
  const scopes =
    principal.role === null
      ? []
      : effectiveScopes(principal.scopes, principal.role, principal.plan);
  if (!scopes.includes(kind.scope)) {
    throw new AppError(
      'FORBIDDEN',
      `kind=${input.kind} needs the ${kind.scope} scope (and the role it needs), which this key lacks`,
    );
  }
  if (!Buffer.isBuffer(input.body)) {
    throw new AppError('VALIDATION_ERROR', 'file: send the CSV or XLSX file as the request body');
  }
  const sheet = await readSpreadsheet(input.body, input.mediaType);
  const map = mapColumns(
    input.kind,
    sheet.header,
    await kind.columns(trx, principal.workspaceId),
    sheet.rows,
  );
  const rows = sheet.rows.flatMap((row, index) =>
    isBlank(row) ? [] : [{ row: index + 2, cells: cellsOf(map, row) }],
  );
  const plan = await kind.plan(trx, { principal, now, records }, map, rows);
  const count = (status: string) => plan.results.filter((r) => r.status === status).length;
  const result = (): ImportResultRecord => ({
    kind: input.kind,
    dry_run: input.dryRun,
    encoding: sheet.encoding,
    counts: {
      rows: plan.results.length,
      created: count('created'),
      updated: count('updated'),
      unchanged: count('unchanged'),
      failed: count('failed'),
    },
    rows: plan.results,
  });
  const failed = plan.results.filter((r) => r.status === 'failed');
  if (failed.length > 0) {
    const first = failed[0]!;
    throw new AppError(
      'VALIDATION_ERROR',
      `${failed.length} of ${plan.results.length} rows cannot be imported, so nothing was ` +
        `(row ${first.row}: ${first.error}); every row's outcome is in details`,
      {},
      undefined,
      undefined,
      result(),
    );
  }
  if (!input.dryRun) await plan.apply(trx);
  return result();
}
