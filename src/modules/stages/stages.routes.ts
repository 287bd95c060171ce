import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { defineRoute, type Kernel } from '../../kernel/route.js';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';
import { findExplantRecord } from '../explants/explants.service.js';
import { findPlantRecord } from '../plants/plants.service.js';
import { advanceStage, listStagesOf, type RecordFinders } from './stages.service.js';

const Stage = Type.Object({
  id: Uuid(),
  entity_type: StringEnum(['plant', 'explant']),
  entity_id: Uuid(),
  stage: Type.String(),
  status: Type.String({ description: 'active, completed, failed, archived' }),
  entered_on: Nullable(Type.String()),
  completed_at: Nullable(Type.String()),
  room_id: Nullable(Uuid()),
  notes: Nullable(Type.String()),
  created_at: Nullable(Type.String()),
});

const AdvanceStageBody = Type.Object(
  {
    plant_id: Type.Optional(Uuid()),
    explant_id: Type.Optional(Uuid()),
    stage: Type.String({
      minLength: 1,
      maxLength: 50,
      description: "Key of the lab's stage list for the kind moved; a display name is accepted",
    }),
    entered_on: Type.Optional(
      Type.String({ description: 'A date or an ISO 8601 timestamp with zone; default now' }),
    ),
    room_id: Type.Optional(Uuid()),
    notes: Type.Optional(Type.String({ maxLength: 5000 })),
  },
  { additionalProperties: false },
);

const records: RecordFinders = { plant: findPlantRecord, explant: findExplantRecord };

export function registerStageRoutes(app: FastifyInstance, kernel: Kernel): void {
  defineRoute(app, kernel, {
    method: 'GET',
    url: '/api/v1/stages',
    operationId: 'listStages',
    tags: ['Stages'],
    summary: 'List stages',
    description:
      'Stage history of one plant or explant (exactly one of plant_id, explant_id), newest first by entered_on.',
    scope: 'read:transfers',
    failureCode: 'STAGE_QUERY_FAILED',
    errors: ['NOT_FOUND'],
    querystring: Type.Object({
      plant_id: Type.Optional(Uuid()),
      explant_id: Type.Optional(Uuid()),
    }),
    paging: { list: 'stages' },
    data: Type.Array(Stage),
    handler: async (req, ctx) => {
      const { items, nextKey } = await listStagesOf(
        ctx.db,
        ctx.principal.workspaceId,
        req.query,
        records,
        ctx.page,
      );
      return ctx.list(items, nextKey);
    },
  });

  defineRoute(app, kernel, {
    method: 'POST',
    url: '/api/v1/stages',
    operationId: 'createStage',
    tags: ['Stages'],
    summary: 'Advance a stage',
    description:
      'Moves a plant or explant into a new stage in one call: closes the current stage, opens the new ' +
      'one, records a stage_change event. A move dated before the current stage is saved into history ' +
      'as completed and answered with meta.warning.',
    scope: 'write:transfers',
    failureCode: 'STAGE_ADVANCE_FAILED',
    errors: ['STAGE_WRITE_FORBIDDEN', 'NOT_FOUND'],
    body: AdvanceStageBody,
    data: Stage,
    meta: Type.Object({
      previous_stage_id: Type.Optional(Nullable(Uuid())),
      warning: Type.Optional(Type.String()),
    }),
    metaRequired: true,
    handler: async (req, ctx) => {
      const { stage, meta } = await advanceStage(ctx.db, ctx.principal, req.body, records, ctx.now);
      return { data: stage, meta };
    },
  });
}
