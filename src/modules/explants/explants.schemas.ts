import Type from 'typebox';
import { Count, CustomFieldValues, Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';
import {
  createdByField,
  recordListFilters,
  trackedEditableFields,
  trackedRecordFields,
} from '../records/index.js';

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
    ...trackedRecordFields,
    subcultured_at: Type.String({
      description:
        'When the culture last went onto fresh medium: its latest completed transfer, else its creation',
    }),
    transfer_due_at: Type.String({
      description:
        "subcultured_at plus the lab's subculture interval (28 days unless the lab sets another)",
    }),
    created_by: createdByField,
    parent_explant_ids: Type.Array(Uuid(), {
      description:
        'The explants it came from: one for a daughter of a split, several for a merge, none ' +
        'for an explant started from a plant (GET …/lineage reads the whole family)',
    }),
    media_batch_id: Type.Optional(
      Uuid({
        description:
          "Vitro's addition: the medium batch it went onto last (at its creation or split, or by a " +
          'transfer naming one); only on an explant that was put on one',
      }),
    ),
  },
  { $id: 'Explant' },
);

const optionalText = (max: number) => Type.Optional(Nullable(Type.String({ maxLength: max })));
const count = () => Type.Optional(Nullable(Count()));

const editable = {
  batch_number: optionalText(100),
  notes: optionalText(5000),
  status: Type.Optional(StringEnum(EXPLANT_STATUSES)),
  ...trackedEditableFields,
  current_count: count(),
  plantlet_count: count(),
};

export const CreateExplantBody = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 200 }),
    plant_id: Type.Optional(Nullable(Uuid())),
    initial_count: count(),
    ...editable,
    initial_stage: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 50,
        description:
          "Vitro's addition: a stage of the lab's explant list, by name or key; when sent, " +
          'the first stage record is made with the explant. Without it the explant has no stage.',
      }),
    ),
    room_id: Type.Optional(
      Uuid({
        description:
          'The room of the first stage: a room of the workspace (422); only with initial_stage',
      }),
    ),
    media_batch_id: Type.Optional(
      Uuid({
        description:
          "Vitro's addition: the medium batch it is started on, a batch of the workspace not expired or discarded (422)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const UpdateExplantBody = Type.Object(
  { label: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), ...editable },
  { additionalProperties: false },
);

export const ExplantParams = Type.Object({ id: Uuid() });

/** Statuses of a culture that has ended: never due for transfer. */
export const ENDED_EXPLANT_STATUSES = ['discarded', 'retired', 'lost'] as const;

export const ExplantQuery = Type.Object({
  externalId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'Returns 0 or 1 explant: case-insensitive match on external_id, then batch number, then label; archived ones too; not with the other filters',
    }),
  ),
  status: Type.Optional(StringEnum(EXPLANT_STATUSES)),
  ...recordListFilters('explant', 'label, batch number or external id'),
  plant_id: Type.Optional(
    Uuid({
      description:
        'Only explants taken from this plant (422 for a plant the workspace does not have)',
    }),
  ),
  transfer_due_before: Type.Optional(
    Type.String({
      format: 'date-or-date-time',
      description: `Only cultures due for transfer by then: transfer_due_at at or before it, and a status other than ${ENDED_EXPLANT_STATUSES.join(', ')}`,
    }),
  ),
});
