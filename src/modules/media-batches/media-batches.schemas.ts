import Type from 'typebox';
import { Int, Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

export const MEDIA_BATCH_STATUSES = ['ready', 'used_up', 'expired', 'discarded'] as const;

/** Statuses of a batch no culture may be put on. */
export const UNUSABLE_BATCH_STATUSES = ['expired', 'discarded'] as const;

const Component = Type.Object({
  name: Type.String(),
  lot_id: Nullable(Uuid({ description: 'The stock lot the amount was taken from' })),
  amount: Type.Number(),
  unit: Type.String(),
});

export const MediaBatch = Type.Object(
  {
    id: Uuid(),
    recipe_id: Uuid(),
    recipe_version: Type.Integer({ description: 'The version of the recipe it was made to' }),
    volume_ml: Type.Number(),
    ph_measured: Nullable(Type.Number({ description: 'pH 0 to 14, two decimals' })),
    prepared_by: Uuid({ description: 'The member who made it' }),
    prepared_at: Type.String(),
    autoclave_event_id: Nullable(Uuid({ description: 'The equipment event of its autoclave run' })),
    expires_at: Nullable(Type.String()),
    status: Type.String({ description: MEDIA_BATCH_STATUSES.join(', ') }),
    components: Type.Array(Component),
    notes: Nullable(Type.String()),
    created_by: Nullable(Uuid()),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'MediaBatch' },
);

const ComponentInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    lot_id: Type.Optional(
      Nullable(
        Uuid({
          description:
            'A stock lot of the workspace the amount is taken from (converted to its unit)',
        }),
      ),
    ),
    amount: Type.Number({ minimum: 1e-6, maximum: 1e12 }),
    unit: Type.String({
      minLength: 1,
      maxLength: 20,
      description: "A unit of measure (g, mg, mL, …) that converts to the lot's, or the lot's own",
    }),
  },
  { additionalProperties: false },
);

const PhMeasured = Nullable(
  Type.Number({ minimum: 0, maximum: 14, description: 'Stored to two decimals' }),
);
const VolumeMl = Type.Number({ minimum: 0.001, maximum: 1e9 });
const When = (description: string) => Type.String({ format: 'date-or-date-time', description });

const editable = {
  volume_ml: Type.Optional(VolumeMl),
  ph_measured: Type.Optional(PhMeasured),
  prepared_by: Type.Optional(
    Uuid({ description: 'An active member of the workspace; default the caller' }),
  ),
  prepared_at: Type.Optional(When('Default now')),
  autoclave_event_id: Type.Optional(
    Nullable(Uuid({ description: 'An event of equipment of the workspace (its autoclave run)' })),
  ),
  expires_at: Type.Optional(Nullable(When('After it, no culture may be put on it'))),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
};

export const CreateMediaBatchBody = Type.Object(
  {
    recipe_id: Uuid({ description: 'A media recipe the caller sees' }),
    recipe_version: Type.Optional(
      Int({ minimum: 1, description: "Default the recipe's current version" }),
    ),
    ...editable,
    volume_ml: VolumeMl,
    status: Type.Optional(StringEnum(MEDIA_BATCH_STATUSES, { default: 'ready' })),
    components: Type.Optional(
      Type.Array(ComponentInput, {
        maxItems: 100,
        description: "What it was made of; each amount is taken from its lot's stock",
      }),
    ),
  },
  { additionalProperties: false },
);

export const UpdateMediaBatchBody = Type.Object(
  { ...editable, status: Type.Optional(StringEnum(MEDIA_BATCH_STATUSES)) },
  { additionalProperties: false },
);

export const MediaBatchParams = Type.Object({ id: Uuid() });

export const MediaBatchQuery = Type.Object({
  status: Type.Optional(StringEnum(MEDIA_BATCH_STATUSES)),
  recipe_id: Type.Optional(Uuid()),
  prepared_by: Type.Optional(Uuid()),
});

export const MediaBatchCulture = Type.Object({
  id: Uuid(),
  label: Nullable(Type.String()),
  status: Type.String(),
  plant_id: Nullable(Uuid()),
  current_count: Nullable(Type.Integer()),
  plantlet_count: Nullable(Type.Integer()),
  media_batch_id: Nullable(
    Uuid({ description: 'The batch it is on now (another, when a later transfer moved it)' }),
  ),
  created_at: Type.String(),
});
