// Only the API's types: the tests load this file outside the console's bundler.
import type { components } from '../../api/schema.js';

type Schemas = components['schemas'];

export type StockItem = Schemas['StockItem'];
export type StockLot = Schemas['StockLot'];

/** How many days before its expiry a lot counts as expiring. */
export const EXPIRING_DAYS = 30;

/** What a lot needs: expired first, then low (below its item's reorder level), expiring, empty. */
export type LotState = 'expired' | 'low' | 'expiring' | 'empty' | 'ok';

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * A lot's state on `now`'s day (UTC, as the API dates lots). Low is the API's own
 * judgement (it raised a reorder task: `low_task_id`), or, in the item's unit, less
 * than its reorder level.
 */
export function lotState(lot: StockLot, item: StockItem | undefined, now: number): LotState {
  const today = dayOf(now);
  if (lot.quantity > 0 && lot.expires_on !== null && lot.expires_on < today) return 'expired';
  if (lot.quantity <= 0) return 'empty';
  const belowLevel =
    item !== undefined &&
    item.reorder_level !== null &&
    lot.unit === item.unit &&
    lot.quantity < item.reorder_level;
  if (lot.low_task_id !== null || belowLevel) return 'low';
  if (lot.expires_on !== null && lot.expires_on <= dayOf(now + EXPIRING_DAYS * DAY_MS)) {
    return 'expiring';
  }
  return 'ok';
}

const ORDER: readonly LotState[] = ['expired', 'low', 'expiring', 'ok', 'empty'];

/** The order lots are shown in: what needs doing first. */
export const stateRank = (state: LotState) => ORDER.indexOf(state);

/** `492 g`: a quantity without a float's tail. */
export const quantityText = (quantity: number, unit: string) =>
  `${Number(quantity.toPrecision(6))} ${unit}`;
