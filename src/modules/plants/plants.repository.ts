import type { Db } from '../../db/database.js';
import { isPostgres } from '../../db/database.js';
import { pick, preparedQuery } from '../../db/prepared.js';
import type { PlantTable } from '../../db/schema.js';
import { keysetAfter, type KeyValue, type PageRequest } from '../../kernel/paging.js';

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

const insertPlantRow = preparedQuery((db, p: PlantRow) =>
  db.insertInto('plants').values(pick(p, COLUMNS)),
);

export async function insertPlant(db: Db, row: PlantRow): Promise<void> {
  await insertPlantRow.run(db, row);
}

const plantById = (lock: boolean) =>
  preparedQuery((db, p: { workspaceId: string; id: string }) => {
    const query = db
      .selectFrom('plants')
      .select(COLUMNS)
      .where('workspace_id', '=', p.workspaceId)
      .where('id', '=', p.id)
      .where('deleted_at', 'is', null);
    return lock && isPostgres(db) ? query.forNoKeyUpdate() : query;
  });
const plantByIdLocked = plantById(true);
const plantByIdUnlocked = plantById(false);

export async function findPlant(
  db: Db,
  workspaceId: string,
  id: string,
  lock = false,
): Promise<PlantRow | undefined> {
  return (lock ? plantByIdLocked : plantByIdUnlocked).first(db, { workspaceId, id });
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

const plantPage = preparedQuery((db, p: { workspaceId: string; limit: number; offset: number }) =>
  db
    .selectFrom('plants')
    .select(COLUMNS)
    .where('workspace_id', '=', p.workspaceId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(p.limit)
    .offset(p.offset),
);

const plantPageAfter = preparedQuery(
  (db, p: { workspaceId: string; limit: number; createdAt: KeyValue; id: KeyValue }) =>
    db
      .selectFrom('plants')
      .select(COLUMNS)
      .where('workspace_id', '=', p.workspaceId)
      .where('deleted_at', 'is', null)
      .where(keysetAfter(['created_at', 'id'], 'desc', [p.createdAt, p.id]))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(p.limit),
);

/** Newest first; `limit + 1` rows so the caller can tell whether a next page exists. */
export async function listPlants(
  db: Db,
  workspaceId: string,
  page: PageRequest,
): Promise<PlantRow[]> {
  const limit = page.limit + 1;
  if (page.after === null) return plantPage.all(db, { workspaceId, limit, offset: page.offset });
  const [createdAt = null, id = null] = page.after;
  return plantPageAfter.all(db, { workspaceId, limit, createdAt, id });
}
