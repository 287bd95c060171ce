import type { Db } from '../../db/database.js';
import { isPostgres } from '../../db/database.js';
import type { PlantTable } from '../../db/schema.js';
import { keysetAfter, type PageRequest } from '../../kernel/paging.js';

export type PlantRow = PlantTable;

const COLUMNS = [
  'id',
  'workspace_id',
  'species',
  'common_name',
  'genus',
  'family',
  'cultivar',
  'source',
  'notes',
  'status',
  'external_id',
  'external_id_key',
  'custom_fields',
  'created_by',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;

export type PlantChanges = Partial<
  Omit<PlantRow, 'id' | 'workspace_id' | 'created_at' | 'created_by'>
>;

export async function insertPlant(db: Db, row: PlantRow): Promise<void> {
  await db.insertInto('plants').values(row).execute();
}

export async function findPlant(
  db: Db,
  workspaceId: string,
  id: string,
  lock = false,
): Promise<PlantRow | undefined> {
  const query = db
    .selectFrom('plants')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  return (lock && isPostgres(db) ? query.forNoKeyUpdate() : query).executeTakeFirst();
}

export async function updatePlant(
  db: Db,
  workspaceId: string,
  id: string,
  changes: PlantChanges,
): Promise<void> {
  await db
    .updateTable('plants')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** Whether an external id (lower-cased) is taken in the workspace, deleted plants included. */
export async function externalIdTaken(
  db: Db,
  workspaceId: string,
  key: string,
  exceptId: string | null,
): Promise<boolean> {
  let query = db
    .selectFrom('plants')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('external_id_key', '=', key);
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function findPlantByExternalKey(
  db: Db,
  workspaceId: string,
  key: string,
): Promise<PlantRow | undefined> {
  return db
    .selectFrom('plants')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('external_id_key', '=', key)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function listPlants(
  db: Db,
  workspaceId: string,
  page: PageRequest,
): Promise<PlantRow[]> {
  let query = db
    .selectFrom('plants')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null);
  if (page.after !== null)
    query = query.where(keysetAfter(['created_at', 'id'], 'desc', page.after));
  return query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .offset(page.after === null ? page.offset : 0)
    .execute();
}
