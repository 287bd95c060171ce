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

const stageDefinitions = preparedQuery((db, p: { workspaceId: string; entityType: string }) =>
  db
    .selectFrom('stage_definitions')
    .select(['workspace_id', 'entity_type', 'key', 'name', 'position'])
    .where('workspace_id', '=', p.workspaceId)
    .where('entity_type', '=', p.entityType)
    .orderBy('position'),
);

export async function listStageDefinitions(
  db: Db,
  workspaceId: string,
  entityType: string,
): Promise<StageDefinitionRow[]> {
  return stageDefinitions.all(db, { workspaceId, entityType });
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

export async function replaceCustomFieldDefinitions(
  trx: Trx,
  workspaceId: string,
  rows: readonly CustomFieldDefinitionRow[],
): Promise<void> {
  await trx
    .deleteFrom('custom_field_definitions')
    .where('workspace_id', '=', workspaceId)
    .execute();
  if (rows.length > 0)
    await trx
      .insertInto('custom_field_definitions')
      .values([...rows])
      .execute();
}

/** Rooms by id within a workspace; ids another workspace holds. */
export const rooms = workspaceTable('rooms', ['id', 'workspace_id', 'name', 'created_at']);

export async function upsertRoom(trx: Trx, row: RoomRow): Promise<void> {
  await trx
    .insertInto('rooms')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet({ name: row.name }))
    .execute();
}

/** Rooms by name, then id. */
const ROOMS_BY_NAME: Ordering = { columns: ['name', 'id'], direction: 'asc' };

export function listRoomRows(
  db: Db,
  workspaceId: string,
  page: PageRequest,
): Promise<Page<RoomRow>> {
  return fetchPage(
    db
      .selectFrom('rooms')
      .select(['id', 'workspace_id', 'name', 'created_at'])
      .where('workspace_id', '=', workspaceId),
    ROOMS_BY_NAME,
    page,
  );
}
