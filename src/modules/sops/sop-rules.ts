import type { Static } from 'typebox';
import { errors } from '../../kernel/errors.js';
import { refuseDuplicate } from '../../kernel/validation.js';
import type { SopStepInput } from './sops.schemas.js';
import type { SopStep } from './sops.service.js';

/*
 * The rules of an SOP's versions that a schema cannot say, checked the same way
 * for an import file and for the API's writes.
 */

type StepInput = Static<typeof SopStepInput>;

/** A step's declared readings: one per metric (a reading is matched by it), min at most max. */
function checkStepMeasurements(
  measurements: readonly { metric: string; min?: number | null; max?: number | null }[],
  path: string,
): void {
  refuseDuplicate(
    measurements,
    (m) => `${path}.measurements[${m}].metric`,
    (m) => m.metric.trim().toLowerCase(),
  );
  for (const [m, { min, max }] of measurements.entries()) {
    if (min != null && max != null && min > max) {
      throw errors.validation(`${path}.measurements[${m}].min: must not be greater than max`);
    }
  }
}

/** A version's steps: each step id once, and each step's readings as above. */
export function checkSopSteps(steps: readonly StepInput[], path: string): void {
  refuseDuplicate(
    steps,
    (i) => `${path}[${i}].id`,
    (step) => step.id,
  );
  for (const [i, step] of steps.entries()) {
    checkStepMeasurements(step.measurements ?? [], `${path}[${i}]`);
  }
}

/** An SOP's versions: each number once, at most one effective, and their steps. */
export function checkSopVersions(
  versions: readonly { version: number; lifecycle_status: string; steps?: StepInput[] }[],
  path: string,
): void {
  refuseDuplicate(
    versions,
    (v) => `${path}[${v}].version`,
    (v) => String(v.version),
  );
  const effective = versions.flatMap((v, i) => (v.lifecycle_status === 'effective' ? [i] : []));
  if (effective.length > 1) {
    throw errors.validation(
      `${path}[${effective[1]}].lifecycle_status: only one version of an SOP may be ` +
        `effective (${path}[${effective[0]}] is already)`,
    );
  }
  for (const [v, version] of versions.entries()) {
    checkSopSteps(version.steps ?? [], `${path}[${v}].steps`);
  }
}

/** Steps as a version stores and shows them (camelCase), from the written form. */
export function storedSteps(steps: readonly StepInput[]): SopStep[] {
  return steps.map((step) => ({
    id: step.id,
    instruction: step.instruction,
    notes: step.notes ?? null,
    safetyWarning: step.safety_warning ?? null,
    estimatedMinutes: step.estimated_minutes ?? null,
    measurements: (step.measurements ?? []).map((m) => ({
      metric: m.metric,
      unit: m.unit,
      min: m.min ?? null,
      max: m.max ?? null,
    })),
  }));
}
