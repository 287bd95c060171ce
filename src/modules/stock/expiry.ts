import type { Database } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { isExpired, raiseStockAlerts } from './stock-alerts.js';
import { expiredLotRows, stockItems, stockLots } from './stock.repository.js';

/**
 * The expiry pass's part for stock: each lot of the workspace past its last day that
 * still holds some and was not told of raises its task and `stock_lot.expired` event,
 * as a write that touches it would, acting as nobody. Each lot in its own
 * transaction, locked and checked again, so a write telling of it meanwhile (or a
 * pass repeated after a crash) tells nobody twice. Returns how many it told of.
 */
export async function expireStockLots(
  database: Database,
  records: RecordLookup,
  workspaceId: string,
  now: string,
): Promise<number> {
  const due = await expiredLotRows(database.db, workspaceId, now.slice(0, 10));
  let told = 0;
  for (const { id } of due) {
    told += await inTransaction(database.db, async (trx) => {
      const lot = await stockLots.lock(trx, workspaceId, id);
      if (lot === undefined || lot.expired_task_id !== null || !isExpired(lot, now)) return 0;
      const item = await stockItems.find(trx, workspaceId, lot.item_id);
      if (item === undefined) return 0;
      const actor = { workspaceId, memberId: null };
      await raiseStockAlerts(trx, actor, item, lot, records, now);
      return 1;
    });
  }
  return told;
}
