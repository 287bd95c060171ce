import type { Db, Trx } from '../../db/database.js';
import {
  fetchPage,
  NEWEST_FIRST,
  type Ordering,
  type Page,
  type PageRequest,
} from '../../db/pages.js';
import { preparedQuery } from '../../db/prepared.js';
import type { SopRunTable, SopStepEventTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';

export type SopRunRow = SopRunTable;
export type SopStepEventRow = SopStepEventTable;

const RUN_COLUMNS = [
  'id',
  'workspace_id',
  'sop_id',
  'sop_version_id',
  'version',
  'step_ids',
  'status',
  'batch_code',
  'plant_id',
  'explant_id',
  'notes',
  'started_by',
  'started_at',
  'completed_at',
  'event_seq',
  'created_at',
  'updated_at',
] as const;

/** Runs by id, locked while evidence is added or the run is closed, inserted, updated. */
export const sopRuns = workspaceTable('sop_runs', RUN_COLUMNS);

const EVENT_COLUMNS = [
  'id',
  'workspace_id',
  'run_id',
  'seq',
  'step_key',
  'event_type',
  'recorded_at',
  'payload',
  'recorded_by',
  'created_at',
] as const;

/** Step evidence: inserted, never updated or deleted. */
export const sopStepEvents = workspaceTable('sop_step_events', EVENT_COLUMNS);

const bumpSequence = preparedQuery((db, p: { workspaceId: string; runId: string; now: string }) =>
  db
    .updateTable('sop_runs')
    .set((eb) => ({ event_seq: eb('event_seq', '+', 1), updated_at: p.now }))
    .where('workspace_id', '=', p.workspaceId)
    .where('id', '=', p.runId)
    .returning(['event_seq']),
);

/**
 * Takes the run's next evidence sequence number (and marks the run updated). The
 * caller holds the run's lock, so evidence of one run is numbered in the order it
 * commits, whatever its `recorded_at`.
 */
export async function nextEvidenceSequence(
  trx: Trx,
  workspaceId: string,
  runId: string,
  now: string,
): Promise<number> {
  const row = await bumpSequence.first(trx, { workspaceId, runId, now });
  if (row === undefined) throw new Error(`SOP run ${runId} does not exist`);
  return Number(row.event_seq);
}

/** What a run's evidence says of one step: the kinds posted to it, and its latest skip's payload. */
export interface StepEvidence {
  readonly types: Set<string>;
  skipPayload: string | null;
}

/**
 * For each of `runIds`, each step that has evidence with the kinds of evidence it
 * has and the payload of its latest `skipped` event (two queries for any number of
 * runs: the distinct kinds, and the payloads of skips alone).
 */
export async function stepEvidenceOf(
  db: Db,
  workspaceId: string,
  runIds: readonly string[],
): Promise<Map<string, Map<string, StepEvidence>>> {
  const byRun = new Map<string, Map<string, StepEvidence>>(runIds.map((id) => [id, new Map()]));
  if (runIds.length === 0) return byRun;
  const kinds = await db
    .selectFrom('sop_step_events')
    .select(['run_id', 'step_key', 'event_type'])
    .distinct()
    .where('workspace_id', '=', workspaceId)
    .where('run_id', 'in', [...runIds])
    .execute();
  for (const row of kinds) {
    const steps = byRun.get(row.run_id);
    if (steps === undefined) continue;
    const step = steps.get(row.step_key) ?? { types: new Set<string>(), skipPayload: null };
    step.types.add(row.event_type);
    steps.set(row.step_key, step);
  }
  if (!kinds.some((row) => row.event_type === 'skipped')) return byRun;
  const skips = await db
    .selectFrom('sop_step_events')
    .select(['run_id', 'step_key', 'payload'])
    .where('workspace_id', '=', workspaceId)
    .where('run_id', 'in', [...runIds])
    .where('event_type', '=', 'skipped')
    .orderBy('seq')
    .execute();
  for (const row of skips) {
    const step = byRun.get(row.run_id)?.get(row.step_key);
    if (step !== undefined) step.skipPayload = row.payload;
  }
  return byRun;
}

export interface RunFilters {
  readonly status?: string;
  readonly sopId?: string;
  readonly plantId?: string;
  readonly explantId?: string;
}

/**
 * A page of the workspace's runs, newest first (created_at, id); each filter has
 * its index (workspace_id, status | sop_id | plant_id | explant_id, created_at, id).
 */
export function listRunRows(
  db: Db,
  workspaceId: string,
  filters: RunFilters,
  page: PageRequest,
): Promise<Page<SopRunRow>> {
  let query = db.selectFrom('sop_runs').select(RUN_COLUMNS).where('workspace_id', '=', workspaceId);
  if (filters.status !== undefined) query = query.where('status', '=', filters.status);
  if (filters.sopId !== undefined) query = query.where('sop_id', '=', filters.sopId);
  if (filters.plantId !== undefined) query = query.where('plant_id', '=', filters.plantId);
  if (filters.explantId !== undefined) query = query.where('explant_id', '=', filters.explantId);
  return fetchPage(query, NEWEST_FIRST, page);
}

/**
 * The trail's order: oldest first by the run's sequence. The run id leads the key,
 * so a cursor names the run it was made for.
 */
export const TRAIL_ORDER: Ordering = { columns: ['run_id', 'seq'], direction: 'asc' };

export function listEvidence(
  db: Db,
  workspaceId: string,
  runId: string,
  page: PageRequest,
): Promise<Page<SopStepEventRow>> {
  return fetchPage(
    db
      .selectFrom('sop_step_events')
      .select(EVENT_COLUMNS)
      .where('workspace_id', '=', workspaceId)
      .where('run_id', '=', runId),
    TRAIL_ORDER,
    page,
  );
}
