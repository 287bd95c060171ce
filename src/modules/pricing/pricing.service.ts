import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { TimeWindow } from '../../kernel/window.js';
import { moneyOf } from './money.js';
import {
  listCultureLinePriceRows,
  listPriceEventRows,
  type CultureLinePriceRow,
  type PriceEventRow,
} from './pricing.repository.js';
import type { CultureLinePrice, PriceEvent } from './pricing.schemas.js';

export { PRICE_SOURCES, type PriceSource } from './pricing.schemas.js';

export type CultureLinePriceRecord = Static<typeof CultureLinePrice>;
export type PriceEventRecord = Static<typeof PriceEvent>;

export function presentCultureLinePrice(row: CultureLinePriceRow): CultureLinePriceRecord {
  return {
    id: row.id,
    plant_id: row.plant_id,
    list_price: { amount: row.list_amount, currency: row.list_currency },
    wholesale_price: moneyOf(row.wholesale_amount, row.wholesale_currency),
    previous_list_price: moneyOf(row.previous_amount, row.previous_currency),
    pricing_tier: row.pricing_tier,
    tier_score: row.tier_score,
    price_source: row.price_source,
    price_source_at: row.price_source_at,
    notes: row.notes,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function presentPriceEvent(row: PriceEventRow): PriceEventRecord {
  return {
    id: row.id,
    plant_id: row.plant_id,
    list_price: { amount: row.list_amount, currency: row.list_currency },
    // The previous price keeps its own currency, which may differ from the new one.
    previous_list_price: moneyOf(row.previous_amount, row.previous_currency),
    price_source: row.price_source,
    changed_by: row.changed_by,
    changed_at: row.changed_at,
  };
}

/** A `plant_id` filter must name a plant of the workspace (404 otherwise, as for a random id). */
export async function plantFilter(
  db: Db,
  records: RecordLookup,
  workspaceId: string,
  plantId: string | undefined,
): Promise<string | null> {
  if (plantId === undefined) return null;
  if ((await records.find(db, 'plant', workspaceId, plantId)) === undefined) {
    throw errors.notFound('Plant');
  }
  return plantId;
}

/** Culture line prices, newest first by when each line was first priced. */
export async function listCultureLinePrices(
  db: Db,
  records: RecordLookup,
  workspaceId: string,
  query: { plant_id?: string; pricing_tier?: string },
  page: PageRequest,
): Promise<Page<CultureLinePriceRecord>> {
  const plantId = await plantFilter(db, records, workspaceId, query.plant_id);
  const { items, nextKey } = await listCultureLinePriceRows(
    db,
    workspaceId,
    { plantId, pricingTier: query.pricing_tier ?? null },
    page,
  );
  return { items: items.map(presentCultureLinePrice), nextKey };
}

/** Price changes, newest first, optionally of one line and within a window. */
export async function listPriceEvents(
  db: Db,
  records: RecordLookup,
  workspaceId: string,
  filters: { plantId: string | undefined; window: TimeWindow },
  page: PageRequest,
): Promise<Page<PriceEventRecord>> {
  const plantId = await plantFilter(db, records, workspaceId, filters.plantId);
  const { items, nextKey } = await listPriceEventRows(
    db,
    workspaceId,
    { plantId, window: filters.window },
    page,
  );
  return { items: items.map(presentPriceEvent), nextKey };
}
