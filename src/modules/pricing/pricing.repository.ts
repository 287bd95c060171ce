import type { Db } from '../../db/database.js';
import {
  fetchPage,
  NEWEST_FIRST,
  type Ordering,
  type Page,
  type PageRequest,
} from '../../db/pages.js';
import type { CultureLinePriceTable, PriceEventTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';
import { withinWindow, type TimeWindow } from '../../kernel/window.js';

export type CultureLinePriceRow = CultureLinePriceTable;
export type PriceEventRow = PriceEventTable;

const PRICE_COLUMNS = [
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
] as const;

const PRICE_EVENT_COLUMNS = [
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
] as const;

export const cultureLinePrices = workspaceTable('culture_line_prices', PRICE_COLUMNS);

export const priceEvents = workspaceTable('price_events', PRICE_EVENT_COLUMNS);

/** Culture line prices newest first by when the line was first priced (`created_at`), then id. */
export function listCultureLinePriceRows(
  db: Db,
  workspaceId: string,
  filters: { plantId: string | null; pricingTier: string | null },
  page: PageRequest,
): Promise<Page<CultureLinePriceRow>> {
  let query = db
    .selectFrom('culture_line_prices')
    .select(PRICE_COLUMNS)
    .where('workspace_id', '=', workspaceId);
  if (filters.plantId !== null) query = query.where('plant_id', '=', filters.plantId);
  if (filters.pricingTier !== null) query = query.where('pricing_tier', '=', filters.pricingTier);
  return fetchPage(query, NEWEST_FIRST, page);
}

const BY_CHANGED_AT: Ordering = { columns: ['changed_at', 'id'], direction: 'desc' };

/** Price changes newest first (`changed_at`, then id), within the window, both ends inclusive. */
export function listPriceEventRows(
  db: Db,
  workspaceId: string,
  filters: { plantId: string | null; window: TimeWindow },
  page: PageRequest,
): Promise<Page<PriceEventRow>> {
  let query = db
    .selectFrom('price_events')
    .select(PRICE_EVENT_COLUMNS)
    .where('workspace_id', '=', workspaceId);
  if (filters.plantId !== null) query = query.where('plant_id', '=', filters.plantId);
  return fetchPage(withinWindow(query, 'changed_at', filters.window), BY_CHANGED_AT, page);
}
