import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { changedValues, diffFields } from '../../lib/changes.js';
import { errors } from '../../kernel/errors.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup, RecordRef } from '../../kernel/record-lookup.js';
import { toUtc } from '../../kernel/formats.js';
import type { NewChangeEvent } from '../events/index.js';
import { getWorkspace } from '../identity/index.js';
import { requireUsableMediaBatch } from '../media-batches/index.js';
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
  type ArchiveInput,
  type TrackedKind,
  updateTracked,
} from '../records/index.js';
import { subtitleOf, type SearchDocument } from '../search/index.js';
import { openFirstStages, openInitialStage } from '../stages/index.js';
import {
  explantExternalIds,
  explants,
  explantsSubculturedIn,
  findExplantsByExternalKeys,
  findExplantsOfPlants,
  insertExplants,
  EXPLANT_IDENTITY_KEYS,
  findExplantsByKeys,
  listExplantRows,
  type ExplantFilters,
  type ExplantRow,
  type SubculturedRow,
} from './explants.repository.js';
import {
  ENDED_EXPLANT_STATUSES,
  type CreateExplantBody,
  type Explant,
  type ExplantQuery,
  type UpdateExplantBody,
} from './explants.schemas.js';

export type ExplantRecord = Static<typeof Explant>;

/** A blank batch number is no batch number: the external_id fallback goes on to the label. */
const batchNumberOf = (row: ExplantRow) => (row.batch_number === '' ? null : row.batch_number);

/** What presenting an explant needs of its lab: the subculture interval, in days. */
export interface ExplantContext {
  readonly intervalDays: number;
}

const DAY_MS = 86_400_000;

const addDays = (at: string, days: number) =>
  new Date(new Date(at).getTime() + days * DAY_MS).toISOString();

/** What presenting an explant needs of its lab (read once for any number of explants). */
export async function explantContext(db: Db, workspaceId: string): Promise<ExplantContext> {
  return { intervalDays: (await getWorkspace(db, workspaceId)).subculture_interval_days };
}

export function presentExplant(row: ExplantRow, context: ExplantContext): ExplantRecord {
  const subculturedAt = row.subcultured_at ?? row.created_at;
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
    current_stage: currentStageOf(row),
    archived_at: row.archived_at,
    archived_by: row.archived_by,
    subcultured_at: subculturedAt,
    transfer_due_at: addDays(subculturedAt, context.intervalDays),
    created_by: row.created_by,
    parent_explant_ids: JSON.parse(row.parent_explant_ids) as string[],
    // Only on an explant put on a batch: the others answer exactly as before.
    ...(row.media_batch_id === null ? {} : { media_batch_id: row.media_batch_id }),
  };
}

const SEARCHED = ['label', 'batch_number', 'external_id'] as const;

/** What GET /search finds of an explant: its label, and its plant's names with its own. */
function explantDocument(row: ExplantRow): SearchDocument {
  return {
    kind: 'explant',
    id: row.id,
    workspaceId: row.workspace_id,
    title: row.label,
    subtitle: subtitleOf([row.batch_number, row.external_id]),
    names: [row.label],
    fields: [row.batch_number, row.external_id],
    parentId: row.plant_id,
    archived: row.archived_at !== null,
  };
}

/** What an explant search matches. */
const searchTextOfExplant = (row: Pick<ExplantRow, (typeof SEARCHED)[number]>) =>
  searchTextOf(SEARCHED.map((field) => row[field]));

const lowerOrNull = (value: string | null | undefined) =>
  value === null || value === undefined ? null : value.toLowerCase();

