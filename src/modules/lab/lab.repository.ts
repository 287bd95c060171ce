import type { Db, Trx } from '../../db/database.js';
import { fetchPage, type Ordering, type Page, type PageRequest } from '../../db/pages.js';
import { preparedQuery } from '../../db/prepared.js';
import { workspaceTable } from '../../db/tables.js';
import type {
  CustomFieldDefinitionTable,
  RoomTable,
  StageDefinitionTable,
} from '../../db/schema.js';

export type StageDefinitionRow = StageDefinitionTable;
export type CustomFieldDefinitionRow = CustomFieldDefinitionTable;
export type RoomRow = RoomTable;

const STAGE_COLUMNS = [
  'workspace_id',
  'entity_type',
  'key',
  'name',
  'position',
  'retired',
] as const;

/** The stages records may enter (retired ones left out), in order. */
const stageDefinitions = preparedQuery((db, p: { workspaceId: string; entityType: string }) =>
  db
    .selectFrom('stage_definitions')
    .select(STAGE_COLUMNS)
    .where('workspace_id', '=', p.workspaceId)
    .where('entity_type', '=', p.entityType)
    .where('retired', '=', 0)
    .orderBy('position'),
);

export async function listStageDefinitions(
  db: Db,
  workspaceId: string,
  entityType: string,
): Promise<StageDefinitionRow[]> {
  return stageDefinitions.all(db, { workspaceId, entityType });
}

/** Every stage of a list, the retired ones too, in order. */
export async function listAllStageDefinitions(
  db: Db,
  workspaceId: string,
  entityType: string,
): Promise<StageDefinitionRow[]> {
  return db
    .selectFrom('stage_definitions')
    .select(STAGE_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('entity_type', '=', entityType)
    .orderBy('position')
    .execute();
}

export async function replaceStageDefinitions(
  trx: Trx,
  workspaceId: string,
  entityType: string,
  rows: readonly StageDefinitionRow[],
): Promise<void> {
  await trx
    .deleteFrom('stage_definitions')
    .where('workspace_id', '=', workspaceId)
    .where('entity_type', '=', entityType)
    .execute();
  if (rows.length > 0)
    await trx
      .insertInto('stage_definitions')
      .values([...rows])
      .execute();
}

/** Every custom field definition of the workspace, by kind and position. */
export async function listAllCustomFieldDefinitions(
  db: Db,
  workspaceId: string,
): Promise<CustomFieldDefinitionRow[]> {
  return db
    .selectFrom('custom_field_definitions')
    .select(['workspace_id', 'entity_type', 'key', 'type', 'options', 'position'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('entity_type')
    .orderBy('position')
    .execute();
}

export async function listCustomFieldDefinitions(
  db: Db,
  workspaceId: string,
  entityType: string,
): Promise<CustomFieldDefinitionRow[]> {
  return db
    .selectFrom('custom_field_definitions')
    .select(['workspace_id', 'entity_type', 'key', 'type', 'options', 'position'])
    .where('workspace_id', '=', workspaceId)
    .where('entity_type', '=', entityType)
    .orderBy('position')
    .execute();
}

/** Replaces the definitions of these kinds of record with `rows`. */
export async function replaceCustomFieldDefinitions(
  trx: Trx,
  workspaceId: string,
  entityTypes: readonly string[],
  rows: readonly CustomFieldDefinitionRow[],
): Promise<void> {
  if (entityTypes.length === 0) return;
  await trx
    .deleteFrom('custom_field_definitions')
    .where('workspace_id', '=', workspaceId)
    .where('entity_type', 'in', [...entityTypes])
    .execute();
  if (rows.length > 0)
    await trx
      .insertInto('custom_field_definitions')
      .values([...rows])
      .execute();
}

const ROOM_COLUMNS = ['id', 'workspace_id', 'name', 'created_at', 'archived_at'] as const;

/** Rooms by id within a workspace; ids another workspace holds. */
export const rooms = workspaceTable('rooms', ROOM_COLUMNS);

export async function upsertRoom(trx: Trx, row: RoomRow): Promise<void> {
  await trx
    .insertInto('rooms')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet({ name: row.name }))
    .execute();
}

/** The rooms of the workspace with exactly this name (a room's natural key), archived ones too. */
export function findRoomsByName(db: Db, workspaceId: string, name: string): Promise<RoomRow[]> {
  return db
    .selectFrom('rooms')
    .select(ROOM_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('name', '=', name)
    .orderBy('id')
    .execute();
}

/** Rooms by name, then id. */
const ROOMS_BY_NAME: Ordering = { columns: ['name', 'id'], direction: 'asc' };

export function listRoomRows(
  db: Db,
  workspaceId: string,
  archived: 'exclude' | 'include' | 'only',
  page: PageRequest,
): Promise<Page<RoomRow>> {
  let query = db.selectFrom('rooms').select(ROOM_COLUMNS).where('workspace_id', '=', workspaceId);
  if (archived === 'exclude') query = query.where('archived_at', 'is', null);
  if (archived === 'only') query = query.where('archived_at', 'is not', null);
  return fetchPage(query, ROOMS_BY_NAME, page);
}

/** Every room of the workspace, archived ones too. */
export function listAllRooms(db: Db, workspaceId: string): Promise<RoomRow[]> {
  return db
    .selectFrom('rooms')
    .select(ROOM_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .execute();
}
