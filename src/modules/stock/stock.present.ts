import type { Static } from 'typebox';
import type { StockItemRow, StockLotRow } from './stock.repository.js';
import type { StockItem, StockLot } from './stock.schemas.js';

export type StockItemRecord = Static<typeof StockItem>;
export type StockLotRecord = Static<typeof StockLot>;

export function presentStockItem(row: StockItemRow): StockItemRecord {
  return {
    id: row.id,
    name: row.name,
    category: row.category,
    unit: row.unit,
    reorder_level: row.reorder_level,
    notes: row.notes,
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function presentStockLot(row: StockLotRow): StockLotRecord {
  return {
    id: row.id,
    item_id: row.item_id,
    lot_number: row.lot_number,
    supplier: row.supplier,
    received_on: row.received_on,
    expires_on: row.expires_on,
    quantity: row.quantity,
    initial_quantity: row.initial_quantity,
    unit: row.unit,
    low_task_id: row.low_task_id,
    expired_task_id: row.expired_task_id,
    notes: row.notes,
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