/** A new explant's own columns, from what POST /explants was sent. */
function explantColumns(
  input: Static<typeof CreateExplantBody>,
  now: string,
  parentIds: readonly string[] = [],
) {
  const initialCount = input.initial_count ?? null;
  return {
    plant_id: input.plant_id ?? null,
    label: input.label,
    label_key: input.label.toLowerCase(),
    batch_number: input.batch_number ?? null,
    batch_number_key: lowerOrNull(input.batch_number),
    notes: input.notes ?? null,
    status: input.status ?? 'active',
    initial_count: initialCount,
    current_count: input.current_count === undefined ? initialCount : input.current_count,
    plantlet_count: input.plantlet_count ?? null,
    subcultured_at: now,
    parent_explant_ids: JSON.stringify(parentIds),
    media_batch_id: input.media_batch_id ?? null,
  };
}

/** An explant with a room but no stage: the room belongs to the first stage. */
function requireStageForRoom(input: Static<typeof CreateExplantBody>, stage: StageOption | null) {
  if (input.room_id !== undefined && stage === null) {
    throw errors.validation('room_id: the room of the first stage; send initial_stage with it');
  }
}

/**
 * Creates an explant as the key's owner, with a `created` change-history event, and
 * its first stage record in the same transaction when `initial_stage` is sent (Vitro's
 * addition: the spec's explant has no stage until one is posted to `/stages`).
 */
export async function createExplant(
  trx: Trx,
  principal: Principal,
  input: Static<typeof CreateExplantBody>,
  now: string,
  records: RecordLookup,
  /**
   * A split's daughter or a merge's pooled culture: the explants it came from; and, for a
   * split, the lab's explant context and stage list it reads once for all its daughters,
   * the plant they inherit from the parent (no need to look it up again), and where it
   * gathers the events.
   */
  family: {
    readonly parentIds: readonly string[];
    readonly context?: ExplantContext;
    readonly stageList?: () => Promise<readonly StageOption[]>;
    readonly inheritedPlantId?: string | null;
    readonly events?: NewChangeEvent[];
  } = { parentIds: [] },
): Promise<ExplantRecord> {
  const workspaceId = principal.workspaceId;
  const plantId = input.plant_id ?? null;
  if (
    plantId !== null &&
    plantId !== family.inheritedPlantId &&
    (await records.find(trx, 'plant', workspaceId, plantId)) === undefined
  ) {
    throw errors.validation('plant_id: no plant with this id in the workspace');
  }
  if (input.media_batch_id !== undefined) {
    await requireUsableMediaBatch(trx, workspaceId, input.media_batch_id, 'media_batch_id', now);
  }
  const { record } = await createTracked(trx, EXPLANT_KIND, principal, input, now, {
    firstStage: async () => {
      const stage = await initialStageOf(
        trx,
        workspaceId,
        'explant',
        input.initial_stage,
        undefined,
        family.stageList,
      );
      requireStageForRoom(input, stage);
      return stage;
    },
    openStage: openInitialStage,
    row: (columns) => ({ ...columns, ...explantColumns(input, now, family.parentIds) }),
    ...(family.context === undefined ? {} : { context: family.context }),
    ...(family.events === undefined ? {} : { events: family.events }),
  });
  return record;
}

/** Cultures that fall due for transfer in (from, to]: the lab's interval after their last one. */
export async function explantsFallingDue(
  db: Db,
  workspaceId: string,
  period: { readonly from: string; readonly to: string },
): Promise<(SubculturedRow & { transfer_due_at: string })[]> {
  const { intervalDays } = await explantContext(db, workspaceId);
  const rows = await explantsSubculturedIn(
    db,
    workspaceId,
    { from: addDays(period.from, -intervalDays), to: addDays(period.to, -intervalDays) },
    ENDED_EXPLANT_STATUSES,
  );
  return rows.map((row) => ({
    ...row,
    transfer_due_at: addDays(row.subcultured_at!, intervalDays),
  }));
}

/** What checking new explants needs of their lab, read once for any number of them. */
export interface NewExplantSetup {
  readonly definitions: readonly CustomFieldDefinitionRow[];
  readonly stages: readonly StageOption[];
}

