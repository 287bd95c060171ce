import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { Routes } from '../../kernel/routes/index.js';
import {
  CreateExplantBody,
  Explant,
  ExplantParams,
  ExplantQuery,
  UpdateExplantBody,
} from './explants.schemas.js';
import { ArchiveBody } from '../records/index.js';
import {
  archiveExplant,
  createExplant,
  getExplant,
  listExplants,
  updateExplant,
} from './explants.service.js';

export function registerExplantRoutes(routes: Routes, deps: { records: RecordLookup }): void {
  routes.list({
    url: '/api/v1/explants',
    operationId: 'listExplants',
    tags: ['Explants'],
    summary: 'List explants',
    description:
      'Newest first. `externalId` returns 0 or 1 explant (external id, then batch number, then ' +
      'label; case-insensitive) and no cursor. Filters (beyond the wire format): `stage`, ' +
      '`room_id`, `status`, `q` (search), `plant_id`, `transfer_due_before` (cultures due for ' +
      'transfer), `archived` (archived explants are left out unless asked for). Each explant ' +
      'carries `current_stage`, `subcultured_at` and `transfer_due_at`.',
    scope: 'read:explants',
    failureCode: 'EXPLANT_QUERY_FAILED',
    querystring: ExplantQuery,
    paging: { list: 'explants', csv: true },
    item: Explant,
    handler: (req, ctx) =>
      listExplants(ctx.db, ctx.principal.workspaceId, req.query, deps.records, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/explants',
    operationId: 'createExplant',
    tags: ['Explants'],
    summary: 'Create an explant',
    description:
      'Created as the key owner. A new explant has no stage until one is posted to `/stages`; ' +
      'Vitro’s optional `initial_stage` (with `room_id`) makes its first stage record in the ' +
      'same transaction. ' +
      '`plant_id` must be a plant of the workspace (422). Vessel counts: `initial_count`, ' +
      '`current_count` (default initial_count); plantlets: `plantlet_count`.',
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
    // A client may send back the record it read.
    current: (req, ctx) => getExplant(ctx.trx, ctx.principal.workspaceId, req.params.id),
    handler: async (req, ctx) => ({
      data: await updateExplant(ctx.trx, ctx.principal, req.params.id, req.body, ctx.now),
    }),
  });

  for (const archive of [true, false]) {
    routes.write({
      method: 'POST',
      url: `/api/v1/explants/:id/${archive ? 'archive' : 'unarchive'}`,
      operationId: archive ? 'archiveExplant' : 'unarchiveExplant',
      tags: ['Explants'],
      summary: archive ? 'Archive an explant' : 'Bring an explant back from the archive',
      description: archive
        ? 'For an explant made by mistake: it leaves the lists (unless `archived=include|only`), a ' +
          'read by id still answers it with `archived_at`, and the change history keeps it with an ' +
          '`archived` event. Already archived: answered unchanged. Another member’s explant needs ' +
          'the manager role or above (403 EXPLANT_WRITE_FORBIDDEN). Undone by POST …/unarchive.'
        : 'Undoes an archive (an `unarchived` event); an explant that is not archived is answered unchanged.',
      scope: 'write:explants',
      status: 200,
      failureCode: 'EXPLANT_UPDATE_FAILED',
      errors: ['EXPLANT_WRITE_FORBIDDEN'],
      params: ExplantParams,
      notFound: 'Explant',
      body: ArchiveBody,
      bodyOptional: true,
      data: Explant,
      handler: async (req, ctx) => ({
        data: await archiveExplant(
          ctx.trx,
          ctx.principal,
          req.params.id,
          req.body,
          archive,
          ctx.now,
        ),
      }),
    });
  }
}
