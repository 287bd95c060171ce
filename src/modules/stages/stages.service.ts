import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { pick } from '../../db/prepared.js';
import { errors } from '../../kernel/errors.js';
import { toUtc } from '../../kernel/formats.js';
import { newId } from '../../kernel/ids.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { nowIso } from '../../kernel/time.js';
import { recordChangeEvent, type EntityType } from '../events/index.js';
import {
  checkStageList,
  requireRoom,
  stageList,
  stageOptions,
  type StageOption,
} from '../lab/index.js';
import {
  replaceStageList,
  requireMayChange,
  resolveStageKey,
  setCurrentStage,
  targetOf,
  type FirstStage,
} from '../records/index.js';
import {
  completeStage,
  findActiveStage,
  insertStages,
  findStageAt,
  listStages as listStageRows,
  nextEnteredOnAfter,
  stages,
  type StageRow,
} from './stages.repository.js';
import type {
  AdvanceStageBody,
  AdvanceStageMeta,
  Stage,
  StageLists,
  UpdateStageListsBody,
} from './stages.schemas.js';

export type StageRecord = Static<typeof Stage>;
export type StageListsRecord = Static<typeof StageLists>;
export type AdvanceStageInput = Static<typeof AdvanceStageBody>;

const STAGE_FIELDS = [
  'id',
  'entity_type',
  'entity_id',
  'stage',
  'status',
  'entered_on',
  'completed_at',
  'room_id',
  'notes',
  'created_at',
] as const;

export function presentStage(row: StageRow): StageRecord {
  return pick(row, STAGE_FIELDS) as StageRecord;
}

const TITLE: Record<EntityType, string> = { plant: 'Plant', explant: 'Explant' };

/**
 * Moves a plant or explant into a stage (POST /stages), inside the caller's
 * transaction: checks everything first, then closes the current stage, opens the
 * new one, shows it on the record (`current_stage`) and records a `stage_change` event. A move dated before the current
 * stage is saved into history as completed and answered with `meta.warning`.
 */