export async function newExplantSetup(db: Db, workspaceId: string): Promise<NewExplantSetup> {
  return {
    definitions: await customFieldDefinitions(db, workspaceId, 'explant'),
    stages: await stageOptions(db, workspaceId, 'explant'),
  };
}

/**
 * POST /explants' checks of one new explant against its lab's custom fields and
 * stage list, without the database; throws the same 422.
 */
export function checkNewExplant(
  setup: NewExplantSetup,
  input: Static<typeof CreateExplantBody>,
): { customFields: CustomFieldMap; stage: StageOption | null } {
  const customFields = mergeCustomFields(setup.definitions, 'explant', {}, input.custom_fields);
  const stage = pickInitialStage(setup.stages, 'explant', input.initial_stage);
  requireStageForRoom(input, stage);
  return { customFields, stage };
}

/**
 * Creates many explants at once as the key's owner (an import): each checked as
 * POST /explants checks one, plants and rooms of the workspace, external ids free
 * and distinct, all before the first write; then written in a few statements.
 */
export async function createExplants(
  trx: Trx,
  principal: Principal,
  setup: NewExplantSetup,
  inputs: readonly Static<typeof CreateExplantBody>[],
  now: string,
  records: RecordLookup,
): Promise<ExplantRecord[]> {
  const workspaceId = principal.workspaceId;
  const checked = inputs.map((input) => checkNewExplant(setup, input));
  for (const plantId of new Set(inputs.flatMap((input) => input.plant_id ?? []))) {
    if ((await records.find(trx, 'plant', workspaceId, plantId)) === undefined) {
      throw errors.validation('plant_id: no plant with this id in the workspace');
    }
  }
  for (const batchId of new Set(inputs.flatMap((input) => input.media_batch_id ?? []))) {
    await requireUsableMediaBatch(trx, workspaceId, batchId, 'media_batch_id', now);
  }
  return createTrackedMany(trx, EXPLANT_KIND, principal, inputs, now, {
    checked,
    openStages: openFirstStages,
    row: (columns, input) => ({ ...columns, ...explantColumns(input, now) }),
    insert: insertExplants,
  });
}

export function getExplant(db: Db, workspaceId: string, id: string): Promise<ExplantRecord> {
  return getTracked(db, EXPLANT_KIND, workspaceId, id);
}

/**
 * Newest first, filtered by stage, room, status, a search, the plant it came
 * from and due transfers; archived explants only when asked for. `externalId`
 * finds 0 or 1 explant by external id, then batch number, then label (archived
 * ones too), and takes no other filter.
 */
export async function listExplants(
  db: Db,
  workspaceId: string,
  query: Static<typeof ExplantQuery>,
  records: RecordLookup,
  page: PageRequest,
): Promise<Page<ExplantRecord>> {
  const { externalId } = query;
  if (externalId !== undefined) {
    const others = { ...query, externalId: undefined };
    if (
      hasRecordFilters(others) ||
      query.plant_id !== undefined ||
      query.transfer_due_before !== undefined
    ) {
      throw errors.validation(
        'externalId: finds one record by its identity and cannot be combined with other filters',
      );
    }
    return listTracked(db, EXPLANT_KIND, workspaceId, noRows, () =>
      explantRowByIdentity(db, workspaceId, externalId),
    );
  }
  const filters = await checkRecordFilters(db, workspaceId, 'explant', query);
  if (
    query.plant_id !== undefined &&
    (await records.find(db, 'plant', workspaceId, query.plant_id)) === undefined
  ) {
    throw errors.validation('plant_id: no plant with this id in the workspace');
  }
  let subculturedBy: ExplantFilters['subculturedBy'];
  if (query.transfer_due_before !== undefined) {
    const { intervalDays } = await explantContext(db, workspaceId);
    subculturedBy = {
      at: addDays(toUtc(query.transfer_due_before), -intervalDays),
      endedStatuses: ENDED_EXPLANT_STATUSES,
    };
  }
  return listTracked(
    db,
    EXPLANT_KIND,
    workspaceId,
    () =>
      listExplantRows(
        db,
        workspaceId,
        {
          ...filters,
          ...(query.plant_id === undefined ? {} : { plantId: query.plant_id }),
          ...(subculturedBy === undefined ? {} : { subculturedBy }),
        },
        page,
      ),
    null,
  );
}

