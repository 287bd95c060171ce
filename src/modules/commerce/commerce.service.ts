import type { Db } from '../../db/database.js';
import { diffFields } from '../../kernel/changes.js';
import type { Money } from '../pricing/money.js';
import {
  findOrderLine,
  findOrderLineOwners,
  insertOrderLine,
  updateOrderLine,
  type OrderLineRow,
} from './commerce.repository.js';

/** A store order line: what sold, how many, at what unit price; no buyer data. */
export interface OrderLineInput {
  id: string;
  plant_id: string | null;
  product_link_id: string | null;
  store_product_id: string | null;
  store_variant_id: string | null;
  quantity: number;
  unit_price: Money | null;
  occurred_at: string | null;
}

const FIELDS = [
  'plant_id',
  'product_link_id',
  'store_product_id',
  'store_variant_id',
  'quantity',
  'unit_amount',
  'unit_currency',
  'occurred_at',
] as const;

/** The ids among `ids` that an order line of another workspace already has. */
export async function orderLineIdsUsedElsewhere(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  const owners = await findOrderLineOwners(db, ids);
  return new Set(owners.filter((o) => o.workspace_id !== workspaceId).map((o) => o.id));
}

/** Inserts or updates an order line; an unchanged row is left untouched. */
export async function saveOrderLine(
  db: Db,
  workspaceId: string,
  input: OrderLineInput,
  now: string,
): Promise<void> {
  const fields: Pick<OrderLineRow, (typeof FIELDS)[number]> = {
    plant_id: input.plant_id,
    product_link_id: input.product_link_id,
    store_product_id: input.store_product_id,
    store_variant_id: input.store_variant_id,
    quantity: input.quantity,
    unit_amount: input.unit_price?.amount ?? null,
    unit_currency: input.unit_price?.currency ?? null,
    occurred_at: input.occurred_at,
  };
  const existing = await findOrderLine(db, workspaceId, input.id);
  if (existing === undefined) {
    await insertOrderLine(db, {
      id: input.id,
      workspace_id: workspaceId,
      ...fields,
      created_at: now,
    });
    return;
  }
  if (Object.keys(diffFields(existing, fields, FIELDS)).length === 0) return;
  await updateOrderLine(db, workspaceId, input.id, fields);
}
