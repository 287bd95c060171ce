import type { Routes } from '../../kernel/routes/index.js';
import { Sop, SopParams, SopSummary } from './sops.schemas.js';
import { getSop, listSops } from './sops.service.js';

export function registerSopRoutes(routes: Routes): void {
  routes.list({
    url: '/api/v1/sops',
    operationId: 'listSops',
    tags: ['SOPs'],
    summary: 'List SOPs',
    description:
      'Summaries, most recently updated first; drafts and archived SOPs included. SOPs and their ' +
      'versions come from `vitro import` (no write operation).',
    scope: 'read:sops',
    failureCode: 'SOP_QUERY_FAILED',
    paging: { list: 'sops', csv: true },
    item: SopSummary,
    handler: (_req, ctx) => listSops(ctx.db, ctx.principal.workspaceId, ctx.page),
  });

  routes.read({
    url: '/api/v1/sops/:id',
    operationId: 'getSop',
    tags: ['SOPs'],
    summary: 'Get an SOP',
    description:
      'The SOP with only the version in force and its steps (never a draft or superseded one); ' +
      '`version` is null when no version is in force.',
    scope: 'read:sops',
    failureCode: 'SOP_QUERY_FAILED',
    params: SopParams,
    notFound: 'SOP',
    data: Sop,
    handler: async (req, ctx) => ({
      data: await getSop(ctx.db, ctx.principal.workspaceId, req.params.id),
    }),
  });
}
