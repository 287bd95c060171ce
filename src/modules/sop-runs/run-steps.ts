import type { StepEvidence } from './sop-runs.repository.js';

/** Evidence that says nothing was done at a step: a skip, and notes beside it. */
const NOT_DONE = new Set(['skipped', 'note']);

/** Where a skip's reason may be written in its payload, in the order they are read. */
const REASON_FIELDS = ['reason', 'notes', 'note', 'comment'] as const;

export interface SkippedStep {
  readonly id: string;
  readonly reason: string | null;
}

export interface RunSteps {
  /** Steps with any evidence: the spec's `steps` and `progress`. */
  readonly worked: string[];
  /** Steps with no evidence at all. */
  readonly incomplete: string[];
  /** Steps whose evidence is a skip (and perhaps notes), none of the work itself. */
  readonly skipped: SkippedStep[];
  /** In plain words: "completed with 4 of 7 steps not done". */
  readonly detail: string;
}

function reasonOf(payload: string | null): string | null {
  if (payload === null) return null;
  const parsed = JSON.parse(payload) as unknown;
  if (typeof parsed !== 'object' || parsed === null) return null;
  for (const field of REASON_FIELDS) {
    const value = (parsed as Record<string, unknown>)[field];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return null;
}

const STATUS_WORDS: Readonly<Record<string, string>> = {
  in_progress: 'in progress',
  on_hold: 'on hold',
};

const steps = (n: number) => (n === 1 ? 'step' : 'steps');

function detailOf(status: string, total: number, incomplete: number, skipped: number): string {
  const words = STATUS_WORDS[status] ?? status;
  if (total === 0) return words;
  const done = total - incomplete - skipped;
  const skips = skipped === 0 ? '' : `, ${skipped} skipped`;
  if (status !== 'completed') return `${words}, ${done} of ${total} ${steps(total)} done${skips}`;
  if (incomplete === 0 && skipped === 0) return `completed, all ${total} ${steps(total)} done`;
  if (incomplete === 0) return `completed with ${skipped} of ${total} ${steps(total)} skipped`;
  return `completed with ${incomplete} of ${total} ${steps(total)} not done${skips}`;
}

/** What a run's pinned steps and their evidence say, step by step and in a sentence. */
export function runSteps(
  status: string,
  stepIds: readonly string[],
  evidence: ReadonlyMap<string, StepEvidence>,
): RunSteps {
  const worked: string[] = [];
  const incomplete: string[] = [];
  const skipped: SkippedStep[] = [];
  for (const id of stepIds) {
    const step = evidence.get(id);
    if (step === undefined || step.types.size === 0) {
      incomplete.push(id);
      continue;
    }
    worked.push(id);
    if (step.types.has('skipped') && [...step.types].every((type) => NOT_DONE.has(type))) {
      skipped.push({ id, reason: reasonOf(step.skipPayload) });
    }
  }
  return {
    worked,
    incomplete,
    skipped,
    detail: detailOf(status, stepIds.length, incomplete.length, skipped.length),
  };
}
