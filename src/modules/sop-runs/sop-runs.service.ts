import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { mayChangeRecordOf } from '../../kernel/access.js';
import { AppError, errors } from '../../kernel/errors.js';
import { toUtc } from '../../kernel/formats.js';
import { newId } from '../../kernel/ids.js';
import type { Page, PageRequest, SortKey } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import {
  requireNamedPlantAndExplant,
  type RecordLookup,
  type RecordRef,
  type RecordSource,
} from '../../kernel/record-lookup.js';
import { getWorkspace } from '../identity/index.js';
import { runSteps } from './run-steps.js';
import { findVersionInForce, findVersionStep, type SopStepMeasurement } from '../sops/index.js';
import {
  listEvidence,
  listRunRows,
  nextEvidenceSequence,
  sopRuns,
  sopStepEvents,
  type StepEvidence,
  stepEvidenceOf,
  type SopRunRow,
  type SopStepEventRow,
} from './sop-runs.repository.js';
import {
  CLOSED_RUN_STATUSES,
  PAYLOAD_MAX_BYTES,
  type CompleteSopRunBody,
  type SopRun,
  type SopRunDetail,
  type SopRunDetailMeta,
  type SopRunQuery,
  type SopStepEvent,
  type StartSopRunBody,
  type StepEventBody,
  type StepMeasurementBody,
} from './sop-runs.schemas.js';

export type SopRunRecord = Static<typeof SopRun>;
export type SopRunDetailRecord = Static<typeof SopRunDetail>;
export type SopStepEventRecord = Static<typeof SopStepEvent>;

/** How many pieces of evidence GET /sop-runs/{id} embeds; the rest is paged by its own list. */
export const EMBEDDED_EVENTS = 50;
/** Names the evidence list inside its cursors (GET /sop-runs/{id}/events). */
export const EVIDENCE_LIST = 'sop-run-events';

const RUN = 'SOP run';
const closedStatuses: ReadonlySet<string> = new Set(CLOSED_RUN_STATUSES);
const stepIdsOf = (run: SopRunRow) => JSON.parse(run.step_ids) as string[];

const NO_EVIDENCE: ReadonlyMap<string, StepEvidence> = new Map();

async function evidenceOfRun(db: Db, workspaceId: string, runId: string) {
  return (await stepEvidenceOf(db, workspaceId, [runId])).get(runId)!;
}

function presentRun(row: SopRunRow, evidence: ReadonlyMap<string, StepEvidence>): SopRunRecord {
  const stepIds = stepIdsOf(row);
  const { worked, incomplete, skipped, detail } = runSteps(row.status, stepIds, evidence);
  return {
    id: row.id,
    sopId: row.sop_id,
    version: row.version,
    versionId: row.sop_version_id,
    status: row.status,
    batchCode: row.batch_code,
    startedAt: row.started_at,
    completedAt: row.completed_at,
    progress:
      stepIds.length === 0 ? 0 : Math.round((10_000 * worked.length) / stepIds.length) / 100,
    steps: worked.map((id) => ({ id, completed: true })),
    plantId: row.plant_id,
    explantId: row.explant_id,
    notes: row.notes,
    startedBy: row.started_by,
    updatedAt: row.updated_at,
    stepCount: stepIds.length,
    incompleteSteps: incomplete,
    skippedSteps: skipped,
    statusDetail: detail,
  };
}

function presentEvidence(row: SopStepEventRow): SopStepEventRecord {
  return {
    id: row.id,
    runId: row.run_id,
    stepKey: row.step_key,
    eventType: row.event_type,
    recordedAt: row.recorded_at,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    recordedBy: row.recorded_by,
    createdAt: row.created_at,
  };
}

const runEnded = (run: SopRunRow, doing: string) =>
  new AppError('SOP_RUN_CLOSED', `This SOP run has ended (${run.status}); ${doing}`);

/**
 * POST /sop-runs: a run of the SOP's version in force, pinned to it (its number,
 * id and steps as they are now), `in_progress`, started by the key's owner.
 */
