import type { Db, Trx } from '../../db/database.js';
import { bulkInsert } from '../../db/bulk-insert.js';
import {
  fetchPage,
  NEWEST_FIRST,
  preparedPage,
  type Page,
  type PageRequest,
} from '../../db/pages.js';
import type { PlantTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';
import type { RecordSource } from '../../kernel/record-lookup.js';
import {
  applyRecordFilters,
  externalIds,
  isPlainList,
  TRACKED_COLUMNS,
  type RecordFilters,
} from '../records/index.js';

export type PlantRow = PlantTable;

/** A plant's own columns: create and PATCH accept each of them. */
export const PLANT_FIELDS = [
  'species',
  'common_name',
  'genus',
  'family',
  'cultivar',
  'source',
  'notes',
  'status',
] as const;

const COLUMNS = ['id', 'workspace_id', ...PLANT_FIELDS, ...TRACKED_COLUMNS] as const;

/** Plants by id, locked for a write, inserted, updated; deleted ones hidden. */
export const plants = workspaceTable('plants', COLUMNS, { softDelete: true });

/** How other modules find and lock plants (the record lookup's source of kind `plant`). */
export const plantRecords: RecordSource<PlantRow> = plants;

export const plantExternalIds = externalIds('plants', 'plant');

/** The plants whose external ids are among `keys` (lower-cased); deleted ones hidden. */
export async function findPlantsByExternalKeys(
  db: Db,
  workspaceId: string,
  keys: readonly string[],
): Promise<PlantRow[]> {
  if (keys.length === 0) return [];
  return db
    .selectFrom('plants')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('external_id_key', 'in', [...new Set(keys)])
    .where('deleted_at', 'is', null)
    .execute();
}

/** The plant whose external id is `key` (lower-cased), if any. */
export async function findPlantByExternalKey(
  db: Db,
  workspaceId: string,
  key: string,
): Promise<PlantRow | undefined> {
  return db
    .selectFrom('plants')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('external_id_key', '=', key)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * A page of the workspace's plants, newest first, filtered. Each filter has an
 * index that keeps the order: (workspace_id, current_stage | current_room_id |
 * status, created_at, id); a search reads the newest first until the page is full.
 */
export function listPlantRows(
  db: Db,
  workspaceId: string,
  filters: RecordFilters,
  page: PageRequest,
): Promise<Page<PlantRow>> {
  if (isPlainList(filters)) return plainPage.fetch(db, { workspaceId }, page);
  const query = db.selectFrom('plants').select(COLUMNS).where('workspace_id', '=', workspaceId);
  return fetchPage(applyRecordFilters(query, filters), NEWEST_FIRST, page);
}

/** The list as most clients ask for it (no filter), compiled once: the bench's `plants` case. */
const plainPage = preparedPage(
  (db, p: { workspaceId: string }) =>
    applyRecordFilters(
      db.selectFrom('plants').select(COLUMNS).where('workspace_id', '=', p.workspaceId),
      { archived: 'exclude' },
    ),
  NEWEST_FIRST,
);

const insertPlantRows = bulkInsert(
  'plants',
  Object.fromEntries(COLUMNS.map((column) => [column, 'text'])) as Record<
    (typeof COLUMNS)[number],
    'text'
  >,
);

/** Many new plants at once (one statement on PostgreSQL); their external ids are checked. */
export async function insertPlants(trx: Trx, rows: readonly PlantRow[]): Promise<void> {
  await insertPlantRows.run(trx, rows);
}

/** A plant's names and identity: what an import's rows name plants by. */
export interface PlantIdentity {
  id: string;
  species: string;
  common_name: string | null;
  external_id_key: string | null;
}

/** Every plant of the workspace (archived ones too), by its names and external id. */
export function listPlantIdentities(db: Db, workspaceId: string): Promise<PlantIdentity[]> {
  return db
    .selectFrom('plants')
    .select(['id', 'species', 'common_name', 'external_id_key'])
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .execute();
}
