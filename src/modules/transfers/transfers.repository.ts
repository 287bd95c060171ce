import type { Db, Trx } from '../../db/database.js';
import { type Ordering, type Page, type PageRequest, preparedPage } from '../../db/pages.js';
import { preparedQuery } from '../../db/prepared.js';
import type { TransferTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';
import type { RecordSource } from '../../kernel/record-lookup.js';

export type TransferRow = TransferTable;

const COLUMNS = [
  'id',
  'workspace_id',
  'entity_type',
  'entity_id',
  'transfer_date',
  'transfer_cycle',
  'from_location',
  'to_location',
  'status',
  'notes',
  'vessel_count',
  'plantlet_count',
  'custom_fields',
  'created_by',
  'created_at',
  'media_batch_id',
] as const;

export const transfers = workspaceTable('transfers', COLUMNS);

/** The transfers of one kind of record (plant or explant), as records other modules name. */
function transfersOf(entityType: 'plant' | 'explant'): RecordSource {
  const only = (row: TransferRow | undefined) =>
    row?.entity_type === entityType ? row : undefined;
  return {
    find: async (db, workspaceId, id) => only(await transfers.find(db, workspaceId, id)),
    lock: async (trx, workspaceId, id) => only(await transfers.lock(trx, workspaceId, id)),
  };
}

/** Transfers of plants, and of explants (an equipment `used` event's subjects). */
export const plantTransferRecords = transfersOf('plant');
export const explantTransferRecords = transfersOf('explant');

/** The unique index that keeps one transfer per cycle of a record. */
export const CYCLE_INDEX = 'transfers_entity_cycle';

export interface RecordParams {
  workspaceId: string;
  entityType: string;
  entityId: string;
}

/** A record's transfers, newest first by transfer date; the same date in a fixed order. */
const BY_TRANSFER_DATE: Ordering = { columns: ['transfer_date', 'id'], direction: 'desc' };

const transfersOfRecord = preparedPage(
  (db, p: RecordParams) =>
    db
      .selectFrom('transfers')
      .select(COLUMNS)
      .where('workspace_id', '=', p.workspaceId)
      .where('entity_type', '=', p.entityType)
      .where('entity_id', '=', p.entityId),
  BY_TRANSFER_DATE,
);

export function listTransfers(
  db: Db,
  record: RecordParams,
  page: PageRequest,
): Promise<Page<TransferRow>> {
  return transfersOfRecord.fetch(db, record, page);
}

/**
 * The read of a record's highest cycle (its `transfer_cycle`, no row when it has none),
 * for a larger statement to hold as a subquery (a split's counts) or to run alone.
 */
export const highestCycleQuery = (db: Db, p: RecordParams) =>
  db
    .selectFrom('transfers')
    .select('transfer_cycle')
    .where('workspace_id', '=', p.workspaceId)
    .where('entity_type', '=', p.entityType)
    .where('entity_id', '=', p.entityId)
    .orderBy('transfer_cycle', 'desc')
    .limit(1);

const highestCycle = preparedQuery(highestCycleQuery);

/** The highest cycle recorded for a record, 0 when it has none. */
export async function findHighestCycle(trx: Trx, record: RecordParams): Promise<number> {
  const row = await highestCycle.first(trx, record);
  return row === undefined ? 0 : Number(row.transfer_cycle);
}

const cycleTaken = preparedQuery((db, p: RecordParams & { cycle: number }) =>
  db
    .selectFrom('transfers')
    .select('id')
    .where('workspace_id', '=', p.workspaceId)
    .where('entity_type', '=', p.entityType)
    .where('entity_id', '=', p.entityId)
    .where('transfer_cycle', '=', p.cycle),
);

export async function isCycleTaken(
  trx: Trx,
  record: RecordParams,
  cycle: number,
): Promise<boolean> {
  return (await cycleTaken.first(trx, { ...record, cycle })) !== undefined;
}
