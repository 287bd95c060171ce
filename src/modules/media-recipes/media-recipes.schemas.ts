import Type from 'typebox';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

export const MEDIA_RECIPE_STATUSES = [
  'active',
  'archived',
  'deprecated',
  'draft',
  'published',
] as const;
export const MEDIA_RECIPE_VISIBILITIES = ['private', 'team'] as const;
export const MEDIA_RECIPE_ORIGINS = ['user', 'imported'] as const;

const Component = Type.Object({
  id: Type.String(),
  name: Type.String(),
  qty: Type.String(),
  unit: Nullable(Type.String()),
  concentration: Nullable(Type.String()),
});

export const MediaRecipe = Type.Object(
  {
    id: Uuid(),
    title: Type.String(),
    status: Nullable(Type.String({ description: MEDIA_RECIPE_STATUSES.join(', ') })),
    origin: Nullable(Type.String({ description: MEDIA_RECIPE_ORIGINS.join(', ') })),
    visibility: Type.String({
      description: 'private (only its creator sees it) or team (every member of the workspace)',
    }),
    is_public: Type.Boolean(),
    notes: Nullable(Type.String()),
    ph_target: Nullable(Type.Number({ description: 'pH 0 to 14, two decimals' })),
    sterilization_notes: Nullable(Type.String()),
    storage_notes: Nullable(Type.String()),
    usage_notes: Nullable(Type.String()),
    components: Type.Array(Component),
    version: Type.Integer({ description: 'Starts at 1; grows with each change of formulation' }),
    created_by: Type.String({ description: 'The member who created it' }),
    created_at: Nullable(Type.String()),
    updated_at: Type.String(),
  },
  { $id: 'MediaRecipe' },
);

const ComponentInput = Type.Object(
  {
    id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'Kept; assigned when absent' }),
    ),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    qty: Type.String({ minLength: 1, maxLength: 50 }),
    // null as a recipe reads back (a component read, edited and sent again round-trips).
    unit: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 20 }))),
    concentration: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 50 }))),
  },
  { additionalProperties: false },
);

const Components = Type.Array(ComponentInput, { minItems: 1, maxItems: 100 });
const PhTarget = Nullable(
  Type.Number({ minimum: 0, maximum: 14, description: 'Stored to two decimals' }),
);
const PrepNotes = () => Type.Optional(Nullable(Type.String({ maxLength: 500 })));

const prepNotes = {
  sterilization_notes: PrepNotes(),
  storage_notes: PrepNotes(),
  usage_notes: PrepNotes(),
};

export const CreateMediaRecipeBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200 }),
    components: Components,
    notes: Type.Optional(Type.String({ maxLength: 500 })),
    status: Type.Optional(StringEnum(MEDIA_RECIPE_STATUSES, { default: 'active' })),
    visibility: Type.Optional(StringEnum(MEDIA_RECIPE_VISIBILITIES, { default: 'private' })),
    is_public: Type.Optional(Type.Boolean({ default: false })),
    origin: Type.Optional(StringEnum(MEDIA_RECIPE_ORIGINS, { default: 'user' })),
    ph_target: Type.Optional(PhTarget),
    ...prepNotes,
  },
  { additionalProperties: false },
);

export const UpdateMediaRecipeBody = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    components: Type.Optional(Components),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    status: Type.Optional(StringEnum(MEDIA_RECIPE_STATUSES)),
    visibility: Type.Optional(StringEnum(MEDIA_RECIPE_VISIBILITIES)),
    is_public: Type.Optional(Type.Boolean()),
    ph_target: Type.Optional(PhTarget),
    ...prepNotes,
  },
  { additionalProperties: false },
);

export const MediaRecipeParams = Type.Object({ id: Uuid() });

export const MediaRecipeQuery = Type.Object({
  status: Type.Optional(StringEnum(MEDIA_RECIPE_STATUSES)),
});
