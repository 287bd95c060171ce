import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import { toUtc } from '../../kernel/formats.js';
import { newId } from '../../kernel/ids.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { recordChangeEvent, type EntityType } from '../events/index.js';
import { notify } from '../notifications/index.js';
import { stageAt } from '../stages/index.js';
import { applyCustomFields, customFieldsOf, targetOf } from '../records/index.js';
import {
  contaminations,
  listContaminations as listContaminationRows,
  type ContaminationRow,
} from './contaminations.repository.js';
import {
  OPEN_CONTAMINATION_STATUSES,
  type Contamination,
  type ContaminationQuery,
  type CreateContaminationBody,
  type ResolveContaminationBody,
} from './contaminations.schemas.js';
import { indexNewForSearch, subtitleOf } from '../search/index.js';

export type ContaminationRecord = Static<typeof Contamination>;

const TITLE: Record<EntityType, string> = { plant: 'Plant', explant: 'Explant' };

export function presentContamination(row: ContaminationRow): ContaminationRecord {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    type: row.type,
    type_other: row.type_other,
    issue: row.issue,
    description: row.description,
    notes: row.notes,
    severity: row.severity,
    status: row.status,
    observed_at: row.observed_at,
    resolved_at: row.resolved_at,
    vessels_affected: row.vessels_affected,
    plants_affected: row.plants_affected,
    affected_vessel_markings: row.affected_vessel_markings,
    custom_fields: customFieldsOf(row.custom_fields),
    plant_ids: row.entity_type === 'plant' ? [row.entity_id] : [],
    explant_ids: row.entity_type === 'explant' ? [row.entity_id] : [],
    // Logged through the API, always by a key's owner.
    logged_by: row.created_by ?? '',
    created_at: row.created_at,
    updated_at: row.updated_at,
    suspected_source: row.suspected_source,
    stage: row.stage,
    room_id: row.room_id,
    resolution_outcome: row.resolution_outcome,
    resolution_notes: row.resolution_notes,
    resolved_by: row.resolved_by,
  };
}

/**
 * Records a contamination observed on a plant or explant (POST /contaminations),
 * logged by the key's owner, with a `contamination` change-history event on that
 * record, in the caller's transaction. The stage (and its room) the record was in
 * when the contamination was observed is kept with it.
 */
export async function createContamination(
  trx: Trx,
  principal: Principal,
  input: Static<typeof CreateContaminationBody>,
  records: RecordLookup,
  now: string,
): Promise<ContaminationRecord> {
  const target = targetOf(input);
  if (input.type === 'other' && input.type_other === undefined) {
    throw errors.validation('type_other: required when type is other');
  }
  const workspaceId = principal.workspaceId;
  if ((await records.find(trx, target.entity, workspaceId, target.id)) === undefined) {
    throw errors.notFound(TITLE[target.entity]);
  }
  const customFields = await applyCustomFields(
    trx,
    workspaceId,
    'contamination',
    {},
    input.custom_fields,
  );
  const observedAt = input.observed_at === undefined ? now : toUtc(input.observed_at);
  const stage = await stageAt(trx, workspaceId, target.entity, target.id, observedAt);
  const status = input.status ?? 'active';
  const row: ContaminationRow = {
    id: newId(),
    workspace_id: workspaceId,
    entity_type: target.entity,
    entity_id: target.id,
    type: input.type,
    type_other: input.type === 'other' ? input.type_other! : null,
    issue: input.issue,
    description: input.description ?? null,
    notes: input.notes ?? null,
    severity: input.severity ?? 'low',
    status,
    suspected_source: input.suspected_source ?? null,
    observed_at: observedAt,
    resolved_at: status === 'resolved' ? now : null,
    vessels_affected: input.vessels_affected ?? null,
    plants_affected: input.plants_affected ?? null,
    affected_vessel_markings: input.affected_vessel_markings ?? null,
    stage: stage?.stage ?? null,
    room_id: stage?.room_id ?? null,
    custom_fields: JSON.stringify(customFields),
    created_by: principal.memberId,
    created_at: now,
    updated_at: now,
    deleted_at: null,
    resolution_outcome: null,
    resolution_notes: null,
    resolved_by: status === 'resolved' ? principal.memberId : null,
  };
  await contaminations.insert(trx, row);
  await indexNewForSearch(trx, {
    kind: 'contamination',
    id: row.id,
    workspaceId,
    title: row.issue,
    subtitle: subtitleOf([row.type_other ?? row.type, row.severity]),
    names: [row.issue],
    fields: [row.type, row.type_other, row.description, row.notes, row.suspected_source],
    archived: false,
  });
  await recordChangeEvent(trx, {
    workspaceId,
    entityType: target.entity,
    entityId: target.id,
    eventType: 'contamination',
    eventTime: observedAt,
    recordedBy: principal.memberId,
    payload: {
      contamination_id: row.id,
      type: row.type,
      type_other: row.type_other,
      issue: row.issue,
      severity: row.severity,
      status: row.status,
      suspected_source: row.suspected_source,
      observed_at: observedAt,
      vessels_affected: row.vessels_affected,
      plants_affected: row.plants_affected,
      stage: row.stage,
    },
  });
  // Those who follow the room it was found in are told (and for a record in no room,
  // those who follow every room).
  await notify(
    trx,
    workspaceId,
    [
      {
        kind: 'contamination',
        eventKey: `contamination:${row.id}`,
        record: { type: 'contamination', id: row.id, label: row.issue },
        roomId: row.room_id,
        actorId: principal.memberId,
        to: { room: row.room_id },
      },
    ],
    now,
  );
  return presentContamination(row);
}

