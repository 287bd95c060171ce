import type { Db } from '../../db/database.js';
import type { CultureLinePriceTable, PriceEventTable } from '../../db/schema.js';

export type CultureLinePriceRow = CultureLinePriceTable;
export type PriceEventRow = PriceEventTable;

export type CultureLinePriceChanges = Partial<
  Omit<CultureLinePriceRow, 'id' | 'workspace_id' | 'created_at'>
>;
export type PriceEventChanges = Partial<Omit<PriceEventRow, 'id' | 'workspace_id'>>;

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

const EVENT_COLUMNS = [
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

export async function findCultureLinePrice(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<CultureLinePriceRow | undefined> {
  return db
    .selectFrom('culture_line_prices')
    .select(PRICE_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertCultureLinePrice(db: Db, row: CultureLinePriceRow): Promise<void> {
  await db.insertInto('culture_line_prices').values(row).execute();
}

export async function updateCultureLinePrice(
  db: Db,
  workspaceId: string,
  id: string,
  changes: CultureLinePriceChanges,
): Promise<void> {
  await db
    .updateTable('culture_line_prices')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** The workspace of each of these ids, whichever it is: for refusing ids another workspace holds. */
export async function findCultureLinePriceOwners(
  db: Db,
  ids: readonly string[],
): Promise<{ id: string; workspace_id: string }[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('culture_line_prices')
    .select(['id', 'workspace_id'])
    .where('id', 'in', ids)
    .execute();
}

export async function findPriceEvent(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<PriceEventRow | undefined> {
  return db
    .selectFrom('price_events')
    .select(EVENT_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertPriceEvent(db: Db, row: PriceEventRow): Promise<void> {
  await db.insertInto('price_events').values(row).execute();
}

export async function updatePriceEvent(
  db: Db,
  workspaceId: string,
  id: string,
  changes: PriceEventChanges,
): Promise<void> {
  await db
    .updateTable('price_events')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

export async function findPriceEventOwners(
  db: Db,
  ids: readonly string[],
): Promise<{ id: string; workspace_id: string }[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('price_events')
    .select(['id', 'workspace_id'])
    .where('id', 'in', ids)
    .execute();
}
