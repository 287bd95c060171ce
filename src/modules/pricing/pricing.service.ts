import type { Db } from '../../db/database.js';
import { diffFields } from '../../kernel/changes.js';
import type { Money } from './money.js';
import {
  findCultureLinePrice,
  findCultureLinePriceOwners,
  findPriceEvent,
  findPriceEventOwners,
  insertCultureLinePrice,
  insertPriceEvent,
  updateCultureLinePrice,
  updatePriceEvent,
  type CultureLinePriceRow,
  type PriceEventRow,
} from './pricing.repository.js';

export const PRICE_SOURCES = ['manual', 'store_adopted', 'store_follow'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];

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

const PRICE_FIELDS = [
  'plant_id',
  'list_amount',
  'list_currency',
  'wholesale_amount',
  'wholesale_currency',
  'pricing_tier',
  'tier_score',
  'price_source',
  'notes',
] as const;

const EVENT_FIELDS = [
  'plant_id',
  'list_amount',
  'list_currency',
  'previous_amount',
  'previous_currency',
  'price_source',
  'changed_at',
] as const;

function ownedElsewhere(
  owners: readonly { id: string; workspace_id: string }[],
  workspaceId: string,
): Set<string> {
  return new Set(owners.filter((o) => o.workspace_id !== workspaceId).map((o) => o.id));
}

/** The ids among `ids` that a culture line price of another workspace already has. */
export async function cultureLinePriceIdsUsedElsewhere(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  return ownedElsewhere(await findCultureLinePriceOwners(db, ids), workspaceId);
}

/** The ids among `ids` that a price event of another workspace already has. */
export async function priceEventIdsUsedElsewhere(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  return ownedElsewhere(await findPriceEventOwners(db, ids), workspaceId);
}

/**
 * Inserts or updates a culture line price. When the list price changes, the old
 * one becomes `previous_list_price`; when the source changes, `price_source_at`
 * is now. An unchanged row is left untouched.
 */
export async function saveCultureLinePrice(
  db: Db,
  workspaceId: string,
  input: CultureLinePriceInput,
  now: string,
): Promise<void> {
  const fields: Pick<CultureLinePriceRow, (typeof PRICE_FIELDS)[number]> = {
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
  const existing = await findCultureLinePrice(db, workspaceId, input.id);
  if (existing === undefined) {
    await insertCultureLinePrice(db, {
      id: input.id,
      workspace_id: workspaceId,
      ...fields,
      previous_amount: null,
      previous_currency: null,
      price_source_at: now,
      created_at: now,
      updated_at: now,
    });
    return;
  }
  const changes = diffFields(existing, fields, PRICE_FIELDS);
  if (Object.keys(changes).length === 0) return;
  const listChanged = 'list_amount' in changes || 'list_currency' in changes;
  await updateCultureLinePrice(db, workspaceId, input.id, {
    ...fields,
    ...(listChanged
      ? { previous_amount: existing.list_amount, previous_currency: existing.list_currency }
      : {}),
    ...('price_source' in changes ? { price_source_at: now } : {}),
    updated_at: now,
  });
}

/** Inserts or updates a recorded price change; an unchanged row is left untouched. */
export async function savePriceEvent(
  db: Db,
  workspaceId: string,
  input: PriceEventInput,
): Promise<void> {
  const fields: Pick<PriceEventRow, (typeof EVENT_FIELDS)[number]> = {
    plant_id: input.plant_id,
    list_amount: input.list_price.amount,
    list_currency: input.list_price.currency,
    previous_amount: input.previous_list_price?.amount ?? null,
    previous_currency: input.previous_list_price?.currency ?? null,
    price_source: input.price_source,
    changed_at: input.changed_at,
  };
  const existing = await findPriceEvent(db, workspaceId, input.id);
  if (existing === undefined) {
    await insertPriceEvent(db, {
      id: input.id,
      workspace_id: workspaceId,
      ...fields,
      changed_by: null,
    });
    return;
  }
  if (Object.keys(diffFields(existing, fields, EVENT_FIELDS)).length === 0) return;
  await updatePriceEvent(db, workspaceId, input.id, fields);
}