export async function advanceStage(
  trx: Trx,
  principal: Principal,
  input: AdvanceStageInput,
  records: RecordLookup,
  now: string,
): Promise<{ stage: StageRecord; meta: Static<typeof AdvanceStageMeta> }> {
  const target = targetOf(input);
  const workspaceId = principal.workspaceId;

  // Locks the record: concurrent moves of one record queue here (PostgreSQL; SQLite has one writer).
  const record = await records.lock(trx, target.entity, workspaceId, target.id);
  if (record === undefined) throw errors.notFound(TITLE[target.entity]);
  requireMayChange(principal, target.entity, record.created_by, {
    code: 'STAGE_WRITE_FORBIDDEN',
    action: 'moving it',
  });
  const options = await stageOptions(trx, workspaceId, target.entity);
  const key = resolveStageKey(options, input.stage);
  if (key === null) {
    throw errors.validation(
      `stage: "${input.stage}" is not in this lab's ${target.entity} stage list; use one of ${options
        .map((o) => o.key)
        .join(', ')}`,
    );
  }
  if (input.room_id !== undefined) await requireRoom(trx, workspaceId, input.room_id);

  const current = await findActiveStage(trx, workspaceId, target.entity, target.id);
  // Without entered_on the move happens when it is made: the clock is read once the record
  // is locked, so a move that queued behind a concurrent one never dates itself before it
  // (and is never taken for a back-dated move).
  const enteredOn = input.entered_on === undefined ? nowIso() : toUtc(input.entered_on);
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
      ? await nextEnteredOnAfter(trx, workspaceId, target.entity, target.id, enteredOn)
      : null,
    room_id: input.room_id ?? null,
    notes: input.notes ?? null,
    created_by: principal.memberId,
    created_at: now,
  };
  if (current !== undefined && !backdated) {
    await completeStage(trx, workspaceId, current.id, enteredOn);
  }
  await stages.insert(trx, row);
  if (!backdated) {
    await setCurrentStage(trx, target.entity, workspaceId, target.id, {
      id: row.id,
      stage: key,
      name: options.find((o) => o.key === key)?.name ?? null,
      entered_on: enteredOn,
      room_id: row.room_id,
    });
  }
  await recordChangeEvent(trx, {
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
  // previous_stage_id on every success (null when nothing was closed), as clients read it.
  const meta = backdated
    ? {
        previous_stage_id: null,
        warning:
          `entered_on ${enteredOn} is earlier than the current stage (${current.stage}, entered ` +
          `${current.entered_on}); the move was saved into history as completed and the current stage is unchanged`,
      }
    : { previous_stage_id: current?.id ?? null };
  return { stage: presentStage(row), meta };
}

const firstStageRow = (input: FirstStage): StageRow => ({
  id: newId(),
  workspace_id: input.workspaceId,
  entity_type: input.entity,
  entity_id: input.entityId,
  stage: input.stage,
  status: 'active',
  entered_on: input.enteredOn,
  completed_at: null,
  room_id: input.roomId ?? null,
  notes: null,
  created_by: input.createdBy,
  created_at: input.enteredOn,
});

/** The first stage of a new record, in the transaction that creates it. */
export async function openInitialStage(trx: Trx, input: FirstStage): Promise<StageRecord> {
  const row = firstStageRow(input);
  await stages.insert(trx, row);
  return presentStage(row);
}

/**
 * The first stages of many new records of one kind at once (one statement on
 * PostgreSQL), for those that have one: the stage opened, by record id.
 */
export async function openFirstStages(
  trx: Trx,
  base: { workspaceId: string; entity: EntityType; enteredOn: string; createdBy: string | null },
  records: readonly { entityId: string; stage: StageOption | null; roomId: string | null }[],
): Promise<Map<string, { id: string; stage: string; name: string }>> {
  const opened = new Map<string, { id: string; stage: string; name: string }>();
  const rows = records.flatMap((record) => {
    if (record.stage === null) return [];
    const row = firstStageRow({
      ...base,
      entityId: record.entityId,
      stage: record.stage.key,
      roomId: record.roomId,
    });
    opened.set(record.entityId, { id: row.id, stage: row.stage, name: record.stage.name });
    return [row];
  });
  await insertStages(trx, rows);
  return opened;
}

/** The stage (key and room) a plant or explant was in at `at`; null before its first. */
export async function stageAt(
  db: Db,
  workspaceId: string,
  entity: EntityType,
  entityId: string,
  at: string,
): Promise<{ stage: string; room_id: string | null } | null> {
  const row = await findStageAt(db, workspaceId, entity, entityId, at);
  return row === undefined ? null : { stage: row.stage, room_id: row.room_id };
}

/** Stage history of one plant or explant, newest first by `entered_on`. */
export async function listStagesOf(
  db: Db,
  workspaceId: string,
  query: { plant_id?: string; explant_id?: string },
  records: RecordLookup,
  page: PageRequest,
): Promise<Page<StageRecord>> {
  const target = targetOf(query);
  if ((await records.find(db, target.entity, workspaceId, target.id)) === undefined) {
    throw errors.notFound(TITLE[target.entity]);
  }
  const { items, nextKey } = await listStageRows(db, workspaceId, target.entity, target.id, page);
  return { items: items.map(presentStage), nextKey };
}

/** The lab's stage lists (GET /stage-lists): what a move may name, per kind, in order. */
export async function stageListsOf(db: Db, workspaceId: string): Promise<StageListsRecord> {
  const [plant, explant] = await Promise.all([
    stageList(db, workspaceId, 'plant'),
    stageList(db, workspaceId, 'explant'),
  ]);
  return {
    plant: plant.active,
    explant: explant.active,
    retired: { plant: plant.retired, explant: explant.retired },
  };
}

/**
 * PATCH /stage-lists: each list sent replaces the stored one, with the import's
 * rules (`replaceStageList`: a stage left out that records were in is retired).
 */
export async function updateStageLists(
  trx: Trx,
  workspaceId: string,
  input: Static<typeof UpdateStageListsBody>,
): Promise<StageListsRecord> {
  for (const entity of ['plant', 'explant'] as const) {
    const list = input[entity];
    if (list !== undefined) checkStageList(list, (i) => `${entity}[${i}]`);
  }
  for (const entity of ['plant', 'explant'] as const) {
    const list = input[entity];
    if (list !== undefined) await replaceStageList(trx, workspaceId, entity, list);
  }
  return stageListsOf(trx, workspaceId);
}
