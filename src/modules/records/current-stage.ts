import Type, { type Static } from 'typebox';
import type { Trx } from '../../db/database.js';
import { Nullable, Uuid } from '../../kernel/schemas.js';
import type { EntityType } from '../events/index.js';

/**
 * The stage a plant or explant is in now, on the record itself: kept by every
 * stage move in the move's transaction, so that lists filter by stage and room
 * with an index and a record's header needs no second read.
 */
export const CurrentStage = Nullable(
  Type.Object(
    {
      id: Uuid({ description: 'The stage record (GET /stages lists them)' }),
      stage: Type.String({ description: "Key in the lab's stage list" }),
      name: Nullable(
        Type.String({
          description: "Display name in the lab's list when the stage was entered",
        }),
      ),
      entered_on: Type.String(),
      room_id: Nullable(Uuid()),
    },
    { additionalProperties: false },
  ),
  {
    description:
      'The stage the record is in now (null before its first); moves with POST /stages change it',
  },
);

export type CurrentStageValue = Static<typeof CurrentStage>;

/** The columns of the current stage on plants and explants. */
export interface CurrentStageColumns {
  current_stage_id: string | null;
  current_stage: string | null;
  current_stage_name: string | null;
  current_stage_entered_on: string | null;
  current_room_id: string | null;
}

export function currentStageOf(row: CurrentStageColumns): CurrentStageValue {
  if (row.current_stage_id === null || row.current_stage === null) return null;
  return {
    id: row.current_stage_id,
    stage: row.current_stage,
    name: row.current_stage_name,
    entered_on: row.current_stage_entered_on ?? '',
    room_id: row.current_room_id,
  };
}

/** The columns that hold `stage` (null: no stage). */
export function currentStageColumns(stage: CurrentStageValue): CurrentStageColumns {
  return {
    current_stage_id: stage?.id ?? null,
    current_stage: stage?.stage ?? null,
    current_stage_name: stage?.name ?? null,
    current_stage_entered_on: stage?.entered_on ?? null,
    current_room_id: stage?.room_id ?? null,
  };
}

const TABLES: Record<EntityType, 'plants' | 'explants'> = { plant: 'plants', explant: 'explants' };

/** Writes the stage a record is in now, in the move's transaction (the caller holds its lock). */
export async function setCurrentStage(
  trx: Trx,
  entity: EntityType,
  workspaceId: string,
  id: string,
  stage: CurrentStageValue,
): Promise<void> {
  await trx
    .updateTable(TABLES[entity])
    .set(currentStageColumns(stage))
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/**
 * After a lab's stage list changed (an import renamed a stage), the records in a
 * stage of that list show its new name.
 */
export async function renameCurrentStages(
  trx: Trx,
  entity: EntityType,
  workspaceId: string,
  options: readonly { key: string; name: string }[],
): Promise<void> {
  for (const option of options) {
    await trx
      .updateTable(TABLES[entity])
      .set({ current_stage_name: option.name })
      .where('workspace_id', '=', workspaceId)
      .where('current_stage', '=', option.key)
      .where('current_stage_name', 'is distinct from', option.name)
      .execute();
  }
}
