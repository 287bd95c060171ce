import Type from 'typebox';
import { Nullable, Uuid } from '../../kernel/schemas.js';

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
