import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { mayChangeRecordOf } from '../../kernel/access.js';
import { changedValues, diffFields } from '../../kernel/changes.js';
import { AppError, errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { splitPage, type PageRequest, type SortKey } from '../../kernel/paging.js';
import type { Principal } from '../../kernel/principal.js';
import { recordChangeEvent } from '../events/events.service.js';
import { customFieldsOf, type CustomFieldMap } from '../lab/custom-fields.js';
import { applyCustomFields, customFieldsChange } from '../lab/lab.service.js';
import { findPlantRecord } from '../plants/plants.service.js';
import type { RecordFinder } from '../stages/stages.service.js';
import {
  explantExternalIdTaken,
  findExplant,
  findExplantByKey,
  insertExplant,
  listExplants as listExplantRows,
  updateExplant as updateExplantRow,
  type ExplantChanges,
  type ExplantRow,
} from './explants.repository.js';
import type { CreateExplantBody, UpdateExplantBody } from './explants.schemas.js';

export type ExplantRecord = {
  id: string;
  label: string | null;
  external_id: string | null;
  status: string;
  plant_id: string | null;
  workspace_id: string | null;
  initial_count: number | null;
  current_count: number | null;
  plantlet_count: number | null;
  created_at: string | null;
  custom_fields: CustomFieldMap;
};

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
  };
}

const lowerOrNull = (value: string | null | undefined) =>
  value === null || value === undefined ? null : value.toLowerCase();

const duplicateExternalId = (externalId: string) =>
  errors.conflict(
    'DUPLICATE_ENTRY',
    `external_id "${externalId}" is already used by another explant in this workspace`,
  );

async function claimExternalId(
  db: Db,
  workspaceId: string,
  externalId: string | null,
  exceptId: string | null,
): Promise<string | null> {
  if (externalId === null) return null;
  const key = externalId.toLowerCase();
  if (await explantExternalIdTaken(db, workspaceId, key, exceptId)) {
    throw duplicateExternalId(externalId);
  }
  return key;
}

function rethrowDuplicate(error: unknown, externalId: string | null): never {
  if (externalId !== null && isUniqueViolation(error, 'explants_external_id')) {
    throw duplicateExternalId(externalId);
  }
  throw error;
}

/** Creates an explant as the key's owner with a `created` change-history event. */
export async function createExplant(
  db: Db,
  principal: Principal,
  input: Static<typeof CreateExplantBody>,
  now: string,
): Promise<ExplantRecord> {
  const workspaceId = principal.workspaceId;
  const plantId = input.plant_id ?? null;
  if (plantId !== null && (await findPlantRecord(db, workspaceId, plantId, false)) === undefined) {
    throw errors.validation('plant_id: no plant with this id in the workspace');
  }
  const customFields = await applyCustomFields(db, workspaceId, 'explant', {}, input.custom_fields);
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
    external_id_key: await claimExternalId(db, workspaceId, externalId, null),
    initial_count: initialCount,
    current_count: input.current_count === undefined ? initialCount : input.current_count,
    plantlet_count: input.plantlet_count ?? null,
    custom_fields: JSON.stringify(customFields),
    created_by: principal.memberId,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  await insertExplant(db, row).catch((error: unknown) => rethrowDuplicate(error, externalId));
  const explant = presentExplant(row);
  await recordChangeEvent(db, {
    workspaceId,
    entityType: 'explant',
    entityId: row.id,
    eventType: 'created',
    eventTime: now,
    recordedBy: principal.memberId,
    payload: { ...explant, batch_number: row.batch_number, notes: row.notes },
  });
  return explant;
}

export async function getExplant(db: Db, workspaceId: string, id: string): Promise<ExplantRecord> {
  const row = await findExplant(db, workspaceId, id);
  if (row === undefined) throw errors.notFound('Explant');
  return presentExplant(row);
}

/** `externalId` looks up 0 or 1 explant by external id, then batch number, then label. */
export async function listExplants(
  db: Db,
  workspaceId: string,
  query: { externalId?: string },
  page: PageRequest,
): Promise<{ items: ExplantRecord[]; nextKey: SortKey | null }> {
  if (query.externalId !== undefined) {
    const key = query.externalId.toLowerCase();
    const row =
      (await findExplantByKey(db, workspaceId, 'external_id_key', key)) ??
      (await findExplantByKey(db, workspaceId, 'batch_number_key', key)) ??
      (await findExplantByKey(db, workspaceId, 'label_key', key));
    return { items: row === undefined ? [] : [presentExplant(row)], nextKey: null };
  }
  const rows = await listExplantRows(db, workspaceId, page);
  const { items, nextKey } = splitPage(rows, page.limit, (row) => [row.created_at, row.id]);
  return { items: items.map(presentExplant), nextKey };
}

const UPDATABLE = [
  'label',
  'batch_number',
  'notes',
  'status',
  'external_id',
  'current_count',
  'plantlet_count',
] as const;

/** Partial update as for plants; the creator or a manager and above only. */
export async function updateExplant(
  db: Db,
  principal: Principal,
  id: string,
  input: Static<typeof UpdateExplantBody>,
  now: string,
): Promise<ExplantRecord> {
  const workspaceId = principal.workspaceId;
  const row = await findExplant(db, workspaceId, id, true);
  if (row === undefined) throw errors.notFound('Explant');
  if (!mayChangeRecordOf(principal, row.created_by)) {
    throw new AppError(
      'EXPLANT_WRITE_FORBIDDEN',
      'This explant was created by someone else; editing it needs the manager role or above',
    );
  }
  const changes = diffFields(row, input, UPDATABLE);
  const update: ExplantChanges = changedValues(changes);
  if ('label' in changes) update.label_key = (input.label ?? row.label).toLowerCase();
  if ('batch_number' in changes) update.batch_number_key = lowerOrNull(input.batch_number);
  if ('external_id' in changes) {
    update.external_id_key = await claimExternalId(db, workspaceId, input.external_id ?? null, id);
  }
  const fieldsChange = await customFieldsChange(
    db,
    workspaceId,
    'explant',
    row.custom_fields,
    input.custom_fields,
  );
  if (fieldsChange !== null) {
    changes.custom_fields = fieldsChange;
    update.custom_fields = JSON.stringify(fieldsChange.to);
  }
  if (Object.keys(changes).length === 0) return presentExplant(row);

  update.updated_at = now;
  await updateExplantRow(db, workspaceId, id, update).catch((error: unknown) =>
    rethrowDuplicate(error, input.external_id ?? null),
  );
  await recordChangeEvent(db, {
    workspaceId,
    entityType: 'explant',
    entityId: id,
    eventType: 'updated',
    eventTime: now,
    recordedBy: principal.memberId,
    payload: { changes },
  });
  return presentExplant({ ...row, ...update });
}

export const findExplantRecord: RecordFinder = (db, workspaceId, id, lock) =>
  findExplant(db, workspaceId, id, lock);
