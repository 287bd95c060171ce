import type { Db, Trx } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import { parseJsonObject } from '../../kernel/json.js';
import {
  mergeCustomFields,
  type CustomFieldEntity,
  type CustomFieldMap,
  type CustomFieldValue,
} from './custom-fields.js';
import {
  listCustomFieldDefinitions,
  listStageDefinitions,
  replaceCustomFieldDefinitions,
  replaceStageDefinitions,
  rooms,
  upsertRoom,
} from './lab.repository.js';
import { DEFAULT_STAGE_LISTS, type StageEntity, type StageOption } from './stage-lists.js';

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

export async function installDefaultStageLists(trx: Trx, workspaceId: string): Promise<void> {
  for (const entity of ['plant', 'explant'] as const) {
    await setStageList(trx, workspaceId, entity, DEFAULT_STAGE_LISTS[entity]);
  }
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

/** The ids among `ids` that a room of another workspace already has. */
export const roomIdsHeldElsewhere = rooms.idsHeldElsewhere;

export async function stageOptions(
  db: Db,
  workspaceId: string,
  entity: StageEntity,
): Promise<StageOption[]> {
  const rows = await listStageDefinitions(db, workspaceId, entity);
  return rows.map((row) => ({ key: row.key, name: row.name }));
}

/** Throws 404 unless the room belongs to the workspace. */
export async function requireRoom(db: Db, workspaceId: string, roomId: string): Promise<void> {
  const room = await rooms.find(db, workspaceId, roomId);
  if (room === undefined) throw errors.notFound('Room');
}

/**
 * What a PATCH does to stored custom fields (JSON text): null when nothing
 * changes, else the old and new maps after the lab's checks.
 */
export async function customFieldsChange(
  db: Db,
  workspaceId: string,
  entity: CustomFieldEntity,
  stored: string,
  input: Record<string, CustomFieldValue> | null | undefined,
): Promise<{ from: CustomFieldMap; to: CustomFieldMap } | null> {
  const from = parseJsonObject(stored) as CustomFieldMap;
  const to = await applyCustomFields(db, workspaceId, entity, from, input);
  return JSON.stringify(to) === JSON.stringify(from) ? null : { from, to };
}

export async function applyCustomFields(
  db: Db,
  workspaceId: string,
  entity: CustomFieldEntity,
  current: CustomFieldMap,
  input: Record<string, CustomFieldValue> | null | undefined,
): Promise<CustomFieldMap> {
  if (input === undefined || input === null) return { ...current };
  const definitions = await listCustomFieldDefinitions(db, workspaceId, entity);
  return mergeCustomFields(definitions, entity, current, input);
}

/** Rooms' ids by name, for matching imported rooms sent without an id. */
export const roomIdentities = (db: Db, workspaceId: string) =>
  rooms.identities(db, workspaceId, ['name']);
