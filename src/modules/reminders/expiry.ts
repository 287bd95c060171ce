import type { Database } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { listWorkspaces } from '../identity/index.js';
import { markExpiredBatches } from '../media-batches/index.js';
import { expireStockLots } from '../stock/index.js';

export interface ExpiryReport {
  /** Lots told of as expired (a task and a `stock_lot.expired` event each). */
  readonly lots: number;
  /** Ready media batches marked `expired`. */
  readonly batches: number;
}

/**
 * What runs out of date with nobody touching it: every workspace's ready media
 * batches past their `expires_at` become `expired`, and its stock lots past their
 * last day raise their task and event, once (what a write to the lot would raise).
 */
export async function runExpiry(
  database: Database,
  records: RecordLookup,
  nowMs: number,
): Promise<ExpiryReport> {
  const now = new Date(nowMs).toISOString();
  let lots = 0;
  let batches = 0;
  for (const workspace of await listWorkspaces(database.db)) {
    batches += await inTransaction(database.db, (trx) =>
      markExpiredBatches(trx, workspace.id, now),
    );
    lots += await expireStockLots(database, records, workspace.id, now);
  }
  return { lots, batches };
}
