import type { Db } from '../../db/database.js';
import { mayChangeRecordOf } from '../../kernel/access.js';
import { AppError, errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { splitPage, type PageRequest, type SortKey } from '../../kernel/paging.js';
import type { Principal } from '../../kernel/principal.js';
import { nowIso, parseDateOrTimestamp } from '../../kernel/time.js';
import { recordChangeEvent, type EntityType } from '../events/events.service.js';
import { requireRoom, stageOptions } from '../lab/lab.service.js';
import { resolveStageKey } from '../lab/stage-lists.js';
import {
  completeStage,
  findActiveStage,
  insertStage,
  listStages as listStageRows,
  nextEnteredOnAfter,
  type StageRow,
} from './stages.repository.js';

export interface StageRecord {
  id: string;
  entity_type: EntityType;
  entity_id: string;
  stage: string;
  status: string;
  entered_on: string | null;
  completed_at: string | null;
  room_id: string | null;
  notes: string | null;
  created_at: string | null;
}

export function presentStage(row: StageRow): StageRecord {
  return {
    id: row.id,
    entity_type: row.entity_type as EntityType,
    entity_id: row.entity_id,
    stage: row.stage,
    status: row.status,
    entered_on: row.entered_on,
    completed_at: row.completed_at,
    room_id: row.room_id,
    notes: row.notes,
    created_at: row.created_at,
  };
}

/**
 * Finds a plant or explant of the workspace and who created it; with `lock`, also
 * locks its row (PostgreSQL) until the transaction ends, so moves of one record queue.
 */
export type RecordFinder = (
  db: Db,
  workspaceId: string,
  id: string,
  lock: boolean,
) => Promise<{ id: string; created_by: string | null } | undefined>;

export type RecordFinders = Readonly<Record<EntityType, RecordFinder>>;

export interface AdvanceStageInput {
  plant_id?: string;
  explant_id?: string;
  stage: string;
  entered_on?: string;
  room_id?: string;
  notes?: string;
}

export type AdvanceStageMeta = { previous_stage_id: string | null } | { warning: string };

function targetOf(input: AdvanceStageInput): { entity: EntityType; id: string } {
  const hasPlant = input.plant_id !== undefined;
  const hasExplant = input.explant_id !== undefined;
  if (hasPlant === hasExplant) {
    throw errors.validation('Send exactly one of plant_id and explant_id');
  }
  return hasPlant
    ? { entity: 'plant', id: input.plant_id! }
    : { entity: 'explant', id: input.explant_id! };
}

export function parseEnteredOn(value: string | undefined, now: string): string {
  if (value === undefined) return now;
  const parsed = parseDateOrTimestamp(value);
  if (parsed === null) {
    throw errors.validation(
      'entered_on: must be a date (YYYY-MM-DD) or an ISO 8601 timestamp with a time zone',
    );
  }
  return parsed;
}

/**
 * Moves a plant or explant into a stage (POST /stages), inside the caller's
 * transaction: checks everything first, then closes the current stage, opens the
 * new one and records a `stage_change` event. A move dated before the current
 * stage is saved into history as completed and answered with `meta.warning`.
 */
export async function advanceStage(
  db: Db,
  principal: Principal,
  input: AdvanceStageInput,
  records: RecordFinders,
  now: string,
): Promise<{ stage: StageRecord; meta: AdvanceStageMeta }> {
  const target = targetOf(input);
  const sentEnteredOn =
    input.entered_on === undefined ? null : parseEnteredOn(input.entered_on, now);
  const workspaceId = principal.workspaceId;

  const record = await records[target.entity](db, workspaceId, target.id, true);
  if (record === undefined) throw errors.notFound(target.entity === 'plant' ? 'Plant' : 'Explant');
  if (!mayChangeRecordOf(principal, record.created_by)) {
    throw new AppError(
      'STAGE_WRITE_FORBIDDEN',
      `This ${target.entity} was created by someone else; moving it needs the manager role or above`,
    );
  }
  const options = await stageOptions(db, workspaceId, target.entity);
  const key = resolveStageKey(options, input.stage);
  if (key === null) {
    throw errors.validation(
      `stage: "${input.stage}" is not in this lab's ${target.entity} stage list; use one of ${options
        .map((o) => o.key)
        .join(', ')}`,
    );
  }
  if (input.room_id !== undefined) await requireRoom(db, workspaceId, input.room_id);

  const current = await findActiveStage(db, workspaceId, target.entity, target.id);
  // Without entered_on the move happens when it is made: the clock is read once the record
  // is locked, so a move that queued behind a concurrent one never dates itself before it
  // (and is never taken for a back-dated move).
  const enteredOn = sentEnteredOn ?? nowIso();
  const backdated = current !== undefined && enteredOn < current.entered_on;
  const row: StageRow = {
    id: newId(),
    workspace_id: workspaceId,
    entity_type: target.entity,
    entity_id: target.id,
    stage: key,
    status: backdated ? 'completed' : 'active',
    entered_on: enteredOn,
    completed_at: backdated
      ? await nextEnteredOnAfter(db, workspaceId, target.entity, target.id, enteredOn)
      : null,
    room_id: input.room_id ?? null,
    notes: input.notes ?? null,
    created_by: principal.memberId,
    created_at: now,
  };
  if (current !== undefined && !backdated) {
    await completeStage(db, workspaceId, current.id, enteredOn);
  }
  await insertStage(db, row);
  await recordChangeEvent(db, {
    workspaceId,
    entityType: target.entity,
    entityId: target.id,
    stageId: row.id,
    eventType: 'stage_change',
    eventTime: enteredOn,
    recordedBy: principal.memberId,
    payload: {
      stage: key,
      status: row.status,
      previous_stage: backdated ? null : (current?.stage ?? null),
      previous_stage_id: backdated ? null : (current?.id ?? null),
      entered_on: enteredOn,
      room_id: row.room_id,
      notes: row.notes,
    },
  });
  const meta: AdvanceStageMeta = backdated
    ? {
        warning:
          `entered_on ${enteredOn} is earlier than the current stage (${current.stage}, entered ` +
          `${current.entered_on}); the move was saved into history as completed and the current stage is unchanged`,
      }
    : { previous_stage_id: current?.id ?? null };
  return { stage: presentStage(row), meta };
}

/** The first stage of a new record, in the transaction that creates it. */
export async function openInitialStage(
  db: Db,
  input: {
    workspaceId: string;
    entity: EntityType;
    entityId: string;
    stage: string;
    enteredOn: string;
    createdBy: string | null;
  },
): Promise<StageRecord> {
  const row: StageRow = {
    id: newId(),
    workspace_id: input.workspaceId,
    entity_type: input.entity,
    entity_id: input.entityId,
    stage: input.stage,
    status: 'active',
    entered_on: input.enteredOn,
    completed_at: null,
    room_id: null,
    notes: null,
    created_by: input.createdBy,
    created_at: input.enteredOn,
  };
  await insertStage(db, row);
  return presentStage(row);
}

export async function listStagesOf(
  db: Db,
  workspaceId: string,
  query: { plant_id?: string; explant_id?: string },
  records: RecordFinders,
  page: PageRequest,
): Promise<{ items: StageRecord[]; nextKey: SortKey | null }> {
  const hasPlant = query.plant_id !== undefined;
  if (hasPlant === (query.explant_id !== undefined)) {
    throw errors.validation('Send exactly one of plant_id and explant_id');
  }
  const entity: EntityType = hasPlant ? 'plant' : 'explant';
  const id = (hasPlant ? query.plant_id : query.explant_id)!;
  const record = await records[entity](db, workspaceId, id, false);
  if (record === undefined) throw errors.notFound(entity === 'plant' ? 'Plant' : 'Explant');
  const rows = await listStageRows(db, workspaceId, entity, id, page);
  const { items, nextKey } = splitPage(rows, page.limit, (row) => [row.entered_on, row.id]);
  return { items: items.map(presentStage), nextKey };
}
