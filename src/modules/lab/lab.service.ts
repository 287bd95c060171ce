import type { Db } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import {
  mergeCustomFields,
  type CustomFieldEntity,
  type CustomFieldMap,
  type CustomFieldValue,
} from './custom-fields.js';
import {
  findRoom,
  listCustomFieldDefinitions,
  listStageDefinitions,
  replaceStageDefinitions,
} from './lab.repository.js';
import { DEFAULT_STAGE_LISTS, type StageEntity, type StageOption } from './stage-lists.js';

export async function installDefaultStageLists(db: Db, workspaceId: string): Promise<void> {
  for (const entity of ['plant', 'explant'] as const) {
    await replaceStageDefinitions(
      db,
      workspaceId,
      entity,
      DEFAULT_STAGE_LISTS[entity].map((option, position) => ({
        workspace_id: workspaceId,
        entity_type: entity,
        key: option.key,
        name: option.name,
        position,
      })),
    );
  }
}

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
  const room = await findRoom(db, workspaceId, roomId);
  if (room === undefined) throw errors.notFound('Room');
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
