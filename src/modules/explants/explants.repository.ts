import type { Db, Trx } from '../../db/database.js';
import { bulkInsert, type ColumnType } from '../../db/bulk-insert.js';
import {
  fetchPage,
  NEWEST_FIRST,
  preparedPage,
  type Page,
  type PageRequest,
} from '../../db/pages.js';
import type { ExplantTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';
import type { RecordSource } from '../../kernel/record-lookup.js';
import {
  applyRecordFilters,
  externalIds,
  isPlainList,
  TRACKED_COLUMNS,
  type RecordFilters,
} from '../records/index.js';

export type ExplantRow = ExplantTable;

/** An explant row's columns, each named (as a prepared query must). */
export const EXPLANT_COLUMNS = [
  'id',
  'workspace_id',
  'plant_id',
  'label',
  'label_key',
  'batch_number',
  'batch_number_key',
  'notes',
  'status',
  'initial_count',
  'current_count',
  'plantlet_count',
  ...TRACKED_COLUMNS,
  'subcultured_at',
  'parent_explant_ids',
  'media_batch_id',
] as const;

/** Explants by id, locked for a write, inserted, updated; deleted ones hidden. */
export const explants = workspaceTable('explants', EXPLANT_COLUMNS, { softDelete: true });

/**
 * How other modules find and lock explants (the record lookup's source of kind
 * `explant`): the whole row, so that a transfer hands the explant it locked to
 * `applyExplantTransfer`.
 */
export const explantRecords: RecordSource<ExplantRow> = explants;

export const explantExternalIds = externalIds('explants', 'explant');

/** The identity columns, in the order a code is matched against them. */
export const EXPLANT_IDENTITY_KEYS = ['external_id_key', 'batch_number_key', 'label_key'] as const;

/**
 * The explants whose lower-cased external id, batch number or label is one of
 * `keys`, newest first (`created_at`, then id); deleted ones hidden.
 */
export async function findExplantsByKeys(
  db: Db,
  workspaceId: string,
  keys: readonly string[],
): Promise<ExplantRow[]> {
  if (keys.length === 0) return [];
  const wanted = [...new Set(keys)];
  return db
    .selectFrom('explants')
    .select(EXPLANT_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or(EXPLANT_IDENTITY_KEYS.map((column) => eb(column, 'in', wanted))))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export interface ExplantFilters extends RecordFilters {
  readonly plantId?: string;
  /** Cultures that went onto fresh medium at or before this time and have not ended. */
  readonly subculturedBy?: { readonly at: string; readonly endedStatuses: readonly string[] };
}

/**
 * A page of the workspace's explants, newest first, filtered (see `listPlantRows`
 * for the indexes; a plant's explants use explants_plant, due cultures
 * explants_workspace_subcultured).
 */
export function listExplantRows(
  db: Db,
  workspaceId: string,
  filters: ExplantFilters,
  page: PageRequest,
): Promise<Page<ExplantRow>> {
  if (isPlainList(filters)) return plainPage.fetch(db, { workspaceId }, page);
  let query = applyRecordFilters(
    db.selectFrom('explants').select(EXPLANT_COLUMNS).where('workspace_id', '=', workspaceId),
    filters,
  );
  if (filters.plantId !== undefined) query = query.where('plant_id', '=', filters.plantId);
  const due = filters.subculturedBy;
  if (due !== undefined) {
    query = query
      .where('subcultured_at', '<=', due.at)
      .where('status', 'not in', [...due.endedStatuses]);
  }
  return fetchPage(query, NEWEST_FIRST, page);
}

const plainPage = preparedPage(
  (db, p: { workspaceId: string }) =>
    applyRecordFilters(
      db.selectFrom('explants').select(EXPLANT_COLUMNS).where('workspace_id', '=', p.workspaceId),
      { archived: 'exclude' },
    ),
  NEWEST_FIRST,
);

/** What the reminders pass needs of an explant. */
export type SubculturedRow = Pick<
  ExplantRow,
  'id' | 'label' | 'current_room_id' | 'subcultured_at'
>;

/**
 * Cultures, not archived and not ended, that last went onto fresh medium in
 * (from, to] (index explants_workspace_subcultured).
 */
export function explantsSubculturedIn(
  db: Db,
  workspaceId: string,
  period: { readonly from: string; readonly to: string },
  endedStatuses: readonly string[],
): Promise<SubculturedRow[]> {
  return db
    .selectFrom('explants')
    .select(['id', 'label', 'current_room_id', 'subcultured_at'])
    .where('workspace_id', '=', workspaceId)
    .where('subcultured_at', '>', period.from)
    .where('subcultured_at', '<=', period.to)
    .where('status', 'not in', [...endedStatuses])
    .where('archived_at', 'is', null)
    .where('deleted_at', 'is', null)
    .execute();
}

const COUNTS = new Set(['initial_count', 'current_count', 'plantlet_count']);
const insertExplantRows = bulkInsert(
  'explants',
  Object.fromEntries(
    EXPLANT_COLUMNS.map((column) => [column, COUNTS.has(column) ? 'integer' : 'text']),
  ) as Record<(typeof EXPLANT_COLUMNS)[number], ColumnType>,
);

/** Many new explants at once (one statement on PostgreSQL); their external ids are checked. */
export async function insertExplants(trx: Trx, rows: readonly ExplantRow[]): Promise<void> {
  await insertExplantRows.run(trx, rows);
}

/** The explants of these plants (deleted ones hidden): what an import matches rows on. */
export async function findExplantsOfPlants(
  db: Db,
  workspaceId: string,
  plantIds: readonly string[],
): Promise<ExplantRow[]> {
  const rows: ExplantRow[] = [];
  for (let start = 0; start < plantIds.length; start += 500) {
    rows.push(
      ...(await db
        .selectFrom('explants')
        .select(EXPLANT_COLUMNS)
        .where('workspace_id', '=', workspaceId)
        .where('plant_id', 'in', plantIds.slice(start, start + 500))
        .where('deleted_at', 'is', null)
        .execute()),
    );
  }
  return rows;
}

/** The explants whose external ids (lower-cased) are among `keys`; deleted ones hidden. */
export async function findExplantsByExternalKeys(
  db: Db,
  workspaceId: string,
  keys: readonly string[],
): Promise<ExplantRow[]> {
  const rows: ExplantRow[] = [];
  const wanted = [...new Set(keys)];
  for (let start = 0; start < wanted.length; start += 500) {
    rows.push(
      ...(await db
        .selectFrom('explants')
        .select(EXPLANT_COLUMNS)
        .where('workspace_id', '=', workspaceId)
        .where('external_id_key', 'in', wanted.slice(start, start + 500))
        .where('deleted_at', 'is', null)
        .execute()),
    );
  }
  return rows;
}
