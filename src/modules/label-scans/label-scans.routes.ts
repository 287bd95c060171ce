import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { Routes } from '../../kernel/routes/index.js';
import { CreateLabelScanBody, LabelScan } from './label-scans.schemas.js';
import { recordLabelScan } from './label-scans.service.js';

export function registerLabelScanRoutes(routes: Routes, deps: { records: RecordLookup }): void {
  routes.write({
    method: 'POST',
    url: '/api/v1/label-scans',
    operationId: 'createLabelScan',
    tags: ['Labels'],
    summary: 'Record a label scan',
    description:
      'Appends a scan (scans are never changed). `resolved` is true when `plant_id` or ' +
      '`explant_id` is sent; each must be a record of the workspace (404). The answer is camelCase.',
    scope: 'write:label_scans',
    failureCode: 'LABEL_SCAN_CREATE_FAILED',
    errors: ['NOT_FOUND'],
    body: CreateLabelScanBody,
    data: LabelScan,
    handler: async (req, ctx) => ({
      data: await recordLabelScan(ctx.trx, ctx.principal, req.body, deps.records, ctx.now),
    }),
  });
}
