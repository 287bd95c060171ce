import Type from 'typebox';
import { CustomFieldValues, Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';
import {
  createdByField,
  DEFAULT_PLANT_STAGE_NAMES,
  recordListFilters,
  trackedEditableFields,
  trackedRecordFields,
} from '../records/index.js';

export const PLANT_STATUSES = [
  'active',
  'dormant',
  'harvested',
  'contaminated',
  'failed',
  'in_culture',
  'ready_for_transfer',
  'quarantined',
  'archived',
] as const;

export const Plant = Type.Object(
  {
    id: Uuid(),
    name: Type.String({ description: 'common_name, else species' }),
    species: Type.String(),
    status: Type.String({ description: PLANT_STATUSES.join(', ') }),
    workspace_id: Nullable(Type.String()),
    created_at: Nullable(Type.String()),
    external_id: Nullable(Type.String()),
    custom_fields: CustomFieldValues,
    common_name: Nullable(Type.String()),
    genus: Nullable(Type.String()),
    family: Nullable(Type.String()),
    cultivar: Nullable(Type.String()),
    source: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    ...trackedRecordFields,
    created_by: createdByField,
  },
  { $id: 'Plant' },
);

const optionalText = (max: number) => Type.Optional(Nullable(Type.String({ maxLength: max })));

const editable = {
  common_name: optionalText(200),
  genus: optionalText(100),
  family: optionalText(100),
  cultivar: optionalText(200),
  source: optionalText(200),
  notes: optionalText(5000),
  status: Type.Optional(StringEnum(PLANT_STATUSES)),
  ...trackedEditableFields,
};

export const CreatePlantBody = Type.Object(
  {
    species: Type.String({ minLength: 1, maxLength: 200 }),
    ...editable,
    initial_stage: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 50,
        description: `A stage of the lab's plant list, by name or key; default Mother Block. Default lists: ${DEFAULT_PLANT_STAGE_NAMES.join(', ')}`,
      }),
    ),
    room_id: Type.Optional(
      Uuid({ description: 'The room of the first stage: a room of the workspace (422)' }),
    ),
  },
  { additionalProperties: false },
);

export const UpdatePlantBody = Type.Object(
  { species: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), ...editable },
  { additionalProperties: false },
);

export const PlantParams = Type.Object({ id: Uuid() });

export const PlantQuery = Type.Object({
  externalId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'Returns 0 or 1 plant (case-insensitive), archived ones too; not with the other filters',
    }),
  ),
  status: Type.Optional(StringEnum(PLANT_STATUSES)),
  ...recordListFilters('plant', 'species, common name, genus, family, cultivar or external id'),
});
