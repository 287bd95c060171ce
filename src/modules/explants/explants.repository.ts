import type { Db } from '../../db/database.js';
import { isPostgres } from '../../db/database.js';
import { pick, preparedQuery } from '../../db/prepared.js';
import type { ExplantTable } from '../../db/schema.js';
import { keysetAfter, type KeyValue, type PageRequest } from '../../kernel/paging.js';

export type ExplantRow = ExplantTable;

const COLUMNS = [
  'id',
  'workspace_id',
  'plant_id',
  'label',
  'label_key',
  'batch_number',
  'batch_number_key',
  'notes',
  'status',
  'external_id',
  'external_id_key',
  'initial_count',
  'current_count',
  'plantlet_count',
  'custom_fields',
  'created_by',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;

export type ExplantChanges = Partial<
  Omit<ExplantRow, 'id' | 'workspace_id' | 'created_at' | 'created_by' | 'plant_id'>
>;

const insertExplantRow = preparedQuery((db, p: ExplantRow) =>
  db.insertInto('explants').values(pick(p, COLUMNS)),
);

export async function insertExplant(db: Db, row: ExplantRow): Promise<void> {
  await insertExplantRow.run(db, row);
}

const explantById = (lock: boolean) =>
  preparedQuery((db, p: { workspaceId: string; id: string }) => {
    const query = db
      .selectFrom('explants')
      .select(COLUMNS)
      .where('workspace_id', '=', p.workspaceId)
      .where('id', '=', p.id)
      .where('deleted_at', 'is', null);
    return lock && isPostgres(db) ? query.forNoKeyUpdate() : query;
  });
const explantByIdLocked = explantById(true);
const explantByIdUnlocked = explantById(false);

export async function findExplant(
  db: Db,
  workspaceId: string,
  id: string,
  lock = false,
): Promise<ExplantRow | undefined> {
  return (lock ? explantByIdLocked : explantByIdUnlocked).first(db, { workspaceId, id });
}

export async function updateExplant(
  db: Db,
  workspaceId: string,
  id: string,
  changes: ExplantChanges,
): Promise<void> {
  await db
    .updateTable('explants')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** Whether an external id (lower-cased) is taken in the workspace, deleted explants included. */
export async function explantExternalIdTaken(
  db: Db,
  workspaceId: string,
  key: string,
  exceptId: string | null,
): Promise<boolean> {
  let query = db
    .selectFrom('explants')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('external_id_key', '=', key);
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Newest explant whose lower-cased `column` equals `key`. */
export async function findExplantByKey(
  db: Db,
  workspaceId: string,
  column: 'external_id_key' | 'batch_number_key' | 'label_key',
  key: string,
): Promise<ExplantRow | undefined> {
  return db
    .selectFrom('explants')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where(column, '=', key)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

const explantPage = preparedQuery((db, p: { workspaceId: string; limit: number; offset: number }) =>
  db
    .selectFrom('explants')
    .select(COLUMNS)
    .where('workspace_id', '=', p.workspaceId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(p.limit)
    .offset(p.offset),
);

const explantPageAfter = preparedQuery(
  (db, p: { workspaceId: string; limit: number; createdAt: KeyValue; id: KeyValue }) =>
    db
      .selectFrom('explants')
      .select(COLUMNS)
      .where('workspace_id', '=', p.workspaceId)
      .where('deleted_at', 'is', null)
      .where(keysetAfter(['created_at', 'id'], 'desc', [p.createdAt, p.id]))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(p.limit),
);

/** Newest first; `limit + 1` rows so the caller can tell whether a next page exists. */
export async function listExplants(
  db: Db,
  workspaceId: string,
  page: PageRequest,
): Promise<ExplantRow[]> {
  const limit = page.limit + 1;
  if (page.after === null) return explantPage.all(db, { workspaceId, limit, offset: page.offset });
  const [createdAt = null, id = null] = page.after;
  return explantPageAfter.all(db, { workspaceId, limit, createdAt, id });
}