const noRows = () => Promise.resolve({ items: [], nextKey: null });

/**
 * For each code (lower-cased), the newest explant whose external id, else batch
 * number, else label is that code, ignoring case; codes that name none are absent.
 */
async function explantRowsByIdentity(
  db: Db,
  workspaceId: string,
  codes: readonly string[],
): Promise<Map<string, ExplantRow>> {
  const keys = codes.map((code) => code.toLowerCase());
  const rows = await findExplantsByKeys(db, workspaceId, keys);
  const found = new Map<string, ExplantRow>();
  for (const key of keys) {
    for (const column of EXPLANT_IDENTITY_KEYS) {
      // Rows come newest first: the first match of a column is the newest.
      const row = rows.find((candidate) => candidate[column] === key);
      if (row !== undefined) {
        found.set(key, row);
        break;
      }
    }
  }
  return found;
}

async function explantRowByIdentity(
  db: Db,
  workspaceId: string,
  code: string,
): Promise<ExplantRow | undefined> {
  return (await explantRowsByIdentity(db, workspaceId, [code])).get(code.toLowerCase());
}

/** The explants some codes name (as `externalId` finds one), by lower-cased code; archived ones too. */
export async function findExplantsByIdentity(
  db: Db,
  workspaceId: string,
  codes: readonly string[],
): Promise<Map<string, ExplantRecord>> {
  const rows = await explantRowsByIdentity(db, workspaceId, codes);
  if (rows.size === 0) return new Map();
  const context = await explantContext(db, workspaceId);
  return new Map([...rows].map(([key, row]) => [key, presentExplant(row, context)]));
}