export async function startSopRun(
  trx: Trx,
  principal: Principal,
  input: Static<typeof StartSopRunBody>,
  records: RecordLookup,
  now: string,
): Promise<SopRunRecord> {
  const workspaceId = principal.workspaceId;
  const sop = await findVersionInForce(trx, workspaceId, input.sop_id);
  if (sop === undefined) throw errors.notFound('SOP');
  const plantId = input.plant_id ?? null;
  const explantId = input.explant_id ?? null;
  if (plantId !== null && explantId !== null) {
    throw errors.validation('explant_id: a run is for a plant or an explant; send one, not both');
  }
  await requireNamedPlantAndExplant(trx, records, workspaceId, { plantId, explantId });
  if (sop.version === null) {
    throw new AppError(
      'SOP_RUN_NOT_EFFECTIVE',
      'This SOP has no version in force; a run can start only from an effective version',
    );
  }
  const row: SopRunRow = {
    id: newId(),
    workspace_id: workspaceId,
    sop_id: input.sop_id,
    sop_version_id: sop.version.id,
    version: sop.version.version,
    step_ids: JSON.stringify(sop.version.stepIds),
    status: 'in_progress',
    batch_code: input.batch_code ?? null,
    plant_id: plantId,
    explant_id: explantId,
    notes: null,
    started_by: principal.memberId,
    started_at: now,
    completed_at: null,
    event_seq: 0,
    created_at: now,
    updated_at: now,
  };
  await sopRuns.insert(trx, row);
  return presentRun(row, NO_EVIDENCE);
}

interface Evidence {
  eventType: string;
  payload: Record<string, unknown>;
  recordedAt: string | undefined;
  /** A rule of the run's step the evidence must keep, checked with the run locked. */
  check?: (trx: Trx, run: SopRunRow) => Promise<void>;
}

/**
 * Appends evidence to a step of a run. The run is locked first, so evidence of
 * one run queues: each gets the next sequence number, and none slips in after
 * the run was closed. Nothing is recorded when the run or the step is unknown or
 * the run has ended.
 */
async function appendEvidence(
  trx: Trx,
  principal: Principal,
  runId: string,
  stepId: string,
  evidence: Evidence,
  now: string,
): Promise<SopStepEventRecord> {
  const workspaceId = principal.workspaceId;
  const run = await sopRuns.lock(trx, workspaceId, runId);
  if (run === undefined) throw errors.notFound(RUN);
  if (!stepIdsOf(run).includes(stepId)) {
    throw new AppError('NOT_FOUND', 'Step not found in the SOP version this run follows');
  }
  if (closedStatuses.has(run.status)) throw runEnded(run, 'it accepts no more step evidence');
  await evidence.check?.(trx, run);
  const row: SopStepEventRow = {
    id: newId(),
    workspace_id: workspaceId,
    run_id: runId,
    seq: await nextEvidenceSequence(trx, workspaceId, runId, now),
    step_key: stepId,
    event_type: evidence.eventType,
    recorded_at: evidence.recordedAt === undefined ? now : toUtc(evidence.recordedAt),
    payload: JSON.stringify(evidence.payload),
    recorded_by: principal.memberId,
    created_at: now,
  };
  await sopStepEvents.insert(trx, row);
  return presentEvidence(row);
}

/** POST /sop-runs/{id}/steps/{stepId}/events: a confirmation, scan, skip, note or device state. */
export function recordStepEvent(
  trx: Trx,
  principal: Principal,
  runId: string,
  stepId: string,
  input: Static<typeof StepEventBody>,
  now: string,
): Promise<SopStepEventRecord> {
  const payload = input.payload ?? {};
  if (Buffer.byteLength(JSON.stringify(payload)) > PAYLOAD_MAX_BYTES) {
    throw errors.validation(`payload: must be at most ${PAYLOAD_MAX_BYTES} bytes as JSON`);
  }
  return appendEvidence(
    trx,
    principal,
    runId,
    stepId,
    { eventType: input.event_type, payload, recordedAt: input.recorded_at },
    now,
  );
}

const sameMetric = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** What a reading says of the range its step declares for the metric. */
export interface MeasurementCheck {
  /** Why it cannot be recorded (another unit than the step's), or null. */
  readonly problem: string | null;
  /** Why it is a deviation (outside the step's range): recorded all the same, with this warning. */
  readonly warning: string | null;
}

