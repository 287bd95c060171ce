import type { Db, Trx } from '../../db/database.js';
import type { Money } from '../pricing/money.js';
import { orderLines } from './commerce.repository.js';

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

/** The ids among `ids` that an order line of another workspace already has. */
export const orderLineIdsUsedElsewhere = orderLines.idsHeldElsewhere;

/** Inserts or updates an order line; an unchanged row is left untouched. */
export async function saveOrderLine(
  trx: Trx,
  workspaceId: string,
  input: OrderLineInput,
  now: string,
): Promise<void> {
  const fields = {
    plant_id: input.plant_id,
    product_link_id: input.product_link_id,
    store_product_id: input.store_product_id,
    store_variant_id: input.store_variant_id,
    quantity: input.quantity,
    unit_amount: input.unit_price?.amount ?? null,
    unit_currency: input.unit_price?.currency ?? null,
    occurred_at: input.occurred_at,
  };
  await orderLines.save(trx, workspaceId, input.id, fields, {
    insert: () => ({ id: input.id, workspace_id: workspaceId, ...fields, created_at: now }),
  });
}

/** Order lines' ids and contents, for matching imported lines sent without an id. */
export const orderLineIdentities = (db: Db, workspaceId: string) =>
  orderLines.identities(db, workspaceId, [
    'plant_id',
    'product_link_id',
    'store_product_id',
    'store_variant_id',
    'quantity',
    'unit_amount',
    'unit_currency',
    'occurred_at',
  ]);
