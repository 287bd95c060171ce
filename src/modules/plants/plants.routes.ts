import Type from 'typebox';
import type { Routes } from '../../kernel/routes/index.js';
import {
  CreatePlantBody,
  Plant,
  PlantParams,
  PlantQuery,
  UpdatePlantBody,
} from './plants.schemas.js';
import { createPlant, getPlant, listPlants, updatePlant } from './plants.service.js';

export function registerPlantRoutes(routes: Routes): void {
  routes.list({
    url: '/api/v1/plants',
    operationId: 'listPlants',
    tags: ['Plants'],
    summary: 'List plants',
    description:
      'Newest first. `externalId` returns 0 or 1 plant (case-insensitive) and no cursor.',
    scope: 'read:plants',
    failureCode: 'PLANT_QUERY_FAILED',
    querystring: PlantQuery,
    paging: { list: 'plants' },
    item: Plant,
    handler: (req, ctx) => listPlants(ctx.db, ctx.principal.workspaceId, req.query, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/plants',
    operationId: 'createPlant',
    tags: ['Plants'],
    summary: 'Create a plant',
    description:
      'Created as the key owner, in `initial_stage` (default Mother Block). `external_id` is unique ' +
      'per workspace ignoring case (409 DUPLICATE_ENTRY).',
    scope: 'write:plants',
    failureCode: 'PLANT_CREATE_FAILED',
    errors: ['DUPLICATE_ENTRY', 'PLAN_LIMIT_REACHED'],
    body: CreatePlantBody,
    data: Plant,
    meta: Type.Object({ warning: Type.String() }),
    handler: async (req, ctx) => {
      const { plant, warning } = await createPlant(ctx.trx, ctx.principal, req.body, ctx.now);
      return warning === null ? { data: plant } : { data: plant, meta: { warning } };
    },
  });

  routes.read({
    url: '/api/v1/plants/:id',
    operationId: 'getPlant',
    tags: ['Plants'],
    summary: 'Get a plant',
    scope: 'read:plants',
    failureCode: 'PLANT_QUERY_FAILED',
    params: PlantParams,
    notFound: 'Plant',
    data: Plant,
    handler: async (req, ctx) => ({
      data: await getPlant(ctx.db, ctx.principal.workspaceId, req.params.id),
    }),
  });

  routes.write({
    method: 'PATCH',
    url: '/api/v1/plants/:id',
    operationId: 'updatePlant',
    tags: ['Plants'],
    summary: 'Update a plant',
    description:
      'Partial: null clears an optional field, custom_fields merge per key (null clears one). ' +
      "Another member's plant needs the manager role or above (403 PLANT_WRITE_FORBIDDEN).",
    scope: 'write:plants',
    failureCode: 'PLANT_UPDATE_FAILED',
    errors: ['PLANT_WRITE_FORBIDDEN', 'DUPLICATE_ENTRY'],
    params: PlantParams,
    notFound: 'Plant',
    body: UpdatePlantBody,
    data: Plant,
    handler: async (req, ctx) => ({
      data: await updatePlant(ctx.trx, ctx.principal, req.params.id, req.body, ctx.now),
    }),
  });
}
