import Type from 'typebox';
import {
  Closed,
  FINITE_NUMBER_BOUNDS,
  Int,
  Nullable,
  OptionalOf,
  OptionalText,
  StringEnum,
  Text,
  Uuid,
} from '../../kernel/schemas.js';

export const SOP_STATUSES = ['draft', 'active', 'archived'] as const;
export const SOP_LEVELS = ['beginner', 'intermediate', 'advanced', 'expert'] as const;
export const SOP_LIFECYCLE_STATUSES = ['effective', 'draft', 'superseded'] as const;

/** A step id as imported, and so as a run's evidence names it in its path. */
export const StepId = (description: string) =>
  Type.String({ pattern: '^[A-Za-z0-9._:-]{1,64}$', minLength: 1, maxLength: 64, description });

/** A reading a step asks for; a run's measurement of this metric must use its unit, and is flagged out of its range. */
export const SopStepMeasurement = Type.Object({
  metric: Type.String({ description: 'What to measure; a measurement names it in `metric`' }),
  unit: Type.String({ description: 'The unit a measurement of this metric must be sent in' }),
  min: Nullable(Type.Number({ description: 'Lowest value in range (inclusive); null: no floor' })),
  max: Nullable(
    Type.Number({ description: 'Highest value in range (inclusive); null: no ceiling' }),
  ),
});

/** A step of a version, as stored and shown (camelCase); its `id` is what runs post evidence to. */
export const SopStep = Type.Object({
  id: Type.String({ description: 'Post step evidence of a run against it (stepId)' }),
  instruction: Type.String(),
  notes: Nullable(Type.String()),
  safetyWarning: Nullable(Type.String()),
  estimatedMinutes: Nullable(Type.Number()),
  measurements: Type.Array(SopStepMeasurement, {
    description:
      'Readings the step asks for (Vitro addition; empty when none): a measurement posted to the ' +
      'step with one of these metrics is refused (422) in another unit, and recorded with a ' +
      'warning out of range',
  }),
});

export const SopVersion = Type.Object(
  {
    id: Uuid({ description: 'The versionId of the runs that follow this version' }),
    version: Type.Integer(),
    lifecycleStatus: Type.Literal('effective'),
    effectiveAt: Nullable(Type.String()),
    approvedAt: Nullable(Type.String()),
    steps: Type.Array(SopStep),
    title: Nullable(Type.String()),
    description: Nullable(Type.String()),
  },
  { $id: 'SopVersion', description: 'The version in force: the one new runs follow' },
);

const summaryFields = {
  id: Uuid(),
  title: Type.String(),
  description: Nullable(Type.String()),
  category: Nullable(Type.String()),
  status: Nullable(Type.String({ description: 'draft, active, archived' })),
  level: Nullable(Type.String({ description: 'beginner, intermediate, advanced, expert' })),
  tags: Type.Array(Type.String()),
  equipment: Type.Array(Type.String()),
  estimatedTimeMinutes: Nullable(Type.Number()),
  durationHours: Nullable(Type.Number()),
  currentVersion: Type.Integer({
    description:
      'Number of the version in force; without one, the highest version stored (0 when none is)',
  }),
  updatedAt: Nullable(Type.String()),
  createdAt: Nullable(Type.String()),
};

export const SopSummary = Type.Object(summaryFields, { $id: 'SopSummary' });

export const Sop = Type.Object(
  {
    ...summaryFields,
    version: Type.Union([SopVersion, Type.Null()], {
      description: 'The version in force with its steps; null when none is in force',
    }),
  },
  { $id: 'Sop' },
);

export const SopParams = Type.Object({ id: Uuid() });

/*
 * An SOP as it is written, by an import file and by the API alike (one schema):
 * its fields, its versions and their steps. Every object is closed.
 */

/** A duration in minutes or hours: finite, at most a million (stored as double precision). */
const Duration = () => Type.Number({ minimum: 0, maximum: 1_000_000 });

