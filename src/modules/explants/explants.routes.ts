import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { Routes } from '../../kernel/routes/index.js';
import {
  CreateExplantBody,
  Explant,
  ExplantParams,
  ExplantQuery,
  UpdateExplantBody,
} from './explants.schemas.js';
import { createExplant, getExplant, listExplants, updateExplant } from './explants.service.js';

export function registerExplantRoutes(routes: Routes, deps: { records: RecordLookup }): void {
  routes.list({
    url: '/api/v1/explants',
    operationId: 'listExplants',
    tags: ['Explants'],
    summary: 'List explants',
    description:
      'Newest first. `externalId` returns 0 or 1 explant (external id, then batch number, then label; case-insensitive) and no cursor.',
    scope: 'read:explants',
    failureCode: 'EXPLANT_QUERY_FAILED',
    querystring: ExplantQuery,
    paging: { list: 'explants' },
    item: Explant,
    handler: (req, ctx) => listExplants(ctx.db, ctx.principal.workspaceId, req.query, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/explants',
    operationId: 'createExplant',
    tags: ['Explants'],
    summary: 'Create an explant',
    description:
      'Created as the key owner. `plant_id` must be a plant of the workspace (422). Vessel counts: ' +
      '`initial_count`, `current_count` (default initial_count); plantlets: `plantlet_count`.',
    scope: 'write:explants',
    failureCode: 'EXPLANT_CREATE_FAILED',
    errors: ['DUPLICATE_ENTRY', 'PLAN_LIMIT_REACHED'],
    body: CreateExplantBody,
    data: Explant,
    handler: async (req, ctx) => ({
      data: await createExplant(ctx.trx, ctx.principal, req.body, ctx.now, deps.records),
    }),
  });

  routes.read({
    url: '/api/v1/explants/:id',
    operationId: 'getExplant',
    tags: ['Explants'],
    summary: 'Get an explant',
    scope: 'read:explants',
    failureCode: 'EXPLANT_QUERY_FAILED',
    params: ExplantParams,
    notFound: 'Explant',
    data: Explant,
    handler: async (req, ctx) => ({
      data: await getExplant(ctx.db, ctx.principal.workspaceId, req.params.id),
    }),
  });

  routes.write({
    method: 'PATCH',
    url: '/api/v1/explants/:id',
    operationId: 'updateExplant',
    tags: ['Explants'],
    summary: 'Update an explant',
    description:
      "Partial; plant_id cannot change. Another member's explant needs the manager role or above (403 EXPLANT_WRITE_FORBIDDEN).",
    scope: 'write:explants',
    failureCode: 'EXPLANT_UPDATE_FAILED',
    errors: ['EXPLANT_WRITE_FORBIDDEN', 'DUPLICATE_ENTRY'],
    params: ExplantParams,
    notFound: 'Explant',
    body: UpdateExplantBody,
    data: Explant,
    handler: async (req, ctx) => ({
      data: await updateExplant(ctx.trx, ctx.principal, req.params.id, req.body, ctx.now),
    }),
  });
}
