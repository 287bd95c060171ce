import type { Trx } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { raiseStockAlerts } from './stock-alerts.js';
import { stockItems, stockLots, type StockItemRow, type StockLotRow } from './stock.repository.js';
import { convert, tidy } from './units.js';

/** What a use of stock names: an amount in a unit, from a lot (none: nothing is taken). */
export interface StockUse {
  readonly lot_id?: string | null | undefined;
  readonly amount: number;
  readonly unit: string;
}

/**
 * Takes each use's amount from its lot, in the caller's transaction (a media batch's
 * components): the lots are locked in id order, every amount is converted to its
 * lot's unit (mathjs units; 422 naming `<field>[i].unit` when it cannot be) and the
 * lot must hold what all the uses of it take together (422 naming the amount).
 * Everything is checked before the first write. Each lot that falls below its item's
 * reorder level or is past its expiry then raises its task and event.
 */
export async function takeFromLots(
  trx: Trx,
  principal: Principal,
  uses: readonly StockUse[],
  field: string,
  records: RecordLookup,
  now: string,
): Promise<void> {
  const workspaceId = principal.workspaceId;
  const lotIds = [...new Set(uses.flatMap((use) => use.lot_id ?? []))].sort();
  const lots = new Map<string, { lot: StockLotRow; item: StockItemRow; taken: number }>();
  for (const id of lotIds) {
    const lot = await stockLots.lock(trx, workspaceId, id);
    const at = uses.findIndex((use) => use.lot_id === id);
    if (lot === undefined) {
      throw errors.validation(`${field}[${at}].lot_id: no stock lot with this id in the workspace`);
    }
    const item = (await stockItems.find(trx, workspaceId, lot.item_id))!;
    lots.set(id, { lot, item, taken: 0 });
  }
  for (const [i, use] of uses.entries()) {
    if (use.lot_id == null) continue;
    const entry = lots.get(use.lot_id)!;
    entry.taken = tidy(
      entry.taken + (await convert(use.amount, use.unit, entry.lot.unit, `${field}[${i}].unit`)),
    );
    if (entry.taken > entry.lot.quantity) {
      throw errors.validation(
        `${field}[${i}].amount: lot ${entry.lot.lot_number} holds ${entry.lot.quantity} ${entry.lot.unit}; ` +
          `${entry.taken} ${entry.lot.unit} would be taken from it`,
      );
    }
  }
  for (const { lot, item, taken } of lots.values()) {
    const quantity = tidy(lot.quantity - taken);
    await stockLots.update(trx, workspaceId, lot.id, { quantity, updated_at: now });
    await raiseStockAlerts(
      trx,
      principal,
      item,
      { ...lot, quantity, updated_at: now },
      records,
      now,
    );
  }
}
