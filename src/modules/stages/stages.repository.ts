import type { Db } from '../../db/database.js';
import { pick, preparedQuery } from '../../db/prepared.js';
import type { StageTable } from '../../db/schema.js';
import { keysetAfter, type PageRequest } from '../../kernel/paging.js';

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

const insertStageRow = preparedQuery((db, p: StageRow) =>
  db.insertInto('stages').values(pick(p, COLUMNS)),
);

export async function insertStage(db: Db, row: StageRow): Promise<void> {
  await insertStageRow.run(db, row);
}

export async function findActiveStage(
  db: Db,
  workspaceId: string,
  entityType: string,
  entityId: string,
): Promise<StageRow | undefined> {
  return db
    .selectFrom('stages')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('entity_type', '=', entityType)
    .where('entity_id', '=', entityId)
    .where('status', '=', 'active')
    .executeTakeFirst();
}

export async function completeStage(
  db: Db,
  workspaceId: string,
  id: string,
  completedAt: string,
): Promise<void> {
  await db
    .updateTable('stages')
    .set({ status: 'completed', completed_at: completedAt })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** The earliest `entered_on` after `enteredOn` among a record's stages, if any. */
export async function nextEnteredOnAfter(
  db: Db,
  workspaceId: string,
  entityType: string,
  entityId: string,
  enteredOn: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('stages')
    .select('entered_on')
    .where('workspace_id', '=', workspaceId)
    .where('entity_type', '=', entityType)
    .where('entity_id', '=', entityId)
    .where('entered_on', '>', enteredOn)
    .orderBy('entered_on', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row?.entered_on ?? null;
}

export async function listStages(
  db: Db,
  workspaceId: string,
  entityType: string,
  entityId: string,
  page: PageRequest,
): Promise<StageRow[]> {
  let query = db
    .selectFrom('stages')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('entity_type', '=', entityType)
    .where('entity_id', '=', entityId);
  if (page.after !== null)
    query = query.where(keysetAfter(['entered_on', 'id'], 'desc', page.after));
  return query
    .orderBy('entered_on', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .offset(page.after === null ? page.offset : 0)
    .execute();
}
