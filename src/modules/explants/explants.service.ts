import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { changedValues, diffFields } from '../../lib/changes.js';
import { errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup, RecordRef } from '../../kernel/record-lookup.js';
import { recordChangeEvent, type NewChangeEvent } from '../events/index.js';
import {
  applyCustomFields,
  customFieldsOf,
  getTracked,
  listTracked,
  type TrackedKind,
  updateTracked,
} from '../records/index.js';
import {
  explantExternalIds,
  explants,
  findExplantByKey,
  type ExplantRow,
} from './explants.repository.js';
import type { CreateExplantBody, Explant, UpdateExplantBody } from './explants.schemas.js';

export type ExplantRecord = Static<typeof Explant>;

/** A blank batch number is no batch number: the external_id fallback goes on to the label. */
const batchNumberOf = (row: ExplantRow) => (row.batch_number === '' ? null : row.batch_number);

export function presentExplant(row: ExplantRow): ExplantRecord {
  return {
    id: row.id,
    label: row.label,
    external_id: row.external_id ?? batchNumberOf(row) ?? row.label,
    status: row.status,
    plant_id: row.plant_id,
    workspace_id: row.workspace_id,
    initial_count: row.initial_count,
    current_count: row.current_count,
    plantlet_count: row.plantlet_count,
    created_at: row.created_at,
    custom_fields: customFieldsOf(row.custom_fields),
    batch_number: row.batch_number,
    notes: row.notes,
    updated_at: row.updated_at,
  };
}

const lowerOrNull = (value: string | null | undefined) =>
  value === null || value === undefined ? null : value.toLowerCase();

/** Creates an explant as the key's owner with a `created` change-history event. */
export async function createExplant(
  trx: Trx,
  principal: Principal,
  input: Static<typeof CreateExplantBody>,
  now: string,
  records: RecordLookup,
): Promise<ExplantRecord> {
  const workspaceId = principal.workspaceId;
  const plantId = input.plant_id ?? null;
  if (plantId !== null && (await records.find(trx, 'plant', workspaceId, plantId)) === undefined) {
    throw errors.validation('plant_id: no plant with this id in the workspace');
  }
  const customFields = await applyCustomFields(
    trx,
    workspaceId,
    'explant',
    {},
    input.custom_fields,
  );
  const externalId = input.external_id ?? null;
  const initialCount = input.initial_count ?? null;
  const row: ExplantRow = {
    id: newId(),
    workspace_id: workspaceId,
    plant_id: plantId,
    label: input.label,
    label_key: input.label.toLowerCase(),
    batch_number: input.batch_number ?? null,
    batch_number_key: lowerOrNull(input.batch_number),
    notes: input.notes ?? null,
    status: input.status ?? 'active',
    external_id: externalId,
    external_id_key: await explantExternalIds.claim(trx, workspaceId, externalId, null),
    initial_count: initialCount,
    current_count: input.current_count === undefined ? initialCount : input.current_count,
    plantlet_count: input.plantlet_count ?? null,
    custom_fields: JSON.stringify(customFields),
    created_by: principal.memberId,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  await explantExternalIds.guard(explants.insert(trx, row), externalId);
  const explant = presentExplant(row);
  await recordChangeEvent(trx, {
    workspaceId,
    entityType: 'explant',
    entityId: row.id,
    eventType: 'created',
    eventTime: now,
    recordedBy: principal.memberId,
    payload: explant,
  });
  return explant;
}

export function getExplant(db: Db, workspaceId: string, id: string): Promise<ExplantRecord> {
  return getTracked(db, EXPLANT_KIND, workspaceId, id);
}

/** Newest first; `externalId` finds 0 or 1 explant by external id, then batch number, then label. */
export function listExplants(
  db: Db,
  workspaceId: string,
  query: { externalId?: string },
  page: PageRequest,
): Promise<Page<ExplantRecord>> {
  const { externalId } = query;
  const byKey = async () => {
    const key = externalId!.toLowerCase();
    return (
      (await findExplantByKey(db, workspaceId, 'external_id_key', key)) ??
      (await findExplantByKey(db, workspaceId, 'batch_number_key', key)) ??
      findExplantByKey(db, workspaceId, 'label_key', key)
    );
  };
  return listTracked(db, EXPLANT_KIND, workspaceId, page, externalId === undefined ? null : byKey);
}

const EXPLANT_KIND: TrackedKind<
  ExplantRow,
  | 'label'
  | 'batch_number'
  | 'notes'
  | 'status'
  | 'external_id'
  | 'current_count'
  | 'plantlet_count',
  ExplantRecord
> = {
  entity: 'explant',
  noun: 'explant',
  table: explants,
  externalIds: explantExternalIds,
  editRefusal: { code: 'EXPLANT_WRITE_FORBIDDEN', action: 'editing it' },
  updatable: [
    'label',
    'batch_number',
    'notes',
    'status',
    'external_id',
    'current_count',
    'plantlet_count',
  ],
  derive: (update) => {
    if (update.label !== undefined) update.label_key = update.label.toLowerCase();
    if (update.batch_number !== undefined)
      update.batch_number_key = lowerOrNull(update.batch_number);
  },
  present: presentExplant,
};

/** Partial update as for plants; the creator or a manager and above only. */
export function updateExplant(
  trx: Trx,
  principal: Principal,
  id: string,
  input: Static<typeof UpdateExplantBody>,
  now: string,
): Promise<ExplantRecord> {
  return updateTracked(trx, EXPLANT_KIND, principal, id, input, now);
}

/** Vessel and plantlet counts a transfer observed on an explant (decision 5). */
export interface ObservedCounts {
  current_count?: number;
  plantlet_count?: number;
}

/** What a transfer holds of its explant to apply counts: the explant as it locked it. */
export type ExplantCounts = RecordRef & Pick<ExplantRow, 'current_count' | 'plantlet_count'>;

/**
 * Applies the counts a transfer observed to its explant, in the transfer's
 * transaction: `explant` is the row the transfer locked through the record lookup,
 * so it is not read again. The counts that differ are written with `updated_at`;
 * the answer is the `updated` event naming them and the transfer (for the caller
 * to record with its own), so a mirror that follows `created`/`updated` events
 * keeps the right counts. Counts equal to the stored ones write nothing (null).
 */
export async function applyTransferCounts(
  trx: Trx,
  explant: ExplantCounts,
  input: {
    workspaceId: string;
    counts: ObservedCounts;
    transferId: string;
    by: string | null;
    at: string;
  },
): Promise<NewChangeEvent | null> {
  const { workspaceId, at } = input;
  const changes = diffFields(explant, input.counts, ['current_count', 'plantlet_count']);
  if (Object.keys(changes).length === 0) return null;
  await explants.update(trx, workspaceId, explant.id, {
    ...(changedValues(changes) as ObservedCounts),
    updated_at: at,
  });
  return {
    workspaceId,
    entityType: 'explant',
    entityId: explant.id,
    eventType: 'updated',
    eventTime: at,
    recordedBy: input.by,
    payload: { changes, transfer_id: input.transferId },
  };
}
