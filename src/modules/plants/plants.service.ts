import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { mayChangeRecordOf } from '../../kernel/access.js';
import { AppError, errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { splitPage, type PageRequest, type SortKey } from '../../kernel/paging.js';
import type { Principal } from '../../kernel/principal.js';
import { recordChangeEvent } from '../events/events.service.js';
import { customFieldsOf, type CustomFieldMap } from '../lab/custom-fields.js';
import { applyCustomFields, customFieldsChange, stageOptions } from '../lab/lab.service.js';
import { resolveStageKey } from '../lab/stage-lists.js';
import { openInitialStage, type RecordFinder } from '../stages/stages.service.js';
import { changedValues, diffFields, type FieldChanges } from '../../kernel/changes.js';
import {
  externalIdTaken,
  findPlant,
  findPlantByExternalKey,
  insertPlant,
  listPlants as listPlantRows,
  updatePlant as updatePlantRow,
  type PlantChanges,
  type PlantRow,
} from './plants.repository.js';
import type { CreatePlantBody, UpdatePlantBody } from './plants.schemas.js';

export type PlantRecord = {
  id: string;
  name: string;
  species: string;
  status: string;
  workspace_id: string | null;
  created_at: string | null;
  external_id: string | null;
  custom_fields: CustomFieldMap;
};

export function presentPlant(row: PlantRow): PlantRecord {
  return {
    id: row.id,
    name: row.common_name !== null && row.common_name !== '' ? row.common_name : row.species,
    species: row.species,
    status: row.status,
    workspace_id: row.workspace_id,
    created_at: row.created_at,
    external_id: row.external_id,
    custom_fields: customFieldsOf(row.custom_fields),
  };
}

const DEFAULT_INITIAL_STAGE = 'mother_block';

const duplicateExternalId = (externalId: string) =>
  errors.conflict(
    'DUPLICATE_ENTRY',
    `external_id "${externalId}" is already used by another plant in this workspace`,
  );

async function claimExternalId(
  db: Db,
  workspaceId: string,
  externalId: string | null,
  exceptId: string | null,
): Promise<string | null> {
  if (externalId === null) return null;
  const key = externalId.toLowerCase();
  if (await externalIdTaken(db, workspaceId, key, exceptId)) throw duplicateExternalId(externalId);
  return key;
}

/** Maps a lost race on the external-id index to the same 409 as the check before it. */
function rethrowDuplicate(error: unknown, externalId: string | null): never {
  if (externalId !== null && isUniqueViolation(error, 'plants_external_id')) {
    throw duplicateExternalId(externalId);
  }
  throw error;
}

/**
 * Creates a plant as the key's owner, in its initial stage, with a `created`
 * change-history event, all in the caller's transaction.
 */
export async function createPlant(
  db: Db,
  principal: Principal,
  input: Static<typeof CreatePlantBody>,
  now: string,
): Promise<{ plant: PlantRecord; warning: string | null }> {
  const workspaceId = principal.workspaceId;
  const customFields = await applyCustomFields(db, workspaceId, 'plant', {}, input.custom_fields);
  const options = await stageOptions(db, workspaceId, 'plant');
  let initialStage: string | null;
  if (input.initial_stage !== undefined) {
    initialStage = resolveStageKey(options, input.initial_stage);
    if (initialStage === null) {
      throw errors.validation(
        `initial_stage: "${input.initial_stage}" is not in this lab's plant stage list; use one of ${options
          .map((o) => o.name)
          .join(', ')}`,
      );
    }
  } else {
    initialStage = options.some((o) => o.key === DEFAULT_INITIAL_STAGE)
      ? DEFAULT_INITIAL_STAGE
      : (options[0]?.key ?? null);
  }
  const externalId = input.external_id ?? null;
  const row: PlantRow = {
    id: newId(),
    workspace_id: workspaceId,
    species: input.species,
    common_name: input.common_name ?? null,
    genus: input.genus ?? null,
    family: input.family ?? null,
    cultivar: input.cultivar ?? null,
    source: input.source ?? null,
    notes: input.notes ?? null,
    status: input.status ?? 'active',
    external_id: externalId,
    external_id_key: await claimExternalId(db, workspaceId, externalId, null),
    custom_fields: JSON.stringify(customFields),
    created_by: principal.memberId,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  await insertPlant(db, row).catch((error: unknown) => rethrowDuplicate(error, externalId));
  const stage =
    initialStage === null
      ? null
      : await openInitialStage(db, {
          workspaceId,
          entity: 'plant',
          entityId: row.id,
          stage: initialStage,
          enteredOn: now,
          createdBy: principal.memberId,
        });
  const plant = presentPlant(row);
  await recordChangeEvent(db, {
    workspaceId,
    entityType: 'plant',
    entityId: row.id,
    stageId: stage?.id ?? null,
    eventType: 'created',
    eventTime: now,
    recordedBy: principal.memberId,
    payload: { ...plant, ...fieldsOf(row), initial_stage: stage?.stage ?? null },
  });
  return {
    plant,
    warning:
      stage === null
        ? "The plant was created without a first stage: this lab's plant stage list is empty"
        : null,
  };
}

/** The stored fields a client can set, as a change-history payload carries them. */
function fieldsOf(row: PlantRow) {
  return {
    common_name: row.common_name,
    genus: row.genus,
    family: row.family,
    cultivar: row.cultivar,
    source: row.source,
    notes: row.notes,
  };
}

export async function getPlant(db: Db, workspaceId: string, id: string): Promise<PlantRecord> {
  const row = await findPlant(db, workspaceId, id);
  if (row === undefined) throw errors.notFound('Plant');
  return presentPlant(row);
}

export async function listPlants(
  db: Db,
  workspaceId: string,
  query: { externalId?: string },
  page: PageRequest,
): Promise<{ items: PlantRecord[]; nextKey: SortKey | null }> {
  if (query.externalId !== undefined) {
    const row = await findPlantByExternalKey(db, workspaceId, query.externalId.toLowerCase());
    return { items: row === undefined ? [] : [presentPlant(row)], nextKey: null };
  }
  const rows = await listPlantRows(db, workspaceId, page);
  const { items, nextKey } = splitPage(rows, page.limit, (row) => [row.created_at, row.id]);
  return { items: items.map(presentPlant), nextKey };
}

const UPDATABLE = [
  'species',
  'common_name',
  'genus',
  'family',
  'cultivar',
  'source',
  'notes',
  'status',
  'external_id',
] as const;

/**
 * Partial update: sent fields replace, null clears, custom fields merge per key.
 * Only the creator or a manager and above may edit. Records an `updated` event
 * listing the changed fields, when anything changed.
 */
export async function updatePlant(
  db: Db,
  principal: Principal,
  id: string,
  input: Static<typeof UpdatePlantBody>,
  now: string,
): Promise<PlantRecord> {
  const workspaceId = principal.workspaceId;
  const row = await findPlant(db, workspaceId, id, true);
  if (row === undefined) throw errors.notFound('Plant');
  if (!mayChangeRecordOf(principal, row.created_by)) {
    throw new AppError(
      'PLANT_WRITE_FORBIDDEN',
      'This plant was created by someone else; editing it needs the manager role or above',
    );
  }
  const changes: FieldChanges = diffFields(row, input, UPDATABLE);
  const update: PlantChanges = changedValues(changes);
  if ('external_id' in changes) {
    update.external_id_key = await claimExternalId(db, workspaceId, input.external_id ?? null, id);
  }
  const fieldsChange = await customFieldsChange(
    db,
    workspaceId,
    'plant',
    row.custom_fields,
    input.custom_fields,
  );
  if (fieldsChange !== null) {
    changes.custom_fields = fieldsChange;
    update.custom_fields = JSON.stringify(fieldsChange.to);
  }
  if (Object.keys(changes).length === 0) return presentPlant(row);

  update.updated_at = now;
  await updatePlantRow(db, workspaceId, id, update).catch((error: unknown) =>
    rethrowDuplicate(error, input.external_id ?? null),
  );
  await recordChangeEvent(db, {
    workspaceId,
    entityType: 'plant',
    entityId: id,
    eventType: 'updated',
    eventTime: now,
    recordedBy: principal.memberId,
    payload: { changes },
  });
  return presentPlant({ ...row, ...update });
}

export const findPlantRecord: RecordFinder = (db, workspaceId, id, lock) =>
  findPlant(db, workspaceId, id, lock);
