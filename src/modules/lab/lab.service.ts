import type { Db, Trx } from '../../db/database.js';
import type { Page, PageRequest } from '../../db/pages.js';
import { errors } from '../../kernel/errors.js';
import {
  listCustomFieldDefinitions,
  type CustomFieldDefinitionRow,
  listRoomRows,
  listStageDefinitions,
  replaceCustomFieldDefinitions,
  replaceStageDefinitions,
  rooms,
  upsertRoom,
  type RoomRow,
} from './lab.repository.js';

/*
 * The lab's setup: its rooms, its stage lists and the custom fields it defines for
 * each kind of record, as an import or a new workspace sets them. What records do
 * with them (stage keys, custom field values) is in modules/records/.
 */

/** The kinds of record that have a stage list. */
export type StageEntity = 'plant' | 'explant';

/** One stage of a list: its key and its display name. */
export interface StageOption {
  readonly key: string;
  readonly name: string;
}

export const CUSTOM_FIELD_ENTITIES = ['plant', 'explant', 'transfer', 'contamination'] as const;
export type CustomFieldEntity = (typeof CUSTOM_FIELD_ENTITIES)[number];
export const CUSTOM_FIELD_TYPES = ['text', 'number', 'boolean', 'date', 'select'] as const;

/** Replaces a workspace's stage list for one kind, in the given order. */
export async function setStageList(
  trx: Trx,
  workspaceId: string,
  entity: StageEntity,
  options: readonly StageOption[],
): Promise<void> {
  await replaceStageDefinitions(
    trx,
    workspaceId,
    entity,
    options.map((option, position) => ({
      workspace_id: workspaceId,
      entity_type: entity,
      key: option.key,
      name: option.name,
      position,
    })),
  );
}

export interface CustomFieldDefinition {
  entity: CustomFieldEntity;
  key: string;
  type: string;
  options: readonly string[] | null;
}

/** Replaces all of a workspace's custom field definitions (order kept per kind). */
export async function setCustomFieldDefinitions(
  trx: Trx,
  workspaceId: string,
  fields: readonly CustomFieldDefinition[],
): Promise<void> {
  await replaceCustomFieldDefinitions(
    trx,
    workspaceId,
    fields.map((field, index) => ({
      workspace_id: workspaceId,
      entity_type: field.entity,
      key: field.key,
      type: field.type,
      options: field.options === null ? null : JSON.stringify(field.options),
      position: fields.slice(0, index).filter((f) => f.entity === field.entity).length,
    })),
  );
}

export async function saveRoom(
  trx: Trx,
  room: { id: string; workspaceId: string; name: string; createdAt: string },
): Promise<void> {
  await upsertRoom(trx, {
    id: room.id,
    workspace_id: room.workspaceId,
    name: room.name,
    created_at: room.createdAt,
  });
}

export async function stageOptions(
  db: Db,
  workspaceId: string,
  entity: StageEntity,
): Promise<StageOption[]> {
  const rows = await listStageDefinitions(db, workspaceId, entity);
  return rows.map((row) => ({ key: row.key, name: row.name }));
}

/** The workspace's rooms, by name. */
export function listRooms(db: Db, workspaceId: string, page: PageRequest): Promise<Page<RoomRow>> {
  return listRoomRows(db, workspaceId, page);
}

/** A room of the workspace (404 for any other). */
export async function getRoom(db: Db, workspaceId: string, roomId: string): Promise<RoomRow> {
  const room = await rooms.find(db, workspaceId, roomId);
  if (room === undefined) throw errors.notFound('Room');
  return room;
}

/** Whether the room belongs to the workspace. */
export async function hasRoom(db: Db, workspaceId: string, roomId: string): Promise<boolean> {
  return (await rooms.find(db, workspaceId, roomId)) !== undefined;
}

/** Throws 404 unless the room belongs to the workspace. */
export async function requireRoom(db: Db, workspaceId: string, roomId: string): Promise<void> {
  const room = await rooms.find(db, workspaceId, roomId);
  if (room === undefined) throw errors.notFound('Room');
}

/** The custom fields the lab defines for one kind of record, in order. */
export function customFieldDefinitions(
  db: Db,
  workspaceId: string,
  entity: CustomFieldEntity,
): Promise<CustomFieldDefinitionRow[]> {
  return listCustomFieldDefinitions(db, workspaceId, entity);
}
