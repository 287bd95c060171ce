import type { Db } from '../../db/database.js';
import { fetchPage, type Ordering, type Page, type PageRequest } from '../../db/pages.js';
import type { OrderLineTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';
import { withinWindow, type TimeWindow } from '../../kernel/window.js';

export type OrderLineRow = OrderLineTable;

/** What a line says of a sale: all that an import matches a line sent without an id on. */
export const ORDER_LINE_FACTS = [
  'plant_id',
  'product_link_id',
  'store_product_id',
  'store_variant_id',
  'quantity',
  'unit_amount',
  'unit_currency',
  'occurred_at',
] as const satisfies readonly (keyof OrderLineTable)[];

const COLUMNS = ['id', 'workspace_id', ...ORDER_LINE_FACTS, 'created_at', 'occurred_key'] as const;

export const orderLines = workspaceTable('order_lines', COLUMNS);

/** Newest first by `occurred_at`; lines without one come last; ties by id. */
const NEWEST_OCCURRED: Ordering = { columns: ['occurred_key', 'id'], direction: 'desc' };

/** The workspace's lines, optionally those within a window (both ends inclusive). */
function linesOf(db: Db, workspaceId: string, window: TimeWindow) {
  const query = db.selectFrom('order_lines').where('workspace_id', '=', workspaceId);
  return withinWindow(query, 'occurred_at', window);
}

export function listOrderLineRows(
  db: Db,
  workspaceId: string,
  filters: { window: TimeWindow; productLinkId: string | null },
  page: PageRequest,
): Promise<Page<OrderLineRow>> {
  let query = linesOf(db, workspaceId, filters.window).select(COLUMNS);
  if (filters.productLinkId !== null) {
    query = query.where('product_link_id', '=', filters.productLinkId);
  }
  return fetchPage(query, NEWEST_OCCURRED, page);
}

/** Whether any order line of the workspace names this product link. */
export async function productLinkKnown(
  db: Db,
  workspaceId: string,
  productLinkId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('order_lines')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('product_link_id', '=', productLinkId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Lines grouped by culture line, currency and unit amount: exact integer sums, no money summed. */
export interface SalesByPrice {
  plant_id: string | null;
  currency: string | null;
  amount: string | null;
  units: number;
  lines: number;
  first_occurred_at: string | null;
  last_occurred_at: string | null;
}

/**
 * The sales of a window per (plant, currency, unit amount). The database sums
 * only integers (quantities, line counts); the amounts stay text, for the service
 * to multiply and add exactly.
 */
export async function salesByPrice(
  db: Db,
  workspaceId: string,
  filters: { window: TimeWindow; plantId: string | null },
): Promise<SalesByPrice[]> {
  let query = linesOf(db, workspaceId, filters.window);
  if (filters.plantId !== null) query = query.where('plant_id', '=', filters.plantId);
  const rows = await query
    .select((eb) => [
      'plant_id',
      'unit_currency as currency',
      'unit_amount as amount',
      eb.fn.sum<number | string>('quantity').as('units'),
      eb.fn.countAll<number | string>().as('lines'),
      eb.fn.min('occurred_at').as('first_occurred_at'),
      eb.fn.max('occurred_at').as('last_occurred_at'),
    ])
    .groupBy(['plant_id', 'unit_currency', 'unit_amount'])
    .execute();
  return rows.map((row) => ({ ...row, units: Number(row.units), lines: Number(row.lines) }));
}
