import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { TimeWindow } from '../../kernel/window.js';
import { moneyOf, type Money } from './money.js';
import {
  cultureLinePrices,
  listCultureLinePriceRows,
  listPriceEventRows,
  priceEvents,
  type CultureLinePriceRow,
  type PriceEventRow,
} from './pricing.repository.js';
import type { CultureLinePrice, PriceEvent, PriceSource } from './pricing.schemas.js';

export { PRICE_SOURCES, type PriceSource } from './pricing.schemas.js';

export interface CultureLinePriceInput {
  id: string;
  plant_id: string;
  list_price: Money;
  wholesale_price: Money | null;
  pricing_tier: string | null;
  /** An exact decimal string, like the amounts. */
  tier_score: string | null;
  price_source: PriceSource;
  notes: string | null;
}

export interface PriceEventInput {
  id: string;
  plant_id: string;
  list_price: Money;
  previous_list_price: Money | null;
  price_source: PriceSource;
  changed_at: string;
}

/** The ids among `ids` that a culture line price of another workspace already has. */
export const cultureLinePriceIdsUsedElsewhere = cultureLinePrices.idsHeldElsewhere;

/** The ids among `ids` that a price event of another workspace already has. */
export const priceEventIdsUsedElsewhere = priceEvents.idsHeldElsewhere;

/**
 * Inserts or updates a culture line price. When the list price changes, the old
 * one becomes `previous_list_price`; when the source changes, `price_source_at`
 * is now. An unchanged row is left untouched.
 */
export async function saveCultureLinePrice(
  trx: Trx,
  workspaceId: string,
  input: CultureLinePriceInput,
  now: string,
): Promise<void> {
  const fields = {
    plant_id: input.plant_id,
    list_amount: input.list_price.amount,
    list_currency: input.list_price.currency,
    wholesale_amount: input.wholesale_price?.amount ?? null,
    wholesale_currency: input.wholesale_price?.currency ?? null,
    pricing_tier: input.pricing_tier,
    tier_score: input.tier_score,
    price_source: input.price_source,
    notes: input.notes,
  };
  await cultureLinePrices.save(trx, workspaceId, input.id, fields, {
    insert: () => ({
      id: input.id,
      workspace_id: workspaceId,
      ...fields,
      previous_amount: null,
      previous_currency: null,
      price_source_at: now,
      created_at: now,
      updated_at: now,
    }),
    onChange: (existing, changes) => ({
      ...('list_amount' in changes || 'list_currency' in changes
        ? { previous_amount: existing.list_amount, previous_currency: existing.list_currency }
        : {}),
      ...('price_source' in changes ? { price_source_at: now } : {}),
      updated_at: now,
    }),
  });
}

/** Inserts or updates a recorded price change; an unchanged row is left untouched. */
export async function savePriceEvent(
  trx: Trx,
  workspaceId: string,
  input: PriceEventInput,
): Promise<void> {
  const fields = {
    plant_id: input.plant_id,
    list_amount: input.list_price.amount,
    list_currency: input.list_price.currency,
    previous_amount: input.previous_list_price?.amount ?? null,
    previous_currency: input.previous_list_price?.currency ?? null,
    price_source: input.price_source,
    changed_at: input.changed_at,
  };
  await priceEvents.save(trx, workspaceId, input.id, fields, {
    insert: () => ({ id: input.id, workspace_id: workspaceId, ...fields, changed_by: null }),
  });
}

/** Price ids by culture line, and price events' by line and time, for matching imports. */
export const cultureLinePriceIdentities = (db: Db, workspaceId: string) =>
  cultureLinePrices.identities(db, workspaceId, ['plant_id']);
export const priceEventIdentities = (db: Db, workspaceId: string) =>
  priceEvents.identities(db, workspaceId, ['plant_id', 'changed_at']);

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
