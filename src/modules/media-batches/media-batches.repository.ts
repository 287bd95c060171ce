import type { Db, Trx } from '../../db/database.js';
import { fetchPage, NEWEST_FIRST, type Page, type PageRequest } from '../../db/pages.js';
import type { MediaBatchTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';

export type MediaBatchRow = MediaBatchTable;

const COLUMNS = [
  'id',
  'workspace_id',
  'recipe_id',
  'recipe_version',
  'volume_ml',
  'ph_measured_centi',
  'prepared_by',
  'prepared_at',
  'autoclave_event_id',
  'expires_at',
  'status',
  'components',
  'notes',
  'created_by',
  'created_at',
  'updated_at',
] as const;

export const mediaBatches = workspaceTable('media_batches', COLUMNS);

export interface MediaBatchFilters {
  readonly status?: string;
  readonly recipe_id?: string;
  readonly prepared_by?: string;
}

/** The lab's media batches, newest first, filtered. */
export function listMediaBatchRows(
  db: Db,
  workspaceId: string,
  filters: MediaBatchFilters,
  page: PageRequest,
): Promise<Page<MediaBatchRow>> {
  let query = db
    .selectFrom('media_batches')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId);
  if (filters.status !== undefined) query = query.where('status', '=', filters.status);
  if (filters.recipe_id !== undefined) query = query.where('recipe_id', '=', filters.recipe_id);
  if (filters.prepared_by !== undefined) {
    query = query.where('prepared_by', '=', filters.prepared_by);
  }
  return fetchPage(query, NEWEST_FIRST, page);
}

export interface CultureRow {
  id: string;
  label: string;
  status: string;
  plant_id: string | null;
  current_count: number | null;
  plantlet_count: number | null;
  media_batch_id: string | null;
  created_at: string;
}

/**
 * The explants put on a batch, newest first: started on it (created or split onto
 * it) or moved onto it by a transfer that named it.
 */
export function listCultureRows(
  db: Db,
  workspaceId: string,
  batchId: string,
  page: PageRequest,
): Promise<Page<CultureRow>> {
  const query = db
    .selectFrom('explants')
    .select([
      'id',
      'label',
      'status',
      'plant_id',
      'current_count',
      'plantlet_count',
      'media_batch_id',
      'created_at',
    ])
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('media_batch_id', '=', batchId),
        eb(
          'id',
          'in',
          eb
            .selectFrom('transfers')
            .select('entity_id')
            .where('workspace_id', '=', workspaceId)
            .where('media_batch_id', '=', batchId)
            .where('entity_type', '=', 'explant'),
        ),
      ]),
    );
  return fetchPage(query, NEWEST_FIRST, page);
}

/** Ready batches whose `expires_at` has passed become `expired`; answers how many did. */
export async function markExpiredBatches(
  trx: Trx,
  workspaceId: string,
  now: string,
): Promise<number> {
  const result = await trx
    .updateTable('media_batches')
    .set({ status: 'expired', updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'ready')
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** What a batch is called where it is named: its recipe's title and the day it was made. */
export const mediaBatchLabel = (title: string, preparedAt: string): string =>
  `${title} ${preparedAt.slice(0, 10)}`;

/**
 * The names (`mediaBatchLabel`) of some batches of the lab, by id; one the lab does not
 * hold is absent. A batch's recipe may be another lab's public one: named through the batch.
 */
export async function mediaBatchNames(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('media_batches as b')
    .innerJoin('media_recipes as r', 'r.id', 'b.recipe_id')
    .select(['b.id', 'b.prepared_at', 'r.title'])
    .where('b.workspace_id', '=', workspaceId)
    .where('b.id', 'in', [...ids])
    .execute();
  return new Map(rows.map((row) => [row.id, mediaBatchLabel(row.title, row.prepared_at)]));
}
