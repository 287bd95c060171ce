import { api, call, type Schemas } from '../../api/client';
import type { Tone } from '../../ui/parts';
import { strings } from './strings';

export type Sop = Schemas['Sop'];
export type SopStep = NonNullable<Sop['version']>['steps'][number];
export type StepReading = SopStep['measurements'][number];
export type SopRun = Schemas['SopRun'];
export type SopRunDetail = Schemas['SopRunDetail'];
export type Evidence = Schemas['SopStepEvent'];

/** Where runs and SOPs live in the console. */
export const sopHref = (id: string) => `/sops/${id}`;
export const runHref = (id: string) => `/sop-runs/${id}`;

/** Statuses of a run that has ended: its page is then its record, not a runner. */
export const ENDED = ['completed', 'failed', 'cancelled', 'archived'] as const;
export const RUN_STATUSES = ['in_progress', 'pending', 'on_hold', ...ENDED] as const;
export const runEnded = (status: string) => (ENDED as readonly string[]).includes(status);

const RUN_TONE: Record<string, Tone> = {
  in_progress: 'warn',
  pending: 'warn',
  on_hold: 'warn',
  completed: 'ok',
  failed: 'bad',
  cancelled: 'off',
  archived: 'off',
};
export const runTone = (status: string): Tone => RUN_TONE[status] ?? 'info';

/** The range a step accepts, in words: `5.7 to 5.8 pH`, `at least 0 g`. */
export function rangeWords(reading: StepReading): string | null {
  const { min, max, unit } = reading;
  if (min !== null && max !== null) return strings.reading.between(min, max, unit);
  if (min !== null) return strings.reading.atLeast(min, unit);
  if (max !== null) return strings.reading.atMost(max, unit);
  return null;
}

/**
 * The number typed for a reading, or why it cannot be sent (nothing typed, not a
 * number). A comma is read as a decimal point, as many lab tablets type it. A number
 * outside the step's range is a reading all the same: `outside` says so, in words.
 */
export function checkReading(
  reading: StepReading,
  typed: string,
): { value: number; outside: string | null } | { problem: string } {
  const text = typed.trim().replace(',', '.');
  if (text === '') return { problem: strings.reading.missing(reading.metric, reading.unit) };
  const value = Number(text);
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) || !Number.isFinite(value)) {
    return { problem: strings.reading.notANumber(typed.trim()) };
  }
  return { value, outside: outsideWords(reading, value) };
}

/** `300 °C is outside 240 to 260 °C`, or null when the value is in the step's range. */
export function outsideWords(reading: StepReading, value: number): string | null {
  const outside =
    (reading.min !== null && value < reading.min) || (reading.max !== null && value > reading.max);
  return outside ? strings.reading.outside(value, reading.unit, rangeWords(reading) ?? '') : null;
}

const sameMetric = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** A measurement outside the range its step declares, in words; null otherwise. */
export function measuredOutside(event: Evidence, step: SopStep | undefined): string | null {
  if (event.eventType !== 'measured' || step === undefined) return null;
  const p = event.payload as { metric?: unknown; value?: unknown };
  const reading = step.measurements.find(
    (m) => typeof p.metric === 'string' && sameMetric(m.metric, p.metric),
  );
  return reading === undefined || typeof p.value !== 'number'
    ? null
    : outsideWords(reading, p.value);
}

/** Where a step of a run stands: work recorded, only skipped (with notes), or nothing. */
export type StepState = 'done' | 'skipped' | 'open';

/** Evidence that says nothing was done at a step: a skip, and notes beside it (as the API reads it). */
const NOT_DONE = new Set(['skipped', 'note']);

export function stepStates(steps: readonly SopStep[], events: readonly Evidence[]) {
  const types = new Map<string, Set<string>>();
  for (const event of events) {
    types.set(event.stepKey, (types.get(event.stepKey) ?? new Set()).add(event.eventType));
  }
  const states = new Map<string, StepState>();
  for (const step of steps) {
    const mine = types.get(step.id);
    states.set(
      step.id,
      mine === undefined
        ? 'open'
        : mine.has('skipped') && [...mine].every((type) => NOT_DONE.has(type))
          ? 'skipped'
          : 'done',
    );
  }
  return states;
}

/** The reason a skip gives, if any. */
export function skipReason(event: Evidence): string | null {
  const reason = (event.payload as { reason?: unknown }).reason;
  return typeof reason === 'string' && reason.trim() !== '' ? reason.trim() : null;
}

/**
 * A run's status chip: its words (`completed with 4 of 7 steps not done`), in amber
 * when it ended with steps not done or skipped, never a plain green "completed".
 */
export function runChip(run: SopRun): { tone: Tone; words: string } {
  const short = run.incompleteSteps.length > 0 || run.skippedSteps.length > 0;
  const tone = run.status === 'completed' && short ? 'warn' : runTone(run.status);
  return { tone, words: run.statusDetail };
}

/** What a piece of evidence says, in a technician's words. */
export function evidenceWords(event: Evidence): string {
  const p = event.payload as Record<string, unknown>;
  switch (event.eventType) {
    case 'confirmed':
      return strings.evidence.done;
    case 'skipped':
      return typeof p.reason === 'string'
        ? strings.evidence.skippedFor(p.reason)
        : strings.evidence.skipped;
    case 'measured':
      return typeof p.notes === 'string'
        ? strings.evidence.measuredNoted(String(p.metric), String(p.value), String(p.unit), p.notes)
        : strings.evidence.measured(String(p.metric), String(p.value), String(p.unit));
    case 'note':
      if (typeof p.asset_id === 'string') return strings.evidence.photo;
      return typeof p.text === 'string' ? strings.evidence.noted(p.text) : strings.evidence.note;
    case 'scanned':
      return typeof p.barcode === 'string'
        ? strings.evidence.scannedCode(p.barcode)
        : strings.evidence.scanned;
    default:
      return event.eventType.replace(/_/g, ' ');
  }
}

/** The photo a piece of evidence points to (a note with `asset_id`), if any. */
export const photoOf = (event: Evidence): string | null => {
  const id = (event.payload as Record<string, unknown>).asset_id;
  return typeof id === 'string' ? id : null;
};

export type RecordKind = 'plant' | 'explant';

/** A plant's or explant's name as a technician knows it. */
export function recordName(
  kind: RecordKind,
  record: Schemas['Plant'] | Schemas['Explant'],
): string {
  if (kind === 'plant') return (record as Schemas['Plant']).name;
  const explant = record as Schemas['Explant'];
  return explant.label ?? explant.external_id ?? explant.batch_number ?? explant.id;
}

/** One plant or explant by id, as an answer. */
export function readRecord(kind: RecordKind, id: string) {
  return kind === 'plant'
    ? call(api.GET('/api/v1/plants/{id}', { params: { path: { id } } }))
    : call(api.GET('/api/v1/explants/{id}', { params: { path: { id } } }));
}
