import { inTransaction } from '../../src/db/transaction.js';
import type { Database } from '../../src/db/database.js';
import { newId } from '../../src/kernel/ids.js';
import { importLabData } from '../../src/modules/import/import.service.js';
import { createRecordLookup } from '../../src/modules/index.js';
import { type Client, dataOf, type Json } from '../support/helpers.js';

/** Fields of the camelCase SOP responses, as resources.md lists them plus Vitro's additions. */
export const SOP_SUMMARY_KEYS = [
  'category',
  'createdAt',
  'currentVersion',
  'description',
  'durationHours',
  'equipment',
  'estimatedTimeMinutes',
  'id',
  'level',
  'status',
  'tags',
  'title',
  'updatedAt',
];
export const SOP_RUN_KEYS = [
  'batchCode',
  'completedAt',
  'explantId',
  'id',
  'incompleteSteps',
  'notes',
  'plantId',
  'progress',
  'skippedSteps',
  'sopId',
  'startedAt',
  'startedBy',
  'status',
  'statusDetail',
  'stepCount',
  'steps',
  'updatedAt',
  'version',
  'versionId',
];
export const EVIDENCE_KEYS = [
  'createdAt',
  'eventType',
  'id',
  'payload',
  'recordedAt',
  'recordedBy',
  'runId',
  'stepKey',
];

const step = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `step-${n}`,
  instruction: `Instruction ${n}`,
  ...extra,
});

/**
 * An SOP with a superseded version 1 (steps 1-2), version 2 in force (steps 1-3)
 * and a draft version 3 (steps 1, 2 and 4); fresh ids on every call.
 */
export function subcultureSop(title = 'Subculture') {
  const ids = { sop: newId(), v1: newId(), v2: newId(), v3: newId() };
  const sop = {
    id: ids.sop,
    title,
    description: 'Dividing shoot clusters',
    category: 'tissue-culture',
    status: 'active',
    level: 'intermediate',
    tags: ['aseptic', 'subculture'],
    equipment: ['laminar flow hood'],
    estimated_time_minutes: 45,
    duration_hours: null,
    versions: [
      {
        id: ids.v1,
        version: 1,
        lifecycle_status: 'superseded',
        effective_at: '2026-01-01T08:00:00Z',
        approved_at: '2025-12-30T08:00:00Z',
        steps: [step(1), step(2)],
      },
      {
        id: ids.v2,
        version: 2,
        lifecycle_status: 'effective',
        effective_at: '2026-06-01T08:00:00+02:00',
        approved_at: null,
        title: 'Subculture v2',
        description: 'Adds step 3',
        steps: [
          step(1, { safety_warning: 'Ethanol is flammable', estimated_minutes: 15 }),
          step(2, { notes: 'Cool the tools first' }),
          step(3),
        ],
      },
      {
        id: ids.v3,
        version: 3,
        lifecycle_status: 'draft',
        steps: [step(1), step(2), step(4)],
      },
    ],
  };
  return { ids, sop };
}

/** `vitro import` of these SOPs into a workspace, at `now` when given. */
export async function importSops(
  database: Database,
  workspaceId: string,
  sops: unknown[],
  now?: string,
) {
  return inTransaction(database.db, (trx) =>
    importLabData(trx, workspaceId, { sops }, createRecordLookup(), now),
  );
}

export async function startRun(c: Client, fields: Record<string, unknown>): Promise<Json> {
  return dataOf(await c.post('/api/v1/sop-runs', fields), 201);
}

export async function postEvent(
  c: Client,
  runId: string,
  stepId: string,
  fields: Record<string, unknown> = { event_type: 'confirmed' },
): Promise<Json> {
  return dataOf(await c.post(`/api/v1/sop-runs/${runId}/steps/${stepId}/events`, fields), 201);
}

/** Rows of a workspace's SOP tables, to prove a refused write changed nothing. */
export async function runRows(database: Database, workspaceId: string) {
  const runs = await database.db
    .selectFrom('sop_runs')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('id')
    .execute();
  const events = await database.db
    .selectFrom('sop_step_events')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('id')
    .execute();
  return { runs, events };
}
