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
import {
  checkRecordFilters,
  createTracked,
  currentStageOf,
  customFieldsOf,
  getTracked,
  getTrackedMany,
  hasRecordFilters,
  initialStageOf,
  listTracked,
  searchTextOf,
  setArchived,
  type ArchiveInput,
  type TrackedKind,
  updateTracked,
} from '../records/index.js';
import { openInitialStage } from '../stages/index.js';
import {
  explantExternalIds,
  explants,
  EXPLANT_IDENTITY_KEYS,
  findExplantsByKeys,
  listExplantRows,
  type ExplantFilters,
  type ExplantRow,
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
interface ExplantContext {
  readonly intervalDays: number;
}

const DAY_MS = 86_400_000;

const addDays = (at: string, days: number) =>
  new Date(new Date(at).getTime() + days * DAY_MS).toISOString();

async function explantContext(db: Db, workspaceId: string): Promise<ExplantContext> {
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
    parent_explant_ids: JSON.parse(row.parent_explant_ids) as string[],
  };
}

const SEARCHED = ['label', 'batch_number', 'external_id'] as const;

/** What an explant search matches. */
const searchTextOfExplant = (row: Pick<ExplantRow, (typeof SEARCHED)[number]>) =>
  searchTextOf(SEARCHED.map((field) => row[field]));

const lowerOrNull = (value: string | null | undefined) =>
  value === null || value === undefined ? null : value.toLowerCase();

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
  /** A split's daughter or a merge's pooled culture: the explants it came from. */
  family: { readonly parentIds: readonly string[] } = { parentIds: [] },
): Promise<ExplantRecord> {
  const workspaceId = principal.workspaceId;
  const plantId = input.plant_id ?? null;
  if (plantId !== null && (await records.find(trx, 'plant', workspaceId, plantId)) === undefined) {
    throw errors.validation('plant_id: no plant with this id in the workspace');
  }
  const initialCount = input.initial_count ?? null;
  const { record } = await createTracked(trx, EXPLANT_KIND, principal, input, now, {
    firstStage: async () => {
      const stage = await initialStageOf(trx, workspaceId, 'explant', input.initial_stage);
      if (input.room_id !== undefined && stage === null) {
        throw errors.validation('room_id: the room of the first stage; send initial_stage with it');
      }
      return stage;
    },
    openStage: openInitialStage,
    row: (columns) => ({
      ...columns,
      plant_id: plantId,
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
      parent_explant_ids: JSON.stringify(family.parentIds),
    }),
  });
  return record;
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

/**
 * What a transfer changes of its explant, in the transfer's transaction:
 * `explant` is the row the transfer locked through the record lookup, so it is
 * not read again.
 * - the counts it observed: those that differ are written with `updated_at`; the
 *   answer is the `updated` event naming them and the transfer (for the caller to
 *   record with its own), so a mirror that follows `created`/`updated` events keeps
 *   the right counts;
 * - `subcultured_at`, when the transfer is completed and later than the last one
 *   (the transfer event says so already; no event of its own, `updated_at` kept).
 * Nothing that differs: nothing written; no counts changed: no event (null).
 */
export async function applyExplantTransfer(
  trx: Trx,
  explant: ExplantCounts,
  input: {
    workspaceId: string;
    counts: ObservedCounts;
    /** The transfer's date, when it is completed (a pending one is no subculture yet). */
    subculturedAt: string | null;
    transferId: string;
    by: string | null;
    at: string;
  },
): Promise<NewChangeEvent | null> {
  const { workspaceId, at } = input;
  const changes = diffFields(explant, input.counts, ['current_count', 'plantlet_count']);
  const counted = Object.keys(changes).length > 0;
  const later =
    input.subculturedAt !== null &&
    (explant.subcultured_at === null || input.subculturedAt > explant.subcultured_at);
  if (!counted && !later) return null;
  await explants.update(trx, workspaceId, explant.id, {
    ...(counted ? { ...(changedValues(changes) as ObservedCounts), updated_at: at } : {}),
    ...(later ? { subcultured_at: input.subculturedAt } : {}),
  });
  if (!counted) return null;
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
