import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { recordChangeEvents, type EntityType, type NewChangeEvent } from '../events/index.js';
import { ENDED_EXPLANT_STATUSES } from '../explants/index.js';
import { notify } from '../notifications/index.js';
import {
  recallCandidates,
  recalledLabel,
  setStatuses,
  walkFamily,
  type Walk,
  type WalkStart,
} from './lineage.repository.js';
import { MAX_DEPTH, type Lineage, type RecallBody, type RecallResult } from './lineage.schemas.js';

export type LineageRecord = Static<typeof Lineage>;
type RecallInput = Static<typeof RecallBody>;

const TITLE: Record<EntityType, string> = { plant: 'Plant', explant: 'Explant' };

const startOf = (entity: EntityType, id: string): WalkStart =>
  entity === 'explant' ? { explantId: id } : { plantId: id };

async function requireRecord(
  db: Db,
  records: RecordLookup,
  entity: EntityType,
  workspaceId: string,
  id: string,
): Promise<void> {
  if ((await records.find(db, entity, workspaceId, id)) === undefined) {
    throw errors.notFound(TITLE[entity]);
  }
}

/**
 * An explant's family (GET /explants/{id}/lineage), or a plant's descendants (GET
 * /plants/{id}/lineage): the explants reached within `depth` generations, each at the
 * nearest generation it is reached at, and the edges between them with the transfer,
 * time, person, room and medium batch of each. One recursive query.
 */
export async function readLineage(
  db: Db,
  workspaceId: string,
  target: { entity: EntityType; id: string },
  query: { direction?: 'ancestors' | 'descendants'; depth?: number },
  records: RecordLookup,
): Promise<LineageRecord> {
  await requireRecord(db, records, target.entity, workspaceId, target.id);
  const walk: Walk = {
    workspaceId,
    start: startOf(target.entity, target.id),
    direction: query.direction ?? 'descendants',
    depth: query.depth ?? MAX_DEPTH,
  };
  const { nodes, edges } = await walkFamily(db, walk);
  return {
    nodes: nodes.map((row) => ({
      id: row.id,
      label: row.label,
      stage: row.current_stage,
      stage_name: row.current_stage_name,
      status: row.status,
      generation: row.generation,
      plant_id: row.plant_id,
      current_count: row.current_count,
      plantlet_count: row.plantlet_count,
      created_at: row.created_at,
      archived_at: row.archived_at,
    })),
    edges: edges.map((row) => ({
      parent_id: row.parent_id,
      child_id: row.child_id,
      kind: row.kind,
      transfer_id: row.transfer_id,
      occurred_at: row.occurred_at,
      recorded_by: row.recorded_by,
      room_id: row.room_id,
      media_batch_id: row.media_batch_id,
    })),
  };
}

/**
 * Puts an explant and its descendants, or a plant's explants and theirs, into one
 * status (POST /explants/{id}/recall, /plants/{id}/recall), in the caller's
 * transaction: those of one generation only when `generation` is sent. Archived
 * explants, those already in the status and those that have ended are left as they
 * are. A dry run answers the same count and ids and writes nothing; otherwise each
 * changed explant gets an `updated` event (its status, with the recall's reason) and
 * the record recalled a `recalled` event listing them, all in one transaction.
 */
/**
 * Tells those who follow the rooms of the recalled cultures (a culture in no room: those
 * who follow every room), once per recall and person, in the recall's transaction.
 */
async function notifyRecall(
  trx: Trx,
  principal: Principal,
  target: { entity: EntityType; id: string },
  recalled: readonly { current_room_id: string | null }[],
  now: string,
): Promise<void> {
  const label = await recalledLabel(trx, principal.workspaceId, target);
  const rooms = [...new Set(recalled.map((row) => row.current_room_id))];
  await notify(
    trx,
    principal.workspaceId,
    rooms.map((room) => ({
      kind: 'recall',
      // One recall is one event, whichever of its rooms a person follows.
      eventKey: `recall:${target.entity}:${target.id}:${now}`,
      record: { type: target.entity, id: target.id, label },
      roomId: room,
      actorId: principal.memberId,
      to: { room },
    })),
    now,
  );
}

export async function recall(
  trx: Trx,
  principal: Principal,
  target: { entity: EntityType; id: string },
  input: RecallInput,
  records: RecordLookup,
  now: string,
): Promise<Static<typeof RecallResult>> {
  const workspaceId = principal.workspaceId;
  const dryRun = input.dry_run === true;
  const lock = await records.lock(trx, target.entity, workspaceId, target.id);
  if (lock === undefined) throw errors.notFound(TITLE[target.entity]);
  const status = input.status ?? 'quarantined';
  const generation = input.generation ?? null;
  if (target.entity === 'plant' && generation === 0) {
    throw errors.validation("generation: a plant's own explants are generation 1");
  }
  const candidates = await recallCandidates(
    trx,
    {
      workspaceId,
      start: startOf(target.entity, target.id),
      direction: 'descendants',
      depth: MAX_DEPTH,
    },
    { status, ended: ENDED_EXPLANT_STATUSES, generation },
    !dryRun,
  );
  const ids = candidates.map((row) => row.id);
  if (!dryRun && ids.length > 0) {
    await setStatuses(trx, workspaceId, ids, status, now);
    const recall = {
      reason: input.reason,
      of: { entity_type: target.entity, entity_id: target.id },
    };
    const events: NewChangeEvent[] = candidates.map((row) => ({
      workspaceId,
      entityType: 'explant',
      entityId: row.id,
      eventType: 'updated',
      eventTime: now,
      recordedBy: principal.memberId,
      payload: { changes: { status: { from: row.status, to: status } }, recall },
    }));
    events.push({
      workspaceId,
      entityType: target.entity,
      entityId: target.id,
      eventType: 'recalled',
      eventTime: now,
      recordedBy: principal.memberId,
      payload: { status, reason: input.reason, generation, count: ids.length, explant_ids: ids },
    });
    await recordChangeEvents(trx, events);
    await notifyRecall(trx, principal, target, candidates, now);
  }
  return { count: ids.length, explant_ids: ids, dry_run: dryRun };
}
