import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import {
  customFieldDefinitions,
  stageOptions,
  type CustomFieldDefinitionRow,
  type StageOption,
} from '../lab/index.js';
import {
  checkRecordFilters,
  checkTrackedUpdate,
  createTracked,
  createTrackedMany,
  currentStageOf,
  customFieldsOf,
  getTracked,
  getTrackedMany,
  hasRecordFilters,
  initialStageOf,
  listTracked,
  mergeCustomFields,
  pickInitialStage,
  type CustomFieldMap,
  searchTextOf,
  setArchived,
  type ArchivedMode,
  type ArchiveInput,
  type TrackedKind,
  updateTracked,
} from '../records/index.js';
import { subtitleOf, type SearchDocument } from '../search/index.js';
import { openFirstStages, openInitialStage } from '../stages/index.js';
import {
  findPlantByExternalKey,
  findPlantsByExternalKeys,
  insertPlants,
  listPlantRows,
  PLANT_FIELDS,
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
    current_stage: currentStageOf(row),
    archived_at: row.archived_at,
    archived_by: row.archived_by,
    created_by: row.created_by,
  };
}

/** What a plant search matches. */
const searchTextOfPlant = (row: Pick<PlantRow, SearchedField>) =>
  searchTextOf(SEARCHED.map((field) => row[field]));

const SEARCHED = ['species', 'common_name', 'genus', 'family', 'cultivar', 'external_id'] as const;
type SearchedField = (typeof SEARCHED)[number];

/** What GET /search finds of a plant: the fields its list's `q` searches, its names first. */
function plantDocument(row: PlantRow): SearchDocument {
  const named = row.common_name !== null && row.common_name !== '';
  return {
    kind: 'plant',
    id: row.id,
    workspaceId: row.workspace_id,
    title: named ? row.common_name! : row.species,
    subtitle: subtitleOf([named ? row.species : null, row.cultivar, row.external_id]),
    names: [row.common_name, row.species],
    fields: [row.genus, row.family, row.cultivar, row.external_id],
    archived: row.archived_at !== null,
  };
}

const DEFAULT_INITIAL_STAGE = 'mother_block';

/** Nothing asked: a new plant starts in Mother Block, else the first stage of the list. */
const defaultStage = (options: readonly StageOption[]) =>
  options.find((o) => o.key === DEFAULT_INITIAL_STAGE) ?? options[0] ?? null;

/** A new plant's own columns, from what POST /plants was sent. */
const plantColumns = (input: Static<typeof CreatePlantBody>) => ({
  species: input.species,
  common_name: input.common_name ?? null,
  genus: input.genus ?? null,
  family: input.family ?? null,
  cultivar: input.cultivar ?? null,
  source: input.source ?? null,
  notes: input.notes ?? null,
  status: input.status ?? 'active',
});

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
  const { record, stage } = await createTracked(trx, PLANT_KIND, principal, input, now, {
    firstStage: () =>
      initialStageOf(trx, principal.workspaceId, 'plant', input.initial_stage, defaultStage),
    openStage: openInitialStage,
    row: (columns) => ({ ...columns, ...plantColumns(input) }),
  });
  return {
    plant: record,
    warning:
      stage === null
        ? "The plant was created without a first stage: this lab's plant stage list is empty"
        : null,
  };
}

/** What checking new plants needs of their lab, read once for any number of them. */
export interface NewPlantSetup {
  readonly definitions: readonly CustomFieldDefinitionRow[];
  readonly stages: readonly StageOption[];
}

export async function newPlantSetup(db: Db, workspaceId: string): Promise<NewPlantSetup> {
  return {
    definitions: await customFieldDefinitions(db, workspaceId, 'plant'),
    stages: await stageOptions(db, workspaceId, 'plant'),
  };
}

/**
 * POST /plants' checks of one new plant against its lab's custom fields and stage
 * list, without the database; throws the same 422.
 */
export function checkNewPlant(
  setup: NewPlantSetup,
  input: Static<typeof CreatePlantBody>,
): { customFields: CustomFieldMap; stage: StageOption | null } {
  return {
    customFields: mergeCustomFields(setup.definitions, 'plant', {}, input.custom_fields),
    stage: pickInitialStage(setup.stages, 'plant', input.initial_stage, defaultStage),
  };
}

