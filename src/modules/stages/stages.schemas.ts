import Type from 'typebox';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';
import { StageListInput } from '../lab/index.js';

export const Stage = Type.Object(
  {
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
  },
  { $id: 'Stage' },
);

export const AdvanceStageBody = Type.Object(
  {
    plant_id: Type.Optional(Uuid()),
    explant_id: Type.Optional(Uuid()),
    stage: Type.String({
      minLength: 1,
      maxLength: 50,
      description: "Key of the lab's stage list for the kind moved; a display name is accepted",
    }),
    entered_on: Type.Optional(
      Type.String({
        format: 'date-or-date-time',
        description: 'A date or an ISO 8601 timestamp with zone; default now',
      }),
    ),
    room_id: Type.Optional(Uuid()),
    notes: Type.Optional(Type.String({ maxLength: 5000 })),
  },
  { additionalProperties: false },
);

export const StageQuery = Type.Object({
  plant_id: Type.Optional(Uuid()),
  explant_id: Type.Optional(Uuid()),
});

export const AdvanceStageMeta = Type.Object({
  previous_stage_id: Nullable(
    Uuid({
      description: 'The stage this move closed; null when it closed none (a back-dated move)',
    }),
  ),
  warning: Type.Optional(Type.String()),
});

/** One stage of a lab's list: the key a move sends, and the name people read. */
const StageOption = Type.Object({
  key: Type.String({ maxLength: 50, description: 'What POST /stages takes as `stage`' }),
  name: Type.String({ maxLength: 100 }),
});

/** Both of the lab's stage lists, in the lab's order (at most 100 each), and the retired stages. */
export const StageLists = Type.Object(
  {
    plant: Type.Array(StageOption, { maxItems: 100 }),
    explant: Type.Array(StageOption, { maxItems: 100 }),
    retired: Type.Object(
      {
        plant: Type.Array(StageOption),
        explant: Type.Array(StageOption),
      },
      {
        description:
          'Stages dropped from a list while records had been in them: their names stay for that ' +
          'history and records in them stay there, but no record may enter one',
      },
    ),
  },
  { $id: 'StageLists' },
);

/** PATCH /stage-lists: the lists sent replace the stored ones (the import's `stages` rules). */
export const UpdateStageListsBody = Type.Object(
  {
    plant: Type.Optional(StageListInput),
    explant: Type.Optional(StageListInput),
  },
  { additionalProperties: false, minProperties: 1 },
);