/** Explants by id, in one query: those found, by id. */
export function getExplants(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): Promise<Map<string, ExplantRecord>> {
  return getTrackedMany(db, EXPLANT_KIND, workspaceId, ids);
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
  ExplantRecord,
  ExplantContext
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
  searchText: searchTextOfExplant,
  searchDocument: explantDocument,
  context: explantContext,
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

/** What a split or a merge reads of the explants it locks. */
export type ExplantFamilyRow = ExplantCounts &
  Pick<
    ExplantRow,
    | 'workspace_id'
    | 'label'
    | 'plant_id'
    | 'status'
    | 'current_stage'
    | 'current_room_id'
    | 'parent_explant_ids'
    | 'archived_at'
  >;

/** What a transfer holds of its explant (its counts, its subculture): the row it locked. */
export type ExplantCounts = RecordRef &
  Pick<ExplantRow, 'current_count' | 'plantlet_count' | 'subcultured_at'>;

/** The columns a transfer writes of its explant. */
export type ExplantTransferUpdate = Partial<
  Pick<
    ExplantRow,
    'current_count' | 'plantlet_count' | 'updated_at' | 'subcultured_at' | 'media_batch_id'
  >
>;

/**
 * What a transfer changes of its explant, in the transfer's transaction:
 * `explant` is the row the transfer locked through the record lookup, so it is
 * not read again.
 * - the counts it observed: those that differ are written with `updated_at`; the
 *   answer is the `updated` event naming them and the transfer (for the caller to
 *   record with its own), so a mirror that follows `created`/`updated` events keeps
 *   the right counts;
 * - `subcultured_at`, when the transfer is completed and later than the last one
 *   (the transfer event says so already; no event of its own, `updated_at` kept),
 *   and then `media_batch_id` too when the transfer named a batch.
 * Nothing that differs: nothing written; no counts changed: no event (null). The
 * answer's `update` is the columns written (the caller may present the explant as
 * it is now from the row it locked, without reading it again).
 */
export async function applyExplantTransfer(
  trx: Trx,
  explant: ExplantCounts,
  input: {
    workspaceId: string;
    counts: ObservedCounts;
    /** The transfer's date, when it is completed (a pending one is no subculture yet). */
    subculturedAt: string | null;
    /** The medium batch the transfer named, if any. */
    mediaBatchId?: string | null;
    transferId: string;
    by: string | null;
    at: string;
  },
): Promise<{ event: NewChangeEvent | null; update: ExplantTransferUpdate }> {
  const { workspaceId, at } = input;
  const changes = diffFields(explant, input.counts, ['current_count', 'plantlet_count']);
  const counted = Object.keys(changes).length > 0;
  const later =
    input.subculturedAt !== null &&
    (explant.subcultured_at === null || input.subculturedAt > explant.subcultured_at);
  if (!counted && !later) return { event: null, update: {} };
  const update: ExplantTransferUpdate = {
    ...(counted ? { ...(changedValues(changes) as ObservedCounts), updated_at: at } : {}),
    ...(later ? { subcultured_at: input.subculturedAt } : {}),
    ...(later && input.mediaBatchId != null ? { media_batch_id: input.mediaBatchId } : {}),
  };
  await explants.update(trx, workspaceId, explant.id, update);
  if (!counted) return { event: null, update };
  const event: NewChangeEvent = {
    workspaceId,
    entityType: 'explant',
    entityId: explant.id,
    eventType: 'updated',
    eventTime: at,
    recordedBy: input.by,
    payload: { changes, transfer_id: input.transferId },
  };
  return { event, update };
}

/**
 * Adds parents to an explant a merge pools others into (the caller holds its lock and
 * has checked that none of them descends from it): its `parent_explant_ids` grows.
 */
export async function addExplantParents(
  trx: Trx,
  explant: Pick<ExplantRow, 'id' | 'workspace_id' | 'parent_explant_ids'>,
  parentIds: readonly string[],
  now: string,
): Promise<string[]> {
  const parents = [
    ...new Set([...(JSON.parse(explant.parent_explant_ids) as string[]), ...parentIds]),
  ];
  await explants.update(trx, explant.workspace_id, explant.id, {
    parent_explant_ids: JSON.stringify(parents),
    updated_at: now,
  });
  return parents;
}

/** Archives an explant made by mistake, or brings it back (see `setArchived`). */
export function archiveExplant(
  trx: Trx,
  principal: Principal,
  id: string,
  input: ArchiveInput,
  archive: boolean,
  now: string,
): Promise<ExplantRecord> {
  return setArchived(
    trx,
    EXPLANT_KIND,
    principal,
    id,
    { archive, reason: input.reason ?? null },
    now,
  );
}

/** Whether PATCH /explants/{id} with `input` would change the explant: its checks, no write (an import's dry run). */
export function checkExplantUpdate(
  db: Db,
  principal: Principal,
  id: string,
  input: Static<typeof UpdateExplantBody>,
): Promise<boolean> {
  return checkTrackedUpdate(db, EXPLANT_KIND, principal, id, input);
}

/** An explant as an import's rows match it: by external id, or by label within its plant. */
export interface ExplantIdentity {
  readonly id: string;
  readonly plantId: string | null;
  readonly labelKey: string;
  readonly externalIdKey: string | null;
}

/** The explants with these external ids (lower-cased), and those of these plants. */
export async function findExplantIdentities(
  db: Db,
  workspaceId: string,
  externalKeys: readonly string[],
  plantIds: readonly string[],
): Promise<ExplantIdentity[]> {
  const rows = [
    ...(await findExplantsByExternalKeys(db, workspaceId, externalKeys)),
    ...(await findExplantsOfPlants(db, workspaceId, plantIds)),
  ];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return [...byId.values()].map((row) => ({
    id: row.id,
    plantId: row.plant_id,
    labelKey: row.label_key,
    externalIdKey: row.external_id_key,
  }));
}
