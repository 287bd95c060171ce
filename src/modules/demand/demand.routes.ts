import type { Routes } from '../../kernel/routes/index.js';
import { CreateDemandSignalBody, DemandSignal, DemandSignalQuery } from './demand.schemas.js';
import { listDemandSignals, recordDemandSignal } from './demand.service.js';

export function registerDemandRoutes(routes: Routes): void {
  routes.list({
    url: '/api/v1/tasks/demand',
    operationId: 'listDemandSignals',
    tags: ['Demand signals'],
    summary: 'List demand signals',
    description:
      'Newest observation first; `genus` filters (case-insensitive). `current=true` with a `genus` ' +
      'answers the latest signal of that genus as one reading with id "current" (none when the ' +
      'genus has no signal), never paged. The latest signal per genus is what task scoring reads: ' +
      'Vitro records it and keeps the history; clients that order tasks write the order they ' +
      'derive from it with PATCH /tasks/{id} (the task list itself is ordered by due date).',
    scope: 'read:tasks',
    failureCode: 'DEMAND_QUERY_FAILED',
    querystring: DemandSignalQuery,
    paging: { list: 'task-demand' },
    item: DemandSignal,
    handler: (req, ctx) =>
      listDemandSignals(ctx.db, ctx.principal.workspaceId, req.query, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/tasks/demand',
    operationId: 'createDemandSignal',
    tags: ['Demand signals'],
    summary: 'Record a demand signal',
    description:
      'Sales or order demand for a genus: `demand_score` from 0 to 1e15, `observed_at` default ' +
      'the time of receipt. Every signal is kept; the latest observation per genus is current. ' +
      'Needs the manager role or above.',
    scope: 'write:demand',
    failureCode: 'DEMAND_CREATE_FAILED',
    body: CreateDemandSignalBody,
    data: DemandSignal,
    handler: async (req, ctx) => ({
      data: await recordDemandSignal(ctx.trx, ctx.principal, req.body, ctx.now),
    }),
  });
}
