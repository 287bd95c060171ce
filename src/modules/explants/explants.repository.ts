import type { Db } from '../../db/database.js';
import type { ExplantTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';
import type { RecordSource } from '../../kernel/record-lookup.js';
import { externalIds, TRACKED_COLUMNS } from '../records/index.js';

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
] as const;

/** Explants by id, locked for a write, inserted, updated, listed newest first; deleted ones hidden. */
export const explants = workspaceTable('explants', COLUMNS, { softDelete: true });

/**
 * How other modules find and lock explants (the record lookup's source of kind
 * `explant`): the whole row, so that a transfer hands the explant it locked to
 * `applyTransferCounts`.
 */
export const explantRecords: RecordSource<ExplantRow> = explants;

export const explantExternalIds = externalIds('explants', 'explant');

/** Newest explant whose lower-cased `column` equals `key`. */
export async function findExplantByKey(
  db: Db,
  workspaceId: string,
  column: 'external_id_key' | 'batch_number_key' | 'label_key',
  key: string,
): Promise<ExplantRow | undefined> {
  return db
    .selectFrom('explants')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where(column, '=', key)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