/**
 * A reading against what its step declares for the metric: in another unit it
 * cannot be compared and is refused; outside the range it is recorded (the spec takes
 * any number, and the deviation is what the record must show) with a warning. The
 * words name no field, as this operation's refusals don't.
 */
export function checkMeasurement(
  declared: readonly SopStepMeasurement[],
  reading: { metric: string; value: number; unit: string },
): MeasurementCheck {
  const rule = declared.find((d) => sameMetric(d.metric, reading.metric));
  if (rule === undefined) return { problem: null, warning: null };
  if (reading.unit.trim() !== rule.unit) {
    return {
      problem: `${rule.metric} must be measured in ${rule.unit} for this step, not ${reading.unit}`,
      warning: null,
    };
  }
  const below = rule.min !== null && reading.value < rule.min;
  const above = rule.max !== null && reading.value > rule.max;
  if (!below && !above) return { problem: null, warning: null };
  const range =
    rule.min !== null && rule.max !== null
      ? `from ${rule.min} to ${rule.max} ${rule.unit}`
      : rule.min !== null
        ? `at least ${rule.min} ${rule.unit}`
        : `at most ${rule.max} ${rule.unit}`;
  return {
    problem: null,
    warning: `${rule.metric} ${reading.value} ${rule.unit} is out of range: this step accepts ${range}; recorded as measured`,
  };
}

/**
 * POST /sop-runs/{id}/steps/{stepId}/measurements: joins the trail as `measured`.
 * A metric the run's step declares must come in its unit (422, nothing recorded);
 * outside the step's range it is recorded as measured, with a warning to answer in
 * `meta.warning`. Any other metric is free words, as before.
 */
export async function recordStepMeasurement(
  trx: Trx,
  principal: Principal,
  runId: string,
  stepId: string,
  input: Static<typeof StepMeasurementBody>,
  now: string,
): Promise<{ evidence: SopStepEventRecord; warning: string | null }> {
  const payload: Record<string, unknown> = {
    metric: input.metric,
    value: input.value,
    unit: input.unit,
    ...(input.notes === undefined ? {} : { notes: input.notes }),
  };
  let warning: string | null = null;
  const evidence = await appendEvidence(
    trx,
    principal,
    runId,
    stepId,
    {
      eventType: 'measured',
      payload,
      recordedAt: input.recorded_at,
      check: async (db, run) => {
        const step = await findVersionStep(db, run.workspace_id, run.sop_version_id, stepId);
        const checked = checkMeasurement(step?.measurements ?? [], input);
        if (checked.problem !== null) throw errors.validation(checked.problem);
        warning = checked.warning;
      },
    },
    now,
  );
  return { evidence, warning };
}

/**
 * POST /sop-runs/{id}/complete: closes the run with its outcome, whatever its steps
 * hold, as the spec's `complete` does; the run then lists the steps it ended
 * without (`incompleteSteps`). Only the member who started it or a manager and
 * above may; to anyone else the run does not exist (404), as to another workspace.
 * A lab that sets `sop_runs_require_all_steps` refuses to complete a run with
 * steps that have no evidence (409 SOP_RUN_STEPS_INCOMPLETE, nothing changed);
 * failing or cancelling it is always possible.
 */
export async function completeSopRun(
  trx: Trx,
  principal: Principal,
  runId: string,
  input: Static<typeof CompleteSopRunBody>,
  now: string,
): Promise<SopRunRecord> {
  const workspaceId = principal.workspaceId;
  const run = await sopRuns.lock(trx, workspaceId, runId);
  if (run === undefined || !mayChangeRecordOf(principal, run.started_by)) {
    throw errors.notFound(RUN);
  }
  if (closedStatuses.has(run.status)) throw runEnded(run, 'it cannot be closed again');
  const evidence = await evidenceOfRun(trx, workspaceId, runId);
  if (
    input.outcome === 'completed' &&
    (await getWorkspace(trx, workspaceId)).sop_runs_require_all_steps === 1
  ) {
    const steps = stepIdsOf(run);
    const missing = runSteps(run.status, steps, evidence).incomplete;
    if (missing.length > 0) {
      throw new AppError(
        'SOP_RUN_STEPS_INCOMPLETE',
        `${missing.length} of ${steps.length} steps have no evidence (${missing.join(', ')}); ` +
          'this lab completes a run only when every step has evidence: record them (a skipped ' +
          'step with its reason counts), or close the run as failed or cancelled',
      );
    }
  }
  const changes = {
    status: input.outcome,
    completed_at: input.outcome === 'completed' ? now : null,
    notes: input.notes ?? null,
    updated_at: now,
  };
  await sopRuns.update(trx, workspaceId, runId, changes);
  return presentRun({ ...run, ...changes }, evidence);
}

