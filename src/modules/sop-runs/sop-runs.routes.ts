import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { Routes } from '../../kernel/routes/index.js';
import {
  CompleteSopRunBody,
  SopRun,
  SopRunDetail,
  SopRunDetailMeta,
  SopRunParams,
  SopRunQuery,
  SopRunStepParams,
  SopStepEvent,
  StartSopRunBody,
  StartSopRunMeta,
  StepEventBody,
  StepMeasurementBody,
  StepMeasurementMeta,
} from './sop-runs.schemas.js';
import {
  completeSopRun,
  EMBEDDED_EVENTS,
  EVIDENCE_LIST,
  getSopRun,
  listSopRunEvidence,
  listSopRuns,
  recordStepEvent,
  recordStepMeasurement,
  startSopRun,
} from './sop-runs.service.js';

const STEP_RULES =
  '`stepId` must be a step of the SOP version the run follows, else 404 and nothing is recorded; ' +
  'a run that has ended (completed, failed, cancelled, archived) answers 409 SOP_RUN_CLOSED. ' +
  'Evidence is append-only.';

export function registerSopRunRoutes(routes: Routes, deps: { records: RecordLookup }): void {
  routes.write({
    method: 'POST',
    url: '/api/v1/sop-runs',
    operationId: 'createSopRun',
    tags: ['SOP runs'],
    summary: 'Start an SOP run',
    description:
      'Starts a run of the version of the SOP in force now (409 SOP_RUN_NOT_EFFECTIVE without one), ' +
      'pinned to it: a version that takes force later does not change it. The run is in_progress ' +
      'and started by the key owner. `plant_id` must be a plant of the workspace, `explant_id` an ' +
      'explant of it (one or neither: both answer 422). Training is not ' +
      'modelled: TRAINING_REQUIRED and meta.training_warning are never sent.',
    scope: 'write:sop_runs',
    failureCode: 'SOP_RUN_CREATE_FAILED',
    errors: ['NOT_FOUND', 'SOP_RUN_NOT_EFFECTIVE', 'TRAINING_REQUIRED'],
    body: StartSopRunBody,
    data: SopRun,
    meta: StartSopRunMeta,
    handler: async (req, ctx) => ({
      data: await startSopRun(ctx.trx, ctx.principal, req.body, deps.records, ctx.now),
    }),
  });

  routes.list({
    url: '/api/v1/sop-runs',
    operationId: 'listSopRuns',
    tags: ['SOP runs'],
    summary: 'List SOP runs',
    description:
      'The workspace’s runs, newest first, each with its progress and worked steps (no evidence: ' +
      'get the run for it). Filters: `status`, `sop_id`, `plant_id`, `explant_id` (an SOP or ' +
      'record that is not the workspace’s answers 404).',
    scope: 'read:sop_runs',
    failureCode: 'SOP_RUN_QUERY_FAILED',
    errors: ['NOT_FOUND'],
    querystring: SopRunQuery,
    paging: { list: 'sop-runs', csv: true },
    item: SopRun,
    handler: (req, ctx) =>
      listSopRuns(ctx.db, ctx.principal.workspaceId, req.query, deps.records, ctx.page),
  });

  routes.read({
    url: '/api/v1/sop-runs/:id',
    operationId: 'getSopRun',
    tags: ['SOP runs'],
    summary: 'Get an SOP run',
    description:
      `The run with its first ${EMBEDDED_EVENTS} pieces of step evidence, oldest first; ` +
      '`meta.events_next_cursor` is the cursor of the rest (pass it to GET /sop-runs/{id}/events), ' +
      'null when there is no more.',
    scope: 'read:sop_runs',
    failureCode: 'SOP_RUN_QUERY_FAILED',
    params: SopRunParams,
    notFound: 'SOP run',
    data: SopRunDetail,
    meta: SopRunDetailMeta,
    metaRequired: true,
    handler: (req, ctx) =>
      getSopRun(ctx.db, ctx.principal.workspaceId, req.params.id, (key) =>
        ctx.listCursor(EVIDENCE_LIST, key),
      ),
  });

  routes.list({
    url: '/api/v1/sop-runs/:id/events',
    operationId: 'listSopRunEvents',
    tags: ['SOP runs'],
    summary: 'List the step evidence of an SOP run',
    description:
      "The run's whole trail of step events and measurements, oldest first (in the order it was " +
      'recorded), cursor-paged.',
    scope: 'read:sop_runs',
    failureCode: 'SOP_RUN_QUERY_FAILED',
    params: SopRunParams,
    notFound: 'SOP run',
    paging: { list: EVIDENCE_LIST },
    item: SopStepEvent,
    handler: (req, ctx) =>
      listSopRunEvidence(ctx.db, ctx.principal.workspaceId, req.params.id, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/sop-runs/:id/steps/:stepId/events',
    operationId: 'createSopStepEvent',
    tags: ['SOP runs'],
    summary: 'Record step evidence',
    description: `A confirmation, scan, skip, note or device state against one step of a run. ${STEP_RULES}`,
    scope: 'write:sop_steps',
    failureCode: 'SOP_STEP_EVENT_CREATE_FAILED',
    errors: ['SOP_RUN_CLOSED'],
    params: SopRunStepParams,
    notFound: 'SOP run',
    body: StepEventBody,
    data: SopStepEvent,
    handler: async (req, ctx) => ({
      data: await recordStepEvent(
        ctx.trx,
        ctx.principal,
        req.params.id,
        req.params.stepId,
        req.body,
        ctx.now,
      ),
    }),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/sop-runs/:id/steps/:stepId/measurements',
    operationId: 'createSopStepMeasurement',
    tags: ['SOP runs'],
    summary: 'Record a step measurement',
    description:
      'A numeric reading against one step of a run; it joins the trail as `measured` with payload ' +
      '{metric, value, unit, notes?}. A metric the step declares in its `measurements` must ' +
      'come in the declared unit, else 422 and nothing is recorded; a value outside its min and ' +
      'max is recorded as measured and answered with `meta.warning` saying so (send `notes` to ' +
      `say why). A 422 gives the first problem without naming the field. ${STEP_RULES}`,
    scope: 'write:sop_steps',
    failureCode: 'SOP_STEP_EVENT_CREATE_FAILED',
    errors: ['SOP_RUN_CLOSED'],
    params: SopRunStepParams,
    notFound: 'SOP run',
    body: StepMeasurementBody,
    hideFieldInErrors: true,
    data: SopStepEvent,
    meta: StepMeasurementMeta,
    handler: async (req, ctx) => {
      const { evidence, warning } = await recordStepMeasurement(
        ctx.trx,
        ctx.principal,
        req.params.id,
        req.params.stepId,
        req.body,
        ctx.now,
      );
      return warning === null ? { data: evidence } : { data: evidence, meta: { warning } };
    },
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/sop-runs/:id/complete',
    operationId: 'completeSopRun',
    tags: ['SOP runs'],
    summary: 'Close an SOP run',
    description:
      'Ends the run with its outcome (completed, failed, cancelled): `status` becomes the outcome, ' +
      '`completedAt` is set only for completed. Only the member who started the run or a manager ' +
      'and above may (to anyone else the run answers 404); an ended run answers 409 SOP_RUN_CLOSED. ' +
      'Completing a run some of whose steps have no evidence needs `allow_incomplete_steps: true`; ' +
      'without it: 409 SOP_RUN_STEPS_INCOMPLETE naming the steps, and nothing changes.',
    scope: 'write:sop_runs',
    status: 200,
    failureCode: 'SOP_RUN_CREATE_FAILED',
    errors: ['SOP_RUN_CLOSED', 'SOP_RUN_STEPS_INCOMPLETE'],
    params: SopRunParams,
    notFound: 'SOP run',
    body: CompleteSopRunBody,
    data: SopRun,
    handler: async (req, ctx) => ({
      data: await completeSopRun(ctx.trx, ctx.principal, req.params.id, req.body, ctx.now),
    }),
  });
}
