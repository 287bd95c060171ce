import type { RecordLookup } from '../../kernel/record-lookup.js';
import { RAW_MEDIA_TYPES } from '../../kernel/http.js';
import type { Routes } from '../../kernel/routes/index.js';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS } from './spreadsheet.read.js';
import { ImportQuery, ImportResult } from './spreadsheet.schemas.js';
import { importSpreadsheet } from './spreadsheet.service.js';

const MB = IMPORT_MAX_BYTES / 1024 / 1024;

export function registerImportRoutes(routes: Routes, deps: { records: RecordLookup }): void {
  routes.write({
    method: 'POST',
    url: '/api/v1/imports',
    operationId: 'createImport',
    tags: ['Imports'],
    summary: "Import a lab's spreadsheet",
    description:
      `Plants, explants or rooms from a CSV (text/csv) or XLSX file of up to ${MB} MB and ` +
      `${IMPORT_MAX_ROWS.toLocaleString('en')} rows: row 1 names the columns (matched by name, ` +
      'letter case and spaces aside, with aliases; docs/import.md lists them). Each row is checked ' +
      'as the API checks a write of it and matched to its record (plants on External ID, explants ' +
      'on External ID or on Label within their Plant, rooms on Name), so importing a file again ' +
      'creates nothing new. 200 with every row created, updated or unchanged; any row wrong: 422 ' +
      'VALIDATION_ERROR with every row in `details` and nothing written. `dry_run=true` answers ' +
      "the same and writes nothing. The scope is the kind's: write:plants, write:explants, or " +
      'write:workspace for rooms (403 without it).',
    scope: null,
    status: 200,
    failureCode: 'IMPORT_FAILED',
    errors: ['FORBIDDEN', 'DUPLICATE_ENTRY', 'PLANT_WRITE_FORBIDDEN', 'EXPLANT_WRITE_FORBIDDEN'],
    querystring: ImportQuery,
    rawBody: {
      mediaTypes: RAW_MEDIA_TYPES,
      maxBytes: IMPORT_MAX_BYTES,
      tooLarge: `An import file may be at most ${MB} MB; split it into several files`,
      description: `A CSV (UTF-8, with or without a byte order mark, or Latin-1) or XLSX file, up to ${MB} MB`,
    },
    data: ImportResult,
    handler: async (req, ctx) => ({
      data: await importSpreadsheet(
        ctx.trx,
        ctx.principal,
        {
          kind: req.query.kind,
          dryRun: req.query.dry_run === true,
          body: req.body,
          mediaType: (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase(),
        },
        deps.records,
        ctx.now,
      ),
    }),
  });
}