/**
 * Creates many plants at once as the key's owner (an import): each checked as
 * POST /plants checks one, rooms of the workspace, external ids free and distinct,
 * all before the first write; then written in a few statements (rows, first
 * stages, search documents, `created` events), as POST /plants writes one.
 */
export async function createPlants(
  trx: Trx,
  principal: Principal,
  setup: NewPlantSetup,
  inputs: readonly Static<typeof CreatePlantBody>[],
  now: string,
): Promise<PlantRecord[]> {
  return createTrackedMany(trx, PLANT_KIND, principal, inputs, now, {
    checked: inputs.map((input) => checkNewPlant(setup, input)),
    openStages: openFirstStages,
    row: (columns, input) => ({ ...columns, ...plantColumns(input) }),
    insert: insertPlants,
  });
}

export function getPlant(db: Db, workspaceId: string, id: string): Promise<PlantRecord> {
  return getTracked(db, PLANT_KIND, workspaceId, id);
}

export interface PlantListQuery {
  externalId?: string;
  stage?: string;
  room_id?: string;
  status?: string;
  q?: string;
  archived?: ArchivedMode;
}

/**
 * Newest first, filtered by stage, room, status and a search; archived plants
 * only when asked for. `externalId` finds 0 or 1 plant (case-insensitive,
 * archived ones too) on a single page, and takes no other filter.
 */
export async function listPlants(
  db: Db,
  workspaceId: string,
  query: PlantListQuery,
  page: PageRequest,
): Promise<Page<PlantRecord>> {
  const { externalId } = query;
  if (externalId !== undefined) {
    if (hasRecordFilters(query as Record<string, unknown>)) throw externalIdAlone();
    return listTracked(db, PLANT_KIND, workspaceId, noRows, () =>
      findPlantByExternalKey(db, workspaceId, externalId.toLowerCase()),
    );
  }
  const filters = await checkRecordFilters(db, workspaceId, 'plant', query);
  return listTracked(
    db,
    PLANT_KIND,
    workspaceId,
    () => listPlantRows(db, workspaceId, filters, page),
    null,
  );
}

const noRows = () => Promise.resolve({ items: [], nextKey: null });

/** The plants whose external ids are some codes (any case), by lower-cased code; archived ones too. */
export async function findPlantsByIdentity(
  db: Db,
  workspaceId: string,
  codes: readonly string[],
): Promise<Map<string, PlantRecord>> {
  const keys = codes.map((code) => code.toLowerCase());
  const rows = await findPlantsByExternalKeys(db, workspaceId, keys);
  return new Map(rows.map((row) => [row.external_id_key!, presentPlant(row)]));
}

/** Plants by id, in one query: those found, by id. */
export function getPlants(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): Promise<Map<string, PlantRecord>> {
  return getTrackedMany(db, PLANT_KIND, workspaceId, ids);
}

const externalIdAlone = () =>
  errors.validation(
    'externalId: finds one record by its identity and cannot be combined with stage, room_id, status, q or archived',
  );

const PLANT_KIND: TrackedKind<
  PlantRow,
  (typeof PLANT_FIELDS)[number] | 'external_id',
  PlantRecord,
  null
> = {
  entity: 'plant',
  noun: 'plant',
  table: plants,
  externalIds: plantExternalIds,
  editRefusal: { code: 'PLANT_WRITE_FORBIDDEN', action: 'editing it' },
  updatable: [...PLANT_FIELDS, 'external_id'],
  searchText: searchTextOfPlant,
  searchDocument: plantDocument,
  context: () => Promise.resolve(null),
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

/** Archives a plant made by mistake, or brings it back (see `setArchived`). */
export function archivePlant(
  trx: Trx,
  principal: Principal,
  id: string,
  input: ArchiveInput,
  archive: boolean,
  now: string,
): Promise<PlantRecord> {
  return setArchived(
    trx,
    PLANT_KIND,
    principal,
    id,
    { archive, reason: input.reason ?? null },
    now,
  );
}

/** Whether PATCH /plants/{id} with `input` would change the plant: its checks, no write (an import's dry run). */
export function checkPlantUpdate(
  db: Db,
  principal: Principal,
  id: string,
  input: Static<typeof UpdatePlantBody>,
): Promise<boolean> {
  return checkTrackedUpdate(db, PLANT_KIND, principal, id, input);
}
