import type { Db, Trx } from '../../db/database.js';
import { bulkInsert } from '../../db/bulk-insert.js';
import { fetchPage, type Ordering, type Page, type PageRequest } from '../../db/pages.js';
import type { StageTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';

export type StageRow = StageTable;

const COLUMNS = [
  'id',
  'workspace_id',
  'entity_type',
  'entity_id',
  'stage',
  'status',
  'entered_on',
  'completed_at',
  'room_id',
  'notes',
  'created_by',
  'created_at',
] as const;

export const stages = workspaceTable('stages', COLUMNS);

/** A record's stages, newest first by when they were entered; ties in a fixed order. */
const BY_ENTERED_ON: Ordering = { columns: ['entered_on', 'id'], direction: 'desc' };

const stagesOfRecord = (db: Db, workspaceId: string, entityType: string, entityId: string) =>
  db
    .selectFrom('stages')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('entity_type', '=', entityType)
    .where('entity_id', '=', entityId);

export async function findActiveStage(
  db: Db,
  workspaceId: string,
  entityType: string,
  entityId: string,
): Promise<StageRow | undefined> {
  return stagesOfRecord(db, workspaceId, entityType, entityId)
    .where('status', '=', 'active')
    .executeTakeFirst();
}

export async function completeStage(
  trx: Trx,
  workspaceId: string,
  id: string,
  completedAt: string,
): Promise<void> {
  await stages.update(trx, workspaceId, id, { status: 'completed', completed_at: completedAt });
}

/** The stage a record was in at `at`: the latest one entered on or before it. */
export async function findStageAt(
  db: Db,
  workspaceId: string,
  entityType: string,
  entityId: string,
  at: string,
): Promise<StageRow | undefined> {
  return stagesOfRecord(db, workspaceId, entityType, entityId)
    .where('entered_on', '<=', at)
    .orderBy('entered_on', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The earliest `entered_on` after `enteredOn` among a record's stages, if any. */
export async function nextEnteredOnAfter(
  db: Db,
  workspaceId: string,
  entityType: string,
  entityId: string,
  enteredOn: string,
): Promise<string | null> {
  const row = await stagesOfRecord(db, workspaceId, entityType, entityId)
    .where('entered_on', '>', enteredOn)
    .orderBy('entered_on', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row?.entered_on ?? null;
}

export function listStages(
  db: Db,
  workspaceId: string,
  entityType: string,
  entityId: string,
  page: PageRequest,
): Promise<Page<StageRow>> {
  return fetchPage(stagesOfRecord(db, workspaceId, entityType, entityId), BY_ENTERED_ON, page);
}

const insertStageRows = bulkInsert('stages', {
  id: 'text',
  workspace_id: 'text',
  entity_type: 'text',
  entity_id: 'text',
  stage: 'text',
  status: 'text',
  entered_on: 'text',
  completed_at: 'text',
  room_id: 'text',
  notes: 'text',
  created_by: 'text',
  created_at: 'text',
});

/** Many stage rows at once (new records' first stages). */
export async function insertStages(trx: Trx, rows: readonly StageRow[]): Promise<void> {
  await insertStageRows.run(trx, rows);
}
