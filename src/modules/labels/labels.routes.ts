import type { Routes } from '../../kernel/routes/index.js';
import { LabelResolution, ResolveLabelQuery } from './labels.schemas.js';
import { resolveLabel } from './labels.service.js';

export function registerLabelRoutes(routes: Routes): void {
  routes.read({
    url: '/api/v1/labels/resolve',
    operationId: 'resolveLabel',
    tags: ['Labels'],
    summary: 'Resolve a label code',
    description:
      'Looks up, in order: a label imported for a plant, an explant or a container (exact ' +
      "barcode), then a plant's external id, then an explant's external id, batch number or label " +
      '(ignoring case). A container lists its contents. No match: 404. Resolving writes nothing.',
    scope: 'read:labels',
    failureCode: 'LINK_QUERY_FAILED',
    errors: ['NOT_FOUND'],
    querystring: ResolveLabelQuery,
    data: LabelResolution,
    handler: async (req, ctx) => ({
      data: await resolveLabel(ctx.db, ctx.principal.workspaceId, req.query.barcode, ctx.publicUrl),
    }),
  });
}
