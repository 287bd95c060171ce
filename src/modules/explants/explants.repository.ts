import type { Db } from '../../db/database.js';
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

const COLUMNS = [
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
] as const;

/** Explants by id, locked for a write, inserted, updated; deleted ones hidden. */
export const explants = workspaceTable('explants', COLUMNS, { softDelete: true });

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
    .select(COLUMNS)
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
    db.selectFrom('explants').select(COLUMNS).where('workspace_id', '=', workspaceId),
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
      db.selectFrom('explants').select(COLUMNS).where('workspace_id', '=', p.workspaceId),
      { archived: 'exclude' },
    ),
  NEWEST_FIRST,
);