/** A reading a step asks for: runs' measurements of this metric must use its unit and range. */
const StepMeasurementInput = Closed({
  metric: Text(60),
  unit: Text(20),
  min: OptionalOf(Type.Number(FINITE_NUMBER_BOUNDS)),
  max: OptionalOf(Type.Number(FINITE_NUMBER_BOUNDS)),
});

export const SopStepInput = Closed({
  id: StepId('a step id of 1 to 64 letters, digits, ".", "_", ":" or "-" (e.g. step-1)'),
  instruction: Text(5000),
  notes: OptionalText(5000),
  safety_warning: OptionalText(2000),
  estimated_minutes: OptionalOf(Duration()),
  measurements: Type.Optional(Type.Array(StepMeasurementInput, { maxItems: 20 })),
});

/** A version's steps, in order; each step id once, each metric once per step. */
export const SopStepsInput = Type.Array(SopStepInput, { maxItems: 500 });

export const sopFields = {
  title: Text(300),
  description: OptionalText(5000),
  category: OptionalText(100),
  status: Type.Optional(
    Nullable(StringEnum(SOP_STATUSES), { description: 'default active; archived retires it' }),
  ),
  level: Type.Optional(Nullable(StringEnum(SOP_LEVELS))),
  tags: Type.Optional(Type.Array(Text(100), { maxItems: 100 })),
  equipment: Type.Optional(Type.Array(Text(200), { maxItems: 100 })),
  estimated_time_minutes: OptionalOf(Duration()),
  duration_hours: OptionalOf(Duration()),
};

/** The SOP's own fields, as written and stored. */
export const SOP_FIELDS = Object.keys(sopFields) as (keyof typeof sopFields)[];

/** The fields of a version an import file gives (besides its id). */
export const sopVersionFields = {
  version: Int({ minimum: 1 }),
  lifecycle_status: StringEnum(SOP_LIFECYCLE_STATUSES),
  effective_at: OptionalOf(Type.String({ format: 'date-time' })),
  approved_at: OptionalOf(Type.String({ format: 'date-time' })),
  title: OptionalText(300),
  description: OptionalText(5000),
  steps: Type.Optional(SopStepsInput),
};

/** POST /sops: the SOP's fields; `steps` given, it starts with a draft version 1 of them. */
export const CreateSopBody = Closed({
  ...sopFields,
  steps: Type.Optional(SopStepsInput),
});

/** PATCH /sops/{id}: the SOP's own fields sent change (its versions have their own operations). */
export const UpdateSopBody = Type.Object(
  { ...sopFields, title: Type.Optional(sopFields.title) },
  { additionalProperties: false, minProperties: 1 },
);

const draftFields = {
  title: OptionalText(300),
  description: OptionalText(5000),
  steps: SopStepsInput,
};

/** POST /sops/{id}/versions: a new draft, numbered after the highest version stored. */
export const CreateSopVersionBody = Closed(draftFields);

/** PATCH /sops/{id}/versions/{versionId}: a draft's fields sent change. */
export const UpdateSopVersionBody = Type.Object(
  { ...draftFields, steps: Type.Optional(draftFields.steps) },
  { additionalProperties: false, minProperties: 1 },
);

export const SopVersionParams = Type.Object({ id: Uuid(), versionId: Uuid() });

/** Any version of an SOP, with its lifecycle (drafts and superseded ones too). */
export const SopVersionDetail = Type.Object(
  {
    id: Uuid({ description: 'The versionId of the runs that follow this version' }),
    sopId: Uuid(),
    version: Type.Integer(),
    lifecycleStatus: Type.String({ description: SOP_LIFECYCLE_STATUSES.join(', ') }),
    effectiveAt: Nullable(Type.String()),
    approvedAt: Nullable(Type.String()),
    steps: Type.Array(SopStep),
    title: Nullable(Type.String()),
    description: Nullable(Type.String()),
    createdAt: Type.String(),
  },
  { $id: 'SopVersionDetail' },
);
