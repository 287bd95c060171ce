import Type from 'typebox';
import { Count, CustomFieldValues, Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

export const EXPLANT_STATUSES = [
  'active',
  'establishing',
  'growing',
  'needs_subculture',
  'quarantined',
  'senescing',
  'discarded',
  'retired',
  'lost',
] as const;

export const Explant = Type.Object(
  {
    id: Uuid(),
    label: Nullable(Type.String()),
    external_id: Nullable(
      Type.String({ description: 'external_id, else batch number, else label' }),
    ),
    status: Type.String({ description: EXPLANT_STATUSES.join(', ') }),
    plant_id: Nullable(Type.String()),
    workspace_id: Nullable(Type.String()),
    initial_count: Nullable(Type.Integer({ description: 'vessels at the start' })),
    current_count: Nullable(Type.Integer({ description: 'vessels now' })),
    plantlet_count: Nullable(Type.Integer()),
    created_at: Nullable(Type.String()),
    custom_fields: CustomFieldValues,
    batch_number: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    updated_at: Type.String(),
  },
  { $id: 'Explant' },
);

const optionalText = (max: number) => Type.Optional(Nullable(Type.String({ maxLength: max })));
const count = () => Type.Optional(Nullable(Count()));

const editable = {
  batch_number: optionalText(100),
  notes: optionalText(5000),
  status: Type.Optional(StringEnum(EXPLANT_STATUSES)),
  external_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  custom_fields: Type.Optional(CustomFieldValues),
  current_count: count(),
  plantlet_count: count(),
};

export const CreateExplantBody = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 200 }),
    plant_id: Type.Optional(Nullable(Uuid())),
    initial_count: count(),
    ...editable,
  },
  { additionalProperties: false },
);

export const UpdateExplantBody = Type.Object(
  { label: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), ...editable },
  { additionalProperties: false },
);

export const ExplantParams = Type.Object({ id: Uuid() });

export const ExplantQuery = Type.Object({
  externalId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'Returns 0 or 1 explant: case-insensitive match on external_id, then batch number, then label',
    }),
  ),
});
