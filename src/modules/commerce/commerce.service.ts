import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { TimeWindow } from '../../kernel/window.js';
import { DecimalSum, moneyOf, plantFilter } from '../pricing/index.js';
import {
  listOrderLineRows,
  productLinkKnown,
  salesByPrice,
  type OrderLineRow,
} from './commerce.repository.js';
import type { OrderLine, SellThroughGroup } from './commerce.schemas.js';

export type OrderLineRecord = Static<typeof OrderLine>;
export type SellThroughRecord = Static<typeof SellThroughGroup>;

export function presentOrderLine(row: OrderLineRow): OrderLineRecord {
  return {
    id: row.id,
    product_link_id: row.product_link_id,
    plant_id: row.plant_id,
    store_product_id: row.store_product_id,
    store_variant_id: row.store_variant_id,
    quantity: row.quantity,
    unit_price: moneyOf(row.unit_amount, row.unit_currency),
    occurred_at: row.occurred_at,
  };
}

/**
 * Order lines newest first, within the window. A `product_link_id` must be one
 * that some order line of the workspace names (404 otherwise, as for a random id).
 */
export async function listOrderLines(
  db: Db,
  workspaceId: string,
  filters: { window: TimeWindow; productLinkId: string | undefined },
  page: PageRequest,
): Promise<Page<OrderLineRecord>> {
  const productLinkId = filters.productLinkId ?? null;
  if (productLinkId !== null && !(await productLinkKnown(db, workspaceId, productLinkId))) {
    throw errors.notFound('Product link');
  }
  const { items, nextKey } = await listOrderLineRows(
    db,
    workspaceId,
    { window: filters.window, productLinkId },
    page,
  );
  return { items: items.map(presentOrderLine), nextKey };
}

interface Group {
  plant_id: string | null;
  currency: string | null;
  units: number;
  revenue: DecimalSum;
  order_line_count: number;
  priced_line_count: number;
  first_occurred_at: string | null;
  last_occurred_at: string | null;
}

const earlier = (a: string | null, b: string | null) =>
  a === null || (b !== null && b < a) ? b : a;
const later = (a: string | null, b: string | null) => (a === null || (b !== null && b > a) ? b : a);

/** Nulls after every value; otherwise text order. */
function compareNullable(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

/**
 * Sell-through: one group per culture line (plant_id) and currency, highest units
 * first (then plant and currency, for a fixed order). Revenue is the exact sum of
 * quantity × unit amount in that currency; nothing is summed across currencies.
 * Lines without a unit price count in `units` and `order_line_count` (in the group
 * of currency null) but add no revenue.
 */
export async function getSellThrough(
  db: Db,
  records: RecordLookup,
  workspaceId: string,
  filters: { window: TimeWindow; plantId: string | undefined },
  page: { limit: number; offset: number },
): Promise<SellThroughRecord[]> {
  const plantId = await plantFilter(db, records, workspaceId, filters.plantId);
  const groups = new Map<string, Group>();
  for (const row of await salesByPrice(db, workspaceId, { window: filters.window, plantId })) {
    const key = JSON.stringify([row.plant_id, row.currency]);
    let group = groups.get(key);
    if (group === undefined) {
      group = {
        plant_id: row.plant_id,
        currency: row.currency,
        units: 0,
        revenue: new DecimalSum(),
        order_line_count: 0,
        priced_line_count: 0,
        first_occurred_at: null,
        last_occurred_at: null,
      };
      groups.set(key, group);
    }
    group.units += row.units;
    group.order_line_count += row.lines;
    if (row.amount !== null) {
      group.priced_line_count += row.lines;
      group.revenue.add(row.amount, row.units);
    }
    group.first_occurred_at = earlier(group.first_occurred_at, row.first_occurred_at);
    group.last_occurred_at = later(group.last_occurred_at, row.last_occurred_at);
  }
  return [...groups.values()]
    .sort(
      (a, b) =>
        b.units - a.units ||
        compareNullable(a.plant_id, b.plant_id) ||
        compareNullable(a.currency, b.currency),
    )
    .slice(page.offset, page.offset + page.limit)
    .map((group) => ({
      plant_id: group.plant_id,
      currency: group.currency,
      units: group.units,
      revenue: { amount: group.revenue.total, currency: group.currency },
      order_line_count: group.order_line_count,
      priced_line_count: group.priced_line_count,
      first_occurred_at: group.first_occurred_at,
      last_occurred_at: group.last_occurred_at,
    }));
}
