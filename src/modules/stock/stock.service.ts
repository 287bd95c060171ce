import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import type { Page, PageRequest } from '../../db/pages.js';
import { errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { changedValues, diffFields } from '../../lib/changes.js';
import { raiseStockAlerts } from './stock-alerts.js';
import {
  presentStockItem,
  presentStockLot,
  type StockItemRecord,
  type StockLotRecord,
} from './stock.present.js';
import {
  listStockItemRows,
  listStockLotRows,
  stockItems,
  stockLots,
  type StockItemRow,
  type StockLotRow,
} from './stock.repository.js';
import type {
  CreateStockItemBody,
  CreateStockLotBody,
  UpdateStockItemBody,
  UpdateStockLotBody,
} from './stock.schemas.js';
import { convert } from './units.js';

const itemNotFound = () => errors.notFound('Stock item');
const lotNotFound = () => errors.notFound('Stock lot');

export async function createStockItem(
  trx: Trx,
  principal: Principal,
  input: Static<typeof CreateStockItemBody>,
  now: string,
): Promise<StockItemRecord> {
  const row: StockItemRow = {
    id: newId(),
    workspace_id: principal.workspaceId,
    name: input.name,
    category: input.category,
    unit: input.unit,
    reorder_level: input.reorder_level ?? null,
    notes: input.notes ?? null,
    created_by: principal.memberId,
    created_at: now,
    updated_at: now,
  };
  await stockItems.insert(trx, row);
  return presentStockItem(row);
}

export async function getStockItem(db: Db, workspaceId: string, id: string) {
  const row = await stockItems.find(db, workspaceId, id);
  if (row === undefined) throw itemNotFound();
  return presentStockItem(row);
}

export async function listStockItems(
  db: Db,
  workspaceId: string,
  query: { category?: string },
  page: PageRequest,
): Promise<Page<StockItemRecord>> {
  const { items, nextKey } = await listStockItemRows(db, workspaceId, query.category, page);
  return { items: items.map(presentStockItem), nextKey };
}

/**
 * Partial update of an item (its unit stays: its lots are counted in it). A new
 * reorder level applies from the next change of a lot.
 */
export async function updateStockItem(
  trx: Trx,
  workspaceId: string,
  id: string,
  input: Static<typeof UpdateStockItemBody>,
  now: string,
): Promise<StockItemRecord> {
  const row = await stockItems.lock(trx, workspaceId, id);
  if (row === undefined) throw itemNotFound();
  const changes = diffFields(row, input, ['name', 'category', 'reorder_level', 'notes']);
  if (Object.keys(changes).length === 0) return presentStockItem(row);
  const update = { ...(changedValues(changes) as Partial<StockItemRow>), updated_at: now };
  await stockItems.update(trx, workspaceId, id, update);
  return presentStockItem({ ...row, ...update });
}

/** A lot's expiry may not fall before the day it was received. */
function requireDatesInOrder(lot: Pick<StockLotRow, 'received_on' | 'expires_on'>): void {
  if (lot.received_on !== null && lot.expires_on !== null && lot.expires_on < lot.received_on) {
    throw errors.validation('expires_on: before received_on');
  }
}

/**
 * Receives a lot of an item: its unit the item's unless sent, and then one that
 * converts to it (422 naming `unit`). A lot received below the reorder level or
 * past its expiry raises its task and event at once.
 */
export async function createStockLot(
  trx: Trx,
  principal: Principal,
  itemId: string,
  input: Static<typeof CreateStockLotBody>,
  records: RecordLookup,
  now: string,
): Promise<StockLotRecord> {
  const item = await stockItems.lock(trx, principal.workspaceId, itemId);
  if (item === undefined) throw itemNotFound();
  const unit = input.unit ?? item.unit;
  await convert(1, unit, item.unit, 'unit');
  const row: StockLotRow = {
    id: newId(),
    workspace_id: principal.workspaceId,
    item_id: itemId,
    lot_number: input.lot_number,
    supplier: input.supplier ?? null,
    received_on: input.received_on === undefined ? now.slice(0, 10) : input.received_on,
    expires_on: input.expires_on ?? null,
    quantity: input.quantity,
    initial_quantity: input.quantity,
    unit,
    low_task_id: null,
    expired_task_id: null,
    notes: input.notes ?? null,
    created_by: principal.memberId,
    created_at: now,
    updated_at: now,
  };
  requireDatesInOrder(row);
  await stockLots.insert(trx, row);
  return presentStockLot(await raiseStockAlerts(trx, principal, item, row, records, now));
}

/** A lot of the item, else 404 (a lot of another item or lab is no lot of this one). */
async function lotOfItem(db: Db, workspaceId: string, itemId: string, lotId: string) {
  const item = await stockItems.find(db, workspaceId, itemId);
  if (item === undefined) throw itemNotFound();
  const lot = await stockLots.find(db, workspaceId, lotId);
  if (lot === undefined || lot.item_id !== itemId) throw lotNotFound();
  return { item, lot };
}

export async function getStockLot(db: Db, workspaceId: string, itemId: string, lotId: string) {
  return presentStockLot((await lotOfItem(db, workspaceId, itemId, lotId)).lot);
}

export async function listStockLots(
  db: Db,
  workspaceId: string,
  itemId: string,
  page: PageRequest,
): Promise<Page<StockLotRecord>> {
  if ((await stockItems.find(db, workspaceId, itemId)) === undefined) throw itemNotFound();
  const { items, nextKey } = await listStockLotRows(db, workspaceId, itemId, page);
  return { items: items.map(presentStockLot), nextKey };
}

/** Partial update of a lot (a count of what it holds now, a corrected date…); alerts as on receipt. */
export async function updateStockLot(
  trx: Trx,
  principal: Principal,
  ids: { itemId: string; lotId: string },
  input: Static<typeof UpdateStockLotBody>,
  records: RecordLookup,
  now: string,
): Promise<StockLotRecord> {
  const workspaceId = principal.workspaceId;
  const item = await stockItems.lock(trx, workspaceId, ids.itemId);
  if (item === undefined) throw itemNotFound();
  const lot = await stockLots.lock(trx, workspaceId, ids.lotId);
  if (lot === undefined || lot.item_id !== ids.itemId) throw lotNotFound();
  const changes = diffFields(lot, input, [
    'lot_number',
    'supplier',
    'received_on',
    'expires_on',
    'quantity',
    'notes',
  ]);
  if (Object.keys(changes).length === 0) return presentStockLot(lot);
  const update = { ...(changedValues(changes) as Partial<StockLotRow>), updated_at: now };
  const updated = { ...lot, ...update };
  requireDatesInOrder(updated);
  await stockLots.update(trx, workspaceId, lot.id, update);
  return presentStockLot(await raiseStockAlerts(trx, principal, item, updated, records, now));
}
