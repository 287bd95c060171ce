import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { defineRoute, type Kernel } from '../../kernel/route.js';
import {
  CreateExplantBody,
  Explant,
  ExplantParams,
  ExplantQuery,
  UpdateExplantBody,
} from './explants.schemas.js';
import { createExplant, getExplant, listExplants, updateExplant } from './explants.service.js';

export function registerExplantRoutes(app: FastifyInstance, kernel: Kernel): void {
  defineRoute(app, kernel, {
    method: 'GET',
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
    data: Type.Array(Explant),
    handler: async (req, ctx) => {
      const { items, nextKey } = await listExplants(
        ctx.db,
        ctx.principal.workspaceId,
        req.query,
        ctx.page,
      );
      return ctx.list(items, nextKey);
    },
  });

  defineRoute(app, kernel, {
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
    errors: ['DUPLICATE_ENTRY'],
    body: CreateExplantBody,
    data: Explant,
    handler: async (req, ctx) => ({
      data: await createExplant(ctx.db, ctx.principal, req.body, ctx.now),
    }),
  });

  defineRoute(app, kernel, {
    method: 'GET',
    url: '/api/v1/explants/:id',
    operationId: 'getExplant',
    tags: ['Explants'],
    summary: 'Get an explant',
    scope: 'read:explants',
    failureCode: 'EXPLANT_QUERY_FAILED',
    params: ExplantParams,
    data: Explant,
    handler: async (req, ctx) => ({
      data: await getExplant(ctx.db, ctx.principal.workspaceId, req.params.id),
    }),
  });

  defineRoute(app, kernel, {
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
    body: UpdateExplantBody,
    data: Explant,
    handler: async (req, ctx) => ({
      data: await updateExplant(ctx.db, ctx.principal, req.params.id, req.body, ctx.now),
    }),
  });
}
