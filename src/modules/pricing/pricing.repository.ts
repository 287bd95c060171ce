import type { CultureLinePriceTable, PriceEventTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';

export type CultureLinePriceRow = CultureLinePriceTable;
export type PriceEventRow = PriceEventTable;

export const cultureLinePrices = workspaceTable('culture_line_prices', [
  'id',
  'workspace_id',
  'plant_id',
  'list_amount',
  'list_currency',
  'wholesale_amount',
  'wholesale_currency',
  'previous_amount',
  'previous_currency',
  'pricing_tier',
  'tier_score',
  'price_source',
  'price_source_at',
  'notes',
  'created_at',
  'updated_at',
]);

export const priceEvents = workspaceTable('price_events', [
  'id',
  'workspace_id',
  'plant_id',
  'list_amount',
  'list_currency',
  'previous_amount',
  'previous_currency',
  'price_source',
  'changed_by',
  'changed_at',
]);
