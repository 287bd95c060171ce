import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { Routes } from '../../kernel/routes/index.js';
import {
  AdvanceStageBody,
  AdvanceStageMeta,
  Stage,
  StageLists,
  StageQuery,
  UpdateStageListsBody,
} from './stages.schemas.js';
import { advanceStage, listStagesOf, stageListsOf, updateStageLists } from './stages.service.js';

export function registerStageRoutes(routes: Routes, deps: { records: RecordLookup }): void {
  routes.list({
    url: '/api/v1/stages',
    operationId: 'listStages',
    tags: ['Stages'],
    summary: 'List stages',
    description:
      'Stage history of one plant or explant (exactly one of plant_id, explant_id), newest first by entered_on.',
    scope: 'read:transfers',
    failureCode: 'STAGE_QUERY_FAILED',
    errors: ['NOT_FOUND'],
    querystring: StageQuery,
    paging: { list: 'stages' },
    item: Stage,
    handler: (req, ctx) =>
      listStagesOf(ctx.db, ctx.principal.workspaceId, req.query, deps.records, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/stages',
    operationId: 'createStage',
    tags: ['Stages'],
    summary: 'Advance a stage',
    description:
      'Moves a plant or explant into a new stage in one call: closes the current stage, opens the new ' +
      'one, records a stage_change event. A move dated before the current stage is saved into history ' +
      'as completed and answered with meta.warning. `meta.previous_stage_id` is on every success: the ' +
      'stage closed, null when none was.',
    scope: 'write:transfers',
    failureCode: 'STAGE_ADVANCE_FAILED',
    errors: ['STAGE_WRITE_FORBIDDEN', 'NOT_FOUND'],
    body: AdvanceStageBody,
    data: Stage,
    meta: AdvanceStageMeta,
    metaRequired: true,
    handler: async (req, ctx) => {
      const { stage, meta } = await advanceStage(
        ctx.trx,
        ctx.principal,
        req.body,
        deps.records,
        ctx.now,
      );
      return { data: stage, meta };
    },
  });

  routes.read({
    url: '/api/v1/stage-lists',
    operationId: 'getStageLists',
    tags: ['Stages'],
    summary: "Get the lab's stage lists",
    description:
      "The stages a plant and an explant can be moved into (POST /stages), each list in the lab's " +
      'order with its keys and display names, and the retired stages (kept for the history of ' +
      'records that were in them). A new workspace has the default lists; PATCH /stage-lists or ' +
      'an import replaces them.',
    scope: 'read:workspace',
    failureCode: 'STAGE_QUERY_FAILED',
    data: StageLists,
    handler: async (_req, ctx) => ({
      data: await stageListsOf(ctx.db, ctx.principal.workspaceId),
    }),
  });

  routes.write({
    method: 'PATCH',
    url: '/api/v1/stage-lists',
    operationId: 'updateStageLists',
    tags: ['Stages'],
    summary: "Change the lab's stage lists",
    description:
      'Each list sent (`plant`, `explant`) replaces the stored one, in its order: add, rename ' +
      '(same key, new name) and reorder stages. A stored stage left out that records were ever ' +
      'in is retired: records in it stay there and keep its name, but no record may enter it ' +
      '(send it again to bring it back); one never used is removed. The same rules as the ' +
      "import file's `stages` section.",
    scope: 'write:workspace',
    failureCode: 'STAGE_LIST_UPDATE_FAILED',
    body: UpdateStageListsBody,
    data: StageLists,
    handler: async (req, ctx) => ({
      data: await updateStageLists(ctx.trx, ctx.principal.workspaceId, req.body),
    }),
  });
}
