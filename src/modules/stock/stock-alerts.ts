import type { Trx } from '../../db/database.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { recordChangeEvent } from '../events/index.js';
import { createTask } from '../tasks/index.js';
import { stockLots, type StockItemRow, type StockLotRow } from './stock.repository.js';
import { presentStockLot } from './stock.present.js';
import { convert } from './units.js';

/** Who raises an alert: the member whose write changed the lot, or nobody (the expiry pass). */
export type AlertActor = Pick<Principal, 'workspaceId' | 'memberId'>;

/** Whether a lot holds less than its item's reorder level (compared in the item's unit). */
async function isLow(item: StockItemRow, lot: StockLotRow): Promise<boolean> {
  if (item.reorder_level === null) return false;
  return (await convert(lot.quantity, lot.unit, item.unit, 'unit')) < item.reorder_level;
}

/** Past its last day (`expires_on` before today, UTC) and still holding some. */
export const isExpired = (lot: StockLotRow, now: string) =>
  lot.expires_on !== null && lot.expires_on < now.slice(0, 10) && lot.quantity > 0;

/**
 * After a lot changed (received, corrected, taken from by a media batch): a lot that
 * fell below its item's reorder level, or is past its expiry, raises a task (category
 * media_prep) and a change-history event (`stock_lot.low`, `stock_lot.expired`, which
 * webhooks deliver), once: the lot keeps the task's id. A lot brought back to its
 * level forgets its low task, so falling below again raises another. Returns the lot
 * as it now is.
 */
export async function raiseStockAlerts(
  trx: Trx,
  principal: AlertActor,
  item: StockItemRow,
  lot: StockLotRow,
  records: RecordLookup,
  now: string,
): Promise<StockLotRow> {
  let current = lot;
  const low = await isLow(item, lot);
  if (low && lot.low_task_id === null) {
    current = await raise(trx, principal, item, current, records, now, {
      kind: 'low',
      title: `Reorder ${item.name}: lot ${lot.lot_number} holds ${lot.quantity} ${lot.unit}, below ${item.reorder_level} ${item.unit}`,
    });
  } else if (!low && lot.low_task_id !== null) {
    await stockLots.update(trx, lot.workspace_id, lot.id, { low_task_id: null });
    current = { ...current, low_task_id: null };
  }
  if (isExpired(lot, now) && lot.expired_task_id === null) {
    current = await raise(trx, principal, item, current, records, now, {
      kind: 'expired',
      title: `Replace ${item.name}: lot ${lot.lot_number} expired on ${lot.expires_on}`,
    });
  }
  return current;
}

async function raise(
  trx: Trx,
  principal: AlertActor,
  item: StockItemRow,
  lot: StockLotRow,
  records: RecordLookup,
  now: string,
  alert: { kind: 'low' | 'expired'; title: string },
): Promise<StockLotRow> {
  const task = await createTask(
    trx,
    principal,
    { title: alert.title.slice(0, 300), category: 'media_prep' },
    records,
    now,
  );
  const column = alert.kind === 'low' ? 'low_task_id' : 'expired_task_id';
  await stockLots.update(trx, lot.workspace_id, lot.id, { [column]: task.id });
  const raised = { ...lot, [column]: task.id };
  await recordChangeEvent(trx, {
    workspaceId: lot.workspace_id,
    entityType: 'stock_lot',
    entityId: lot.id,
    eventType: alert.kind,
    recordedBy: principal.memberId,
    payload: {
      task_id: task.id,
      item: { id: item.id, name: item.name, unit: item.unit, reorder_level: item.reorder_level },
      lot: presentStockLot(raised),
    },
  });
  return raised;
}
