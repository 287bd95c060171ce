import Type from 'typebox';
import type { Routes } from '../../kernel/routes/index.js';
import {
  CreatePlantBody,
  Plant,
  PlantParams,
  PlantQuery,
  UpdatePlantBody,
} from './plants.schemas.js';
import { ArchiveBody } from '../records/index.js';
import { archivePlant, createPlant, getPlant, listPlants, updatePlant } from './plants.service.js';

export function registerPlantRoutes(routes: Routes): void {
  routes.list({
    url: '/api/v1/plants',
    operationId: 'listPlants',
    tags: ['Plants'],
    summary: 'List plants',
    description:
      'Newest first. `externalId` returns 0 or 1 plant (case-insensitive) and no cursor. ' +
      'Filters (beyond the wire format): `stage` (key or name in the lab list), `room_id` (the ' +
      "current stage's room), `status`, `q` (search), `archived` (archived plants are left out " +
      'unless asked for). Each plant carries `current_stage`.',
    scope: 'read:plants',
    failureCode: 'PLANT_QUERY_FAILED',
    querystring: PlantQuery,
    paging: { list: 'plants', csv: true },
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
    // A client may send back the record it read.
    current: (req, ctx) => getPlant(ctx.trx, ctx.principal.workspaceId, req.params.id),
    handler: async (req, ctx) => ({
      data: await updatePlant(ctx.trx, ctx.principal, req.params.id, req.body, ctx.now),
    }),
  });

  for (const archive of [true, false]) {
    routes.write({
      method: 'POST',
      url: `/api/v1/plants/:id/${archive ? 'archive' : 'unarchive'}`,
      operationId: archive ? 'archivePlant' : 'unarchivePlant',
      tags: ['Plants'],
      summary: archive ? 'Archive a plant' : 'Bring a plant back from the archive',
      description: archive
        ? 'For a plant made by mistake: it leaves the lists (unless `archived=include|only`), a read ' +
          'by id still answers it with `archived_at`, and the change history keeps it with an ' +
          '`archived` event. Already archived: answered unchanged. Another member’s plant needs ' +
          'the manager role or above (403 PLANT_WRITE_FORBIDDEN). Undone by POST …/unarchive.'
        : 'Undoes an archive (an `unarchived` event); a plant that is not archived is answered unchanged.',
      scope: 'write:plants',
      status: 200,
      failureCode: 'PLANT_UPDATE_FAILED',
      errors: ['PLANT_WRITE_FORBIDDEN'],
      params: PlantParams,
      notFound: 'Plant',
      body: ArchiveBody,
      bodyOptional: true,
      data: Plant,
      handler: async (req, ctx) => ({
        data: await archivePlant(ctx.trx, ctx.principal, req.params.id, req.body, archive, ctx.now),
      }),
    });
  }
}
