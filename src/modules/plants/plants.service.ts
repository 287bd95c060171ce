import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import { recordChangeEvent } from '../events/index.js';
import { stageOptions } from '../lab/index.js';
import {
  applyCustomFields,
  customFieldsOf,
  getTracked,
  listTracked,
  resolveStageKey,
  type TrackedKind,
  updateTracked,
} from '../records/index.js';
import { openInitialStage } from '../stages/index.js';
import {
  findPlantByExternalKey,
  plantExternalIds,
  plants,
  type PlantRow,
} from './plants.repository.js';
import type { CreatePlantBody, Plant, UpdatePlantBody } from './plants.schemas.js';

export type PlantRecord = Static<typeof Plant>;

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
    common_name: row.common_name,
    genus: row.genus,
    family: row.family,
    cultivar: row.cultivar,
    source: row.source,
    notes: row.notes,
    updated_at: row.updated_at,
  };
}

const DEFAULT_INITIAL_STAGE = 'mother_block';

/** The key of the stage a new plant starts in: the one asked for, else Mother Block, else the first. */
async function initialStageOf(
  db: Db,
  workspaceId: string,
  asked: string | undefined,
): Promise<string | null> {
  const options = await stageOptions(db, workspaceId, 'plant');
  if (asked === undefined) {
    return options.some((o) => o.key === DEFAULT_INITIAL_STAGE)
      ? DEFAULT_INITIAL_STAGE
      : (options[0]?.key ?? null);
  }
  const key = resolveStageKey(options, asked);
  if (key === null) {
    throw errors.validation(
      `initial_stage: "${asked}" is not in this lab's plant stage list; use one of ${options
        .map((o) => o.name)
        .join(', ')}`,
    );
  }
  return key;
}

/**
 * Creates a plant as the key's owner, in its initial stage, with a `created`
 * change-history event, all in the caller's transaction.
 */
export async function createPlant(
  trx: Trx,
  principal: Principal,
  input: Static<typeof CreatePlantBody>,
  now: string,
): Promise<{ plant: PlantRecord; warning: string | null }> {
  const workspaceId = principal.workspaceId;
  const customFields = await applyCustomFields(trx, workspaceId, 'plant', {}, input.custom_fields);
  const initialStage = await initialStageOf(trx, workspaceId, input.initial_stage);
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
    external_id_key: await plantExternalIds.claim(trx, workspaceId, externalId, null),
    custom_fields: JSON.stringify(customFields),
    created_by: principal.memberId,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  await plantExternalIds.guard(plants.insert(trx, row), externalId);
  const stage =
    initialStage === null
      ? null
      : await openInitialStage(trx, {
          workspaceId,
          entity: 'plant',
          entityId: row.id,
          stage: initialStage,
          enteredOn: now,
          createdBy: principal.memberId,
        });
  const plant = presentPlant(row);
  await recordChangeEvent(trx, {
    workspaceId,
    entityType: 'plant',
    entityId: row.id,
    stageId: stage?.id ?? null,
    eventType: 'created',
    eventTime: now,
    recordedBy: principal.memberId,
    payload: { ...plant, initial_stage: stage?.stage ?? null },
  });
  return {
    plant,
    warning:
      stage === null
        ? "The plant was created without a first stage: this lab's plant stage list is empty"
        : null,
  };
}

export function getPlant(db: Db, workspaceId: string, id: string): Promise<PlantRecord> {
  return getTracked(db, PLANT_KIND, workspaceId, id);
}

/** Newest first; `externalId` finds 0 or 1 plant (case-insensitive) on a single page. */
export function listPlants(
  db: Db,
  workspaceId: string,
  query: { externalId?: string },
  page: PageRequest,
): Promise<Page<PlantRecord>> {
  const { externalId } = query;
  return listTracked(
    db,
    PLANT_KIND,
    workspaceId,
    page,
    externalId === undefined
      ? null
      : () => findPlantByExternalKey(db, workspaceId, externalId.toLowerCase()),
  );
}

const PLANT_KIND: TrackedKind<
  PlantRow,
  | 'species'
  | 'common_name'
  | 'genus'
  | 'family'
  | 'cultivar'
  | 'source'
  | 'notes'
  | 'status'
  | 'external_id',
  PlantRecord
> = {
  entity: 'plant',
  noun: 'plant',
  table: plants,
  externalIds: plantExternalIds,
  editRefusal: { code: 'PLANT_WRITE_FORBIDDEN', action: 'editing it' },
  updatable: [
    'species',
    'common_name',
    'genus',
    'family',
    'cultivar',
    'source',
    'notes',
    'status',
    'external_id',
  ],
  present: presentPlant,
};

/**
 * Partial update: sent fields replace, null clears, custom fields merge per key.
 * Only the creator or a manager and above may edit. Records an `updated` event
 * listing the changed fields, when anything changed.
 */
export function updatePlant(
  trx: Trx,
  principal: Principal,
  id: string,
  input: Static<typeof UpdatePlantBody>,
  now: string,
): Promise<PlantRecord> {
  return updateTracked(trx, PLANT_KIND, principal, id, input, now);
}
