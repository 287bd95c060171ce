import type { OrderLineTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';

export type OrderLineRow = OrderLineTable;

export const orderLines = workspaceTable('order_lines', [
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
]);
