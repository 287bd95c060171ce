import type { Routes } from '../../kernel/routes/index.js';
import { CreateTransferBody, Transfer, TransferQuery } from './transfers.schemas.js';
import { createTransfer, listTransfersOf, type TransferRecords } from './transfers.service.js';

export function registerTransferRoutes(routes: Routes, deps: { records: TransferRecords }): void {
  routes.list({
    url: '/api/v1/transfers',
    operationId: 'listTransfers',
    tags: ['Transfers'],
    summary: 'List transfers',
    description:
      'Transfers of one plant or explant (exactly one of plant_id, explant_id), newest first by ' +
      'transfer_date; transfers of the same date in a fixed order.',
    scope: 'read:transfers',
    failureCode: 'TRANSFER_QUERY_FAILED',
    errors: ['NOT_FOUND'],
    querystring: TransferQuery,
    paging: { list: 'transfers' },
    item: Transfer,
    handler: (req, ctx) =>
      listTransfersOf(ctx.db, ctx.principal.workspaceId, req.query, deps.records, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/transfers',
    operationId: 'createTransfer',
    tags: ['Transfers'],
    summary: 'Record a transfer',
    description:
      'Records a transfer of a plant or explant onto fresh medium (exactly one of plant_id, ' +
      'explant_id) with a transfer change-history event. transfer_cycle defaults to the ' +
      "record's highest + 1, transfer_date to now, status to completed. An explant transfer may " +
      "carry custom_fields and vessel_count/plantlet_count, which become the explant's " +
      'current_count/plantlet_count.',
    scope: 'write:transfers',
    failureCode: 'TRANSFER_CREATE_FAILED',
    errors: ['NOT_FOUND'],
    body: CreateTransferBody,
    data: Transfer,
    handler: async (req, ctx) => ({
      data: await createTransfer(ctx.trx, ctx.principal, req.body, deps.records, ctx.now),
    }),
  });
}