export async function getContamination(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<ContaminationRecord> {
  const row = await contaminations.find(db, workspaceId, id);
  if (row === undefined) throw errors.notFound('Contamination');
  return presentContamination(row);
}

/**
 * Contamination logs newest first, optionally of one plant and/or explant (each
 * must be a record of the workspace: 404 otherwise), of one status, recorded at or
 * after `since`.
 */
export async function listContaminationsOf(
  db: Db,
  workspaceId: string,
  query: Static<typeof ContaminationQuery>,
  records: RecordLookup,
  page: PageRequest,
): Promise<Page<ContaminationRecord>> {
  const named: { entity: EntityType; id: string | undefined }[] = [
    { entity: 'plant', id: query.plant_id },
    { entity: 'explant', id: query.explant_id },
  ];
  const filterRecords: { entityType: string; entityId: string }[] = [];
  for (const { entity, id } of named) {
    if (id === undefined) continue;
    if ((await records.find(db, entity, workspaceId, id)) === undefined) {
      throw errors.notFound(TITLE[entity]);
    }
    filterRecords.push({ entityType: entity, entityId: id });
  }
  const { items, nextKey } = await listContaminationRows(
    db,
    workspaceId,
    {
      records: filterRecords,
      status: query.status ?? null,
      since: query.since === undefined ? null : toUtc(query.since),
      open:
        query.open === undefined
          ? null
          : { statuses: OPEN_CONTAMINATION_STATUSES, only: query.open },
    },
    page,
  );
  return { items: items.map(presentContamination), nextKey };
}

/**
 * POST /contaminations/{id}/resolve: how a contamination ended (outcome, notes),
 * who resolved it and when; its status becomes resolved, and a
 * `contamination_resolved` event joins the change history of its plant or explant.
 * Resolving is bench work like logging one: any member may, on any log. A log
 * already resolved answers 409 CONFLICT and keeps its resolution.
 */
export async function resolveContamination(
  trx: Trx,
  principal: Principal,
  id: string,
  input: Static<typeof ResolveContaminationBody>,
  now: string,
): Promise<ContaminationRecord> {
  const workspaceId = principal.workspaceId;
  const row = await contaminations.lock(trx, workspaceId, id);
  if (row === undefined) throw errors.notFound('Contamination');
  if (row.status === 'resolved') {
    throw errors.conflict(
      'CONFLICT',
      `This contamination was resolved already${row.resolved_at === null ? '' : ` (${row.resolved_at})`}; its resolution stands`,
    );
  }
  const resolvedAt = input.resolved_at === undefined ? now : toUtc(input.resolved_at);
  const changes = {
    status: 'resolved',
    resolved_at: resolvedAt,
    resolution_outcome: input.outcome,
    resolution_notes: input.notes ?? null,
    resolved_by: principal.memberId,
    updated_at: now,
  };
  await contaminations.update(trx, workspaceId, id, changes);
  await recordChangeEvent(trx, {
    workspaceId,
    entityType: row.entity_type as EntityType,
    entityId: row.entity_id,
    eventType: 'contamination_resolved',
    eventTime: resolvedAt,
    recordedBy: principal.memberId,
    payload: {
      contamination_id: id,
      outcome: input.outcome,
      notes: changes.resolution_notes,
      resolved_at: resolvedAt,
      previous_status: row.status,
    },
  });
  return presentContamination({ ...row, ...changes });
}