/**
 * GET /sop-runs/{id}: the run with its first pieces of evidence, oldest first,
 * and the cursor of the evidence list when there are more.
 */
export async function getSopRun(
  db: Db,
  workspaceId: string,
  runId: string,
  cursorAfter: (key: SortKey) => string,
): Promise<{ data: SopRunDetailRecord; meta: Static<typeof SopRunDetailMeta> }> {
  const run = await sopRuns.find(db, workspaceId, runId);
  if (run === undefined) throw errors.notFound(RUN);
  const first = await listEvidence(db, workspaceId, runId, {
    limit: EMBEDDED_EVENTS,
    offset: 0,
    after: null,
  });
  const data = {
    ...presentRun(run, await evidenceOfRun(db, workspaceId, runId)),
    events: first.items.map(presentEvidence),
  };
  return {
    data,
    meta: { events_next_cursor: first.nextKey === null ? null : cursorAfter(first.nextKey) },
  };
}

/** GET /sop-runs/{id}/events: the run's whole trail, oldest first. */
export async function listSopRunEvidence(
  db: Db,
  workspaceId: string,
  runId: string,
  page: PageRequest,
): Promise<Page<SopStepEventRecord>> {
  if ((await sopRuns.find(db, workspaceId, runId)) === undefined) throw errors.notFound(RUN);
  // A cursor carries the run it was made for: another run's cursor is not a place in this list.
  if (page.after !== null && (page.after.length !== 2 || page.after[0] !== runId)) {
    throw errors.invalidCursor();
  }
  const { items, nextKey } = await listEvidence(db, workspaceId, runId, page);
  return { items: items.map(presentEvidence), nextKey };
}

/**
 * GET /sop-runs: the workspace's runs newest first, by status, SOP, plant and
 * explant (an SOP or record that is not the workspace's answers 404), each with its
 * progress (one query for the page's evidence).
 */
export async function listSopRuns(
  db: Db,
  workspaceId: string,
  query: Static<typeof SopRunQuery>,
  records: RecordLookup,
  page: PageRequest,
): Promise<Page<SopRunRecord>> {
  if (
    query.sop_id !== undefined &&
    (await records.find(db, 'sop', workspaceId, query.sop_id)) === undefined
  ) {
    throw errors.notFound('SOP');
  }
  if (
    query.plant_id !== undefined &&
    (await records.find(db, 'plant', workspaceId, query.plant_id)) === undefined
  ) {
    throw errors.notFound('Plant');
  }
  if (
    query.explant_id !== undefined &&
    (await records.find(db, 'explant', workspaceId, query.explant_id)) === undefined
  ) {
    throw errors.notFound('Explant');
  }
  const { items, nextKey } = await listRunRows(
    db,
    workspaceId,
    {
      ...(query.status === undefined ? {} : { status: query.status }),
      ...(query.sop_id === undefined ? {} : { sopId: query.sop_id }),
      ...(query.plant_id === undefined ? {} : { plantId: query.plant_id }),
      ...(query.explant_id === undefined ? {} : { explantId: query.explant_id }),
    },
    page,
  );
  const evidence = await stepEvidenceOf(
    db,
    workspaceId,
    items.map((run) => run.id),
  );
  return { items: items.map((run) => presentRun(run, evidence.get(run.id)!)), nextKey };
}

const runRefOf = (row: SopRunRow | undefined): RecordRef | undefined =>
  row === undefined ? undefined : { id: row.id, created_by: row.started_by };

/** SOP runs as records other modules name (an equipment `used` event's `sop_log` subject). */
export const sopRunRecords: RecordSource = {
  find: async (db, workspaceId, id) => runRefOf(await sopRuns.find(db, workspaceId, id)),
  lock: async (trx, workspaceId, id) => runRefOf(await sopRuns.lock(trx, workspaceId, id)),
};
