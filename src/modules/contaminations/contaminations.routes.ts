import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { Routes } from '../../kernel/routes/index.js';
import {
  Contamination,
  ContaminationParams,
  ContaminationQuery,
  CreateContaminationBody,
  ResolveContaminationBody,
} from './contaminations.schemas.js';
import {
  createContamination,
  getContamination,
  listContaminationsOf,
  resolveContamination,
} from './contaminations.service.js';

export function registerContaminationRoutes(routes: Routes, deps: { records: RecordLookup }): void {
  routes.list({
    url: '/api/v1/contaminations',
    operationId: 'listContaminations',
    tags: ['Contamination'],
    summary: 'List contaminations',
    description:
      'Contamination logs, newest first (created_at, then id). Filters: plant_id, explant_id ' +
      '(404 when not a record of the workspace), status, since (created_at at or after), and ' +
      '(beyond the wire format) open: true for the logs that still need attention.',
    scope: 'read:contaminations',
    failureCode: 'CONTAMINATION_QUERY_FAILED',
    errors: ['NOT_FOUND'],
    querystring: ContaminationQuery,
    paging: { list: 'contaminations', csv: true },
    item: Contamination,
    handler: (req, ctx) =>
      listContaminationsOf(ctx.db, ctx.principal.workspaceId, req.query, deps.records, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/contaminations',
    operationId: 'createContamination',
    tags: ['Contamination'],
    summary: 'Record a contamination',
    description:
      'Logs a contamination observed on a plant or explant (exactly one of plant_id, explant_id) ' +
      'as the key owner, with a contamination change-history event. type_other is required when ' +
      'type is other and ignored otherwise; severity defaults to low, status to active, ' +
      'observed_at to now. Counts left out are not counted (null); 0 means none.',
    scope: 'write:contaminations',
    failureCode: 'CONTAMINATION_CREATE_FAILED',
    errors: ['NOT_FOUND'],
    body: CreateContaminationBody,
    data: Contamination,
    handler: async (req, ctx) => ({
      data: await createContamination(ctx.trx, ctx.principal, req.body, deps.records, ctx.now),
    }),
  });

  routes.read({
    url: '/api/v1/contaminations/:id',
    operationId: 'getContamination',
    tags: ['Contamination'],
    summary: 'Get a contamination',
    scope: 'read:contaminations',
    failureCode: 'CONTAMINATION_QUERY_FAILED',
    params: ContaminationParams,
    notFound: 'Contamination',
    data: Contamination,
    handler: async (req, ctx) => ({
      data: await getContamination(ctx.db, ctx.principal.workspaceId, req.params.id),
    }),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/contaminations/:id/resolve',
    operationId: 'resolveContamination',
    tags: ['Contamination'],
    summary: 'Resolve a contamination',
    description:
      'Records how a contamination ended: `outcome` (discarded, treated, recovered, false_alarm, ' +
      'other), `notes`, `resolved_at` (default now); the log becomes resolved, with ' +
      '`resolved_by` the key owner, and a contamination_resolved event joins the change history ' +
      'of its plant or explant. Any member may resolve any log; one resolved already answers ' +
      '409 CONFLICT and keeps its resolution.',
    scope: 'write:contaminations',
    status: 200,
    failureCode: 'CONTAMINATION_UPDATE_FAILED',
    errors: ['CONFLICT'],
    params: ContaminationParams,
    notFound: 'Contamination',
    body: ResolveContaminationBody,
    data: Contamination,
    handler: async (req, ctx) => ({
      data: await resolveContamination(ctx.trx, ctx.principal, req.params.id, req.body, ctx.now),
    }),
  });
}
