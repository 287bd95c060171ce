import type { Db } from '../../db/database.js';
import { fetchPage, NEWEST_FIRST, type Page, type PageRequest } from '../../db/pages.js';
import type { StockItemTable, StockLotTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';

export type StockItemRow = StockItemTable;
export type StockLotRow = StockLotTable;

const ITEM_COLUMNS = [
  'id',
  'workspace_id',
  'name',
  'category',
  'unit',
  'reorder_level',
  'notes',
  'created_by',
  'created_at',
  'updated_at',
] as const;

const LOT_COLUMNS = [
  'id',
  'workspace_id',
  'item_id',
  'lot_number',
  'supplier',
  'received_on',
  'expires_on',
  'quantity',
  'initial_quantity',
  'unit',
  'low_task_id',
  'expired_task_id',
  'notes',
  'created_by',
  'created_at',
  'updated_at',
] as const;

export const stockItems = workspaceTable('stock_items', ITEM_COLUMNS);
export const stockLots = workspaceTable('stock_lots', LOT_COLUMNS);

/** The lab's stock items, newest first, optionally of one category. */
export function listStockItemRows(
  db: Db,
  workspaceId: string,
  category: string | undefined,
  page: PageRequest,
): Promise<Page<StockItemRow>> {
  let query = db
    .selectFrom('stock_items')
    .select(ITEM_COLUMNS)
    .where('workspace_id', '=', workspaceId);
  if (category !== undefined) query = query.where('category', '=', category);
  return fetchPage(query, NEWEST_FIRST, page);
}

/** One item's lots, newest first. */
export function listStockLotRows(
  db: Db,
  workspaceId: string,
  itemId: string,
  page: PageRequest,
): Promise<Page<StockLotRow>> {
  const query = db
    .selectFrom('stock_lots')
    .select(LOT_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('item_id', '=', itemId);
  return fetchPage(query, NEWEST_FIRST, page);
}

/** Lots past their last day (`expires_on` before `today`) that still hold some and were not told of. */
export function expiredLotRows(db: Db, workspaceId: string, today: string): Promise<StockLotRow[]> {
  return db
    .selectFrom('stock_lots')
    .select(LOT_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('expires_on', '<', today)
    .where('expired_task_id', 'is', null)
    .where('quantity', '>', 0)
    .orderBy('expires_on')
    .orderBy('id')
    .execute();
}
