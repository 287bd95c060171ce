import type { Db } from '../../db/database.js';
import type { OrderLineTable } from '../../db/schema.js';

export type OrderLineRow = OrderLineTable;

export type OrderLineChanges = Partial<Omit<OrderLineRow, 'id' | 'workspace_id' | 'created_at'>>;

const COLUMNS = [
  'id',
  'workspace_id',
  'plant_id',
  'product_link_id',
  'store_product_id',
  'store_variant_id',
  'quantity',
  'unit_amount',
  'unit_currency',
  'occurred_at',
  'created_at',
] as const;

export async function findOrderLine(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<OrderLineRow | undefined> {
  return db
    .selectFrom('order_lines')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertOrderLine(db: Db, row: OrderLineRow): Promise<void> {
  await db.insertInto('order_lines').values(row).execute();
}

export async function updateOrderLine(
  db: Db,
  workspaceId: string,
  id: string,
  changes: OrderLineChanges,
): Promise<void> {
  await db
    .updateTable('order_lines')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** The workspace of each of these ids, whichever it is: for refusing ids another workspace holds. */
export async function findOrderLineOwners(
  db: Db,
  ids: readonly string[],
): Promise<{ id: string; workspace_id: string }[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('order_lines')
    .select(['id', 'workspace_id'])
    .where('id', 'in', ids)
    .execute();
}
