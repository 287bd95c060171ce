import Type, { type TSchema } from 'typebox';
import { FINITE_NUMBER_BOUNDS, Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';
import { StepId } from '../sops/index.js';

/** Statuses of a run that has ended: it accepts no more evidence and cannot be closed again. */
export const CLOSED_RUN_STATUSES = ['completed', 'failed', 'cancelled', 'archived'] as const;
export const RUN_OUTCOMES = ['completed', 'failed', 'cancelled'] as const;
export const STEP_EVENT_TYPES = [
  'confirmed',
  'scanned',
  'skipped',
  'note',
  'device_state',
] as const;

/** Size limits of a step event's free-form payload (resources.md decision 18: everything bounded). */
export const PAYLOAD_MAX_BYTES = 10_000;
const PAYLOAD_MAX_DEPTH = 4;
const PAYLOAD_MAX_ENTRIES = 100;

/**
 * Any JSON value nested at most `depth` arrays or objects deep, every string and
 * number bounded. A payload is stored and replayed as sent; the depth keeps
 * every walk over it (the Idempotency-Key fingerprint, storing it) shallow.
 */
function jsonValue(depth: number): TSchema {
  const scalar = { maxLength: PAYLOAD_MAX_BYTES, ...FINITE_NUMBER_BOUNDS };
  if (depth === 0) return Type.Unsafe({ type: ['string', 'number', 'boolean', 'null'], ...scalar });
  const inner = jsonValue(depth - 1);
  return Type.Unsafe({
    type: ['string', 'number', 'boolean', 'null', 'array', 'object'],
    ...scalar,
    items: inner,
    maxItems: PAYLOAD_MAX_ENTRIES,
    additionalProperties: inner,
    maxProperties: PAYLOAD_MAX_ENTRIES,
  });
}

const RunStep = Type.Object({
  id: Type.String({ description: 'id of a step of the version the run follows' }),
  completed: Type.Boolean(),
});

const runFields = {
  id: Uuid(),
  sopId: Nullable(Uuid()),
  version: Nullable(Type.Integer({ description: 'Number of the SOP version the run follows' })),
  versionId: Nullable(Uuid()),
  status: Type.String({
    description:
      'in_progress, pending, on_hold; ended: completed, failed, cancelled, archived. A run starts ' +
      'in_progress and is closed with POST /sop-runs/{id}/complete.',
  }),
  batchCode: Nullable(Type.String()),
  startedAt: Nullable(Type.String()),
  completedAt: Nullable(Type.String({ description: 'Set only when the run was completed' })),
  progress: Type.Number({
    description:
      'Percentage (0 to 100, two decimals) of the steps of the pinned version that have evidence',
  }),
  steps: Type.Array(RunStep, {
    description:
      'The steps of the pinned version that have evidence, in the version’s order; empty until one has',
  }),
  plantId: Nullable(Uuid()),
  explantId: Nullable(
    Uuid({ description: 'The explant the run was done for (Vitro addition; null when none)' }),
  ),
  notes: Nullable(Type.String({ description: 'Sent when the run was closed' })),
  startedBy: Nullable(Uuid({ description: 'The member who started the run' })),
  updatedAt: Type.String(),
  stepCount: Type.Integer({ description: 'How many steps the pinned version has' }),
  incompleteSteps: Type.Array(Type.String(), {
    description:
      'The pinned steps with no evidence, in the version’s order; for an ended run, the steps ' +
      'it ended without (Vitro addition)',
  }),
  skippedSteps: Type.Array(
    Type.Object({
      id: Type.String(),
      reason: Nullable(
        Type.String({ description: 'From the skip’s payload: reason, notes, note or comment' }),
      ),
    }),
    {
      description:
        'The pinned steps whose only evidence is a skip (and notes): skipped, not done. They are ' +
        'also in `steps`, which lists every step with evidence (Vitro addition)',
    },
  ),
  statusDetail: Type.String({
    description:
      'The status in plain words with its steps, e.g. "completed with 4 of 7 steps not done" ' +
      '(Vitro addition)',
  }),
};

export const SopRun = Type.Object(runFields, { $id: 'SopRun' });

export const SopStepEvent = Type.Object(
  {
    id: Uuid(),
    runId: Uuid(),
    stepKey: Type.String({ description: 'The stepId it was posted to' }),
    eventType: Type.String({ description: `${STEP_EVENT_TYPES.join(', ')}, measured` }),
    recordedAt: Type.String({ description: 'The sent recorded_at, else the time of receipt' }),
    payload: Type.Object(
      {},
      {
        additionalProperties: true,
        description: 'As sent; a measurement: metric, value, unit, and notes when sent',
      },
    ),
    recordedBy: Nullable(Uuid({ description: 'The member whose key posted it' })),
    createdAt: Type.String({ description: 'When it was received' }),
  },
  { $id: 'SopStepEvent' },
);

export const SopRunDetail = Type.Object(
  {
    ...runFields,
    events: Type.Array(SopStepEvent, {
      description: 'The first 50 pieces of evidence, oldest first (see meta.events_next_cursor)',
    }),
  },
  { $id: 'SopRunDetail' },
);

export const StepMeasurementMeta = Type.Object({
  warning: Type.String({
    description:
      'Only when the value is outside the range the step declares: recorded as measured (Vitro addition)',
  }),
});

export const SopRunDetailMeta = Type.Object({
  events_next_cursor: Nullable(
    Type.String({
      description:
        'The cursor of GET /sop-runs/{id}/events for the evidence after the first 50; null when none',
    }),
  ),
});

export const StartSopRunBody = Type.Object(
  {
    sop_id: Uuid({ description: 'An SOP of the workspace with a version in force' }),
    batch_code: Type.Optional(Type.String({ maxLength: 120 })),
    plant_id: Type.Optional(Uuid({ description: 'A plant of the workspace' })),
    explant_id: Type.Optional(
      Uuid({
        description:
          'An explant of the workspace (Vitro addition); a run is for a plant or an explant, not both',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Documented for current clients; never sent, as training records are not modelled (decision 7). */
export const StartSopRunMeta = Type.Object({
  training_warning: Type.Object({
    qualification: StringEnum(['untrained', 'expired', 'revoked', 'expiring']),
    expires_on: Nullable(Type.String()),
  }),
});

const recordedAt = () =>
  Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'ISO 8601 with a time zone (Z or an offset); default the time of receipt',
    }),
  );

export const StepEventBody = Type.Object(
  {
    event_type: StringEnum(STEP_EVENT_TYPES),
    payload: Type.Optional(
      Type.Unsafe<Record<string, unknown>>({
        type: 'object',
        additionalProperties: jsonValue(PAYLOAD_MAX_DEPTH - 1),
        maxProperties: PAYLOAD_MAX_ENTRIES,
        default: {},
        description: `Detail of the event, stored as sent: at most ${PAYLOAD_MAX_DEPTH} levels deep and ${PAYLOAD_MAX_BYTES} bytes as JSON`,
      }),
    ),
    recorded_at: recordedAt(),
  },
  { additionalProperties: false },
);

export const StepMeasurementBody = Type.Object(
  {
    metric: Type.String({
      minLength: 1,
      maxLength: 60,
      description: 'What was measured, in free words (e.g. temperature, ph, mass)',
    }),
    value: Type.Number(FINITE_NUMBER_BOUNDS),
    unit: Type.String({ minLength: 1, maxLength: 20 }),
    recorded_at: recordedAt(),
    notes: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const CompleteSopRunBody = Type.Object(
  {
    outcome: StringEnum(RUN_OUTCOMES),
    notes: Type.Optional(Type.String({ maxLength: 1000 })),
    allow_incomplete_steps: Type.Optional(
      Type.Boolean({
        description:
          'Accepted for earlier Vitro clients and ignored: a run completes whatever its steps hold ' +
          'unless the lab setting `sop_runs_require_all_steps` is on',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Every status a run can have: open ones first, then the ended ones. */
export const RUN_STATUSES = ['in_progress', 'pending', 'on_hold', ...CLOSED_RUN_STATUSES] as const;

export const SopRunQuery = Type.Object({
  status: Type.Optional(StringEnum(RUN_STATUSES)),
  sop_id: Type.Optional(Uuid({ description: 'Runs of this SOP (404 for an unknown SOP)' })),
  plant_id: Type.Optional(
    Uuid({ description: 'Runs done for this plant (404 for an unknown plant)' }),
  ),
  explant_id: Type.Optional(
    Uuid({ description: 'Runs done for this explant (404 for an unknown explant)' }),
  ),
});

export const SopRunParams = Type.Object({ id: Uuid() });

export const SopRunStepParams = Type.Object({
  id: Uuid(),
  stepId: StepId('id of a step of the version the run follows (e.g. step-1); 404 for any other'),
});
