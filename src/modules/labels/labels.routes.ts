import Type from 'typebox';
import type { Routes } from '../../kernel/routes/index.js';
import { LabelCode, LabelCodesQuery, MAX_LABEL_RECORDS } from './label-codes.schemas.js';
import { labelCodes } from './label-codes.service.js';
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
      "(ignoring case), then a plant's or an explant's id (what GET /labels/codes gives a record " +
      'with no code of its own). A container lists its contents. No match: 404. Resolving ' +
      'writes nothing.',
    scope: 'read:labels',
    failureCode: 'LINK_QUERY_FAILED',
    errors: ['NOT_FOUND'],
    querystring: ResolveLabelQuery,
    data: LabelResolution,
    handler: async (req, ctx) => ({
      data: await resolveLabel(ctx.db, ctx.principal.workspaceId, req.query.barcode, ctx.publicUrl),
    }),
  });

  routes.read({
    url: '/api/v1/labels/codes',
    operationId: 'listLabelCodes',
    tags: ['Labels'],
    summary: 'What to print on labels',
    description:
      `For up to ${MAX_LABEL_RECORDS} plants (\`plant_ids\`) or explants (\`explant_ids\`), in the ` +
      'order given: the code to print as each QR code — the first of an imported label, the ' +
      "record's own identifier, or its id that GET /labels/resolve answers with this record — " +
      'and the lines a person reads (name, stage, date). An id that names no record: 404.',
    scope: 'read:labels',
    failureCode: 'LINK_QUERY_FAILED',
    errors: ['NOT_FOUND'],
    querystring: LabelCodesQuery,
    data: Type.Array(LabelCode, { maxItems: MAX_LABEL_RECORDS }),
    handler: async (req, ctx) => ({
      data: await labelCodes(ctx.db, ctx.principal.workspaceId, req.query),
    }),
  });
}
