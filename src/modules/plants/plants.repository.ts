import type { Db } from '../../db/database.js';
import type { PlantTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';
import type { RecordSource } from '../../kernel/record-lookup.js';
import { externalIds, TRACKED_COLUMNS } from '../records/index.js';

export type PlantRow = PlantTable;

const COLUMNS = [
  'id',
  'workspace_id',
  'species',
  'common_name',
  'genus',
  'family',
  'cultivar',
  'source',
  'notes',
  'status',
  ...TRACKED_COLUMNS,
] as const;

/** Plants by id, locked for a write, inserted, updated, listed newest first; deleted ones hidden. */
export const plants = workspaceTable('plants', COLUMNS, { softDelete: true });

/** How other modules find and lock plants (the record lookup's source of kind `plant`). */
export const plantRecords: RecordSource = plants;

export const plantExternalIds = externalIds('plants', 'plant');

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
