import type { Db, Trx } from '../../db/database.js';
import type { Page, PageRequest } from '../../db/pages.js';
import { errors } from '../../kernel/errors.js';
import {
  findRoomsByName,
  listAllStageDefinitions,
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
import {
  CUSTOM_FIELD_ENTITIES,
  CUSTOM_FIELD_TYPES,
  type CustomFieldEntity,
} from './lab.schemas.js';
import { indexForSearch } from '../search/index.js';

export { CUSTOM_FIELD_ENTITIES, CUSTOM_FIELD_TYPES, type CustomFieldEntity };

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

/**
 * Replaces a workspace's stage list for one kind: `options` in the given order,
 * then the `retired` stages (kept for the history of records that were in them).
 */
export async function setStageList(
  trx: Trx,
  workspaceId: string,
  entity: StageEntity,
  options: readonly StageOption[],
  retired: readonly StageOption[] = [],
): Promise<void> {
  const row = (option: StageOption, position: number, isRetired: boolean) => ({
    workspace_id: workspaceId,
    entity_type: entity,
    key: option.key,
    name: option.name,
    position,
    retired: isRetired ? 1 : 0,
  });
  await replaceStageDefinitions(trx, workspaceId, entity, [
    ...options.map((option, position) => row(option, position, false)),
    ...retired.map((option, i) => row(option, options.length + i, true)),
  ]);
}

/** A kind's stages: those records may enter, in order, and the retired ones. */
export async function stageList(
  db: Db,
  workspaceId: string,
  entity: StageEntity,
): Promise<{ active: StageOption[]; retired: StageOption[] }> {
  const rows = await listAllStageDefinitions(db, workspaceId, entity);
  const option = (row: { key: string; name: string }) => ({ key: row.key, name: row.name });
  return {
    active: rows.filter((row) => row.retired === 0).map(option),
    retired: rows.filter((row) => row.retired !== 0).map(option),
  };
}

export interface CustomFieldDefinition {
  entity: CustomFieldEntity;
  key: string;
  type: string;
  options: readonly string[] | null;
}

/**
 * Replaces a workspace's custom field definitions of the kinds named (all kinds
 * by default) with `fields`, order kept per kind.
 */
export async function setCustomFieldDefinitions(
  trx: Trx,
  workspaceId: string,
  fields: readonly CustomFieldDefinition[],
  entities: readonly CustomFieldEntity[] = CUSTOM_FIELD_ENTITIES,
): Promise<void> {
  await replaceCustomFieldDefinitions(
    trx,
    workspaceId,
    entities,
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

/** What GET /search finds of a room. */
function indexRoom(trx: Trx, room: RoomRow): Promise<void> {
  return indexForSearch(trx, {
    kind: 'room',
    id: room.id,
    workspaceId: room.workspace_id,
    title: room.name,
    subtitle: null,
    names: [room.name],
    fields: [],
    archived: room.archived_at !== null,
  });
}

/** Inserts the room or renames it (an import's upsert by id); archiving is left as it is. */
export async function saveRoom(
  trx: Trx,
  room: { id: string; workspaceId: string; name: string; createdAt: string },
): Promise<void> {
  await upsertRoom(trx, {
    id: room.id,
    workspace_id: room.workspaceId,
    name: room.name,
    created_at: room.createdAt,
    archived_at: null,
  });
  const saved = await rooms.find(trx, room.workspaceId, room.id);
  if (saved !== undefined) await indexRoom(trx, saved);
}

/** 409 when another room of the workspace has this name (a room's name is its key in imports). */
async function requireFreeRoomName(
  db: Db,
  workspaceId: string,
  name: string,
  roomId: string | null,
): Promise<void> {
  const holders = await findRoomsByName(db, workspaceId, name);
  if (holders.some((room) => room.id !== roomId)) {
    throw errors.conflict('DUPLICATE_ENTRY', `name: the lab already has a room named "${name}"`);
  }
}

/** A new room (POST /rooms): its name must be free in the workspace (409). */
export async function createRoom(
  trx: Trx,
  workspaceId: string,
  input: { id: string; name: string },
  now: string,
): Promise<RoomRow> {
  await requireFreeRoomName(trx, workspaceId, input.name, null);
  const row: RoomRow = {
    id: input.id,
    workspace_id: workspaceId,
    name: input.name,
    created_at: now,
    archived_at: null,
  };
  await rooms.insert(trx, row);
  await indexRoom(trx, row);
  return row;
}

/** Renames a room and/or archives it or brings it back (PATCH /rooms/{id}); 404 for another. */
export async function updateRoom(
  trx: Trx,
  workspaceId: string,
  id: string,
  input: { name?: string; archived?: boolean },
  now: string,
): Promise<RoomRow> {
  const room = await rooms.lock(trx, workspaceId, id);
  if (room === undefined) throw errors.notFound('Room');
  const update: Partial<RoomRow> = {};
  if (input.name !== undefined && input.name !== room.name) {
    await requireFreeRoomName(trx, workspaceId, input.name, id);
    update.name = input.name;
  }
  if (input.archived !== undefined && input.archived !== (room.archived_at !== null)) {
    update.archived_at = input.archived ? now : null;
  }
  if (Object.keys(update).length === 0) return room;
  await rooms.update(trx, workspaceId, id, update);
  await indexRoom(trx, { ...room, ...update });
  return { ...room, ...update };
}

export async function stageOptions(
  db: Db,
  workspaceId: string,
  entity: StageEntity,
): Promise<StageOption[]> {
  const rows = await listStageDefinitions(db, workspaceId, entity);
  return rows.map((row) => ({ key: row.key, name: row.name }));
}

/** The workspace's rooms, by name; archived ones as asked (left out by default). */
export function listRooms(
  db: Db,
  workspaceId: string,
  archived: 'exclude' | 'include' | 'only',
  page: PageRequest,
): Promise<Page<RoomRow>> {
  return listRoomRows(db, workspaceId, archived, page);
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

/** 422 naming `room_id` unless each of these rooms belongs to the workspace. */
export async function requireRoomIds(
  db: Db,
  workspaceId: string,
  roomIds: Iterable<string>,
): Promise<void> {
  for (const roomId of new Set(roomIds)) {
    if (!(await hasRoom(db, workspaceId, roomId))) {
      throw errors.validation('room_id: no room with this id in the workspace');
    }
  }
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
