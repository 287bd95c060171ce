import type { Db } from '../../db/database.js';
import { newId } from '../../kernel/ids.js';
import { canonicalJson } from '../../kernel/json.js';
import type { OrderLineTable } from '../../db/schema.js';
import { ORDER_LINE_FACTS, orderLines } from '../commerce/index.js';
import { equipment } from '../equipment/index.js';
import { rooms } from '../lab/index.js';
import { cultureLinePrices, priceEvents } from '../pricing/index.js';
import { sops, sopVersions } from '../sops/index.js';
import type { ImportFile } from './import.schema.js';
import { identitiesOf } from './upsert.js';

/**
 * Records sent without an `id` are matched on a natural key, so that importing
 * the same file again updates what the first import wrote instead of adding it
 * twice:
 *
 * | section | matched on |
 * | --- | --- |
 * | rooms | name |
 * | sops | title |
 * | sops[].versions | the SOP and the version number |
 * | equipment | name |
 * | culture_line_prices | plant_id (one price per culture line) |
 * | price_events | plant_id and changed_at |
 * | order_lines | every field: an identical line is the same line |
 *
 * A record with an `id` is that record. Each stored record matches one record
 * of the file at most (two identical order lines stay two); the rest get new ids.
 */
export type Section =
  | 'rooms'
  | 'sops'
  | 'sop_versions'
  | 'equipment'
  | 'culture_line_prices'
  | 'price_events'
  | 'order_lines';

const utc = (value: string) => new Date(value).toISOString();

/** The natural keys, computed the same way from a file entry and from a stored row. */
export const naturalKey = {
  room: (r: { name: string }) => r.name,
  sop: (s: { title: string }) => s.title,
  sopVersion: (sopId: string, version: number) => `${sopId} ${version}`,
  equipment: (e: { name: string }) => e.name,
  price: (p: { plant_id: string }) => p.plant_id,
  priceEvent: (e: { plant_id: string; changed_at: string }) => `${e.plant_id} ${utc(e.changed_at)}`,
  orderLine: (l: Pick<OrderLineTable, (typeof ORDER_LINE_FACTS)[number]>) =>
    canonicalJson([
      l.plant_id,
      l.product_link_id,
      l.store_product_id,
      l.store_variant_id,
      l.quantity,
      l.unit_amount,
      l.unit_currency,
      l.occurred_at === null ? null : utc(l.occurred_at),
    ]),
};

/** Hands out the id of each record: its own, else a stored one with its natural key, else a new one. */
export interface IdSource {
  idOf(section: Section, key: string, given: string | undefined): string;
}

/** New ids for every record sent without one (no database to match against). */
export const freshIds: IdSource = { idOf: (_section, _key, given) => given ?? newId() };

type Pools = Map<Section, Map<string, string[]>>;

function pool(rows: readonly { id: string }[], keyOf: (row: never) => string, taken: Set<string>) {
  const byKey = new Map<string, string[]>();
  for (const row of rows) {
    if (taken.has(row.id)) continue;
    const key = keyOf(row as never);
    byKey.set(key, [...(byKey.get(key) ?? []), row.id]);
  }
  return byKey;
}

/** Every id the file names itself: stored records with these ids are not matched by key. */
function givenIds(file: ImportFile): Set<string> {
  const ids = [
    ...(file.rooms ?? []),
    ...(file.sops ?? []),
    ...(file.sops ?? []).flatMap((s) => s.versions ?? []),
    ...(file.equipment ?? []),
    ...(file.culture_line_prices ?? []),
    ...(file.price_events ?? []),
    ...(file.order_lines ?? []),
  ].flatMap((r) => (r.id === undefined ? [] : [r.id]));
  return new Set(ids);
}

/** The ids of a workspace's stored records, by natural key, for the sections the file has. */
export async function storedIds(db: Db, workspaceId: string, file: ImportFile): Promise<IdSource> {
  const taken = givenIds(file);
  const pools: Pools = new Map();
  const load = async <R extends { id: string }>(
    section: Section,
    present: boolean,
    rows: () => Promise<R[]>,
    keyOf: (row: R) => string,
  ) => {
    if (present) pools.set(section, pool(await rows(), keyOf, taken));
  };
  await load(
    'rooms',
    file.rooms !== undefined,
    () => identitiesOf(rooms, db, workspaceId, ['name']),
    naturalKey.room,
  );
  await load(
    'sops',
    file.sops !== undefined,
    () => identitiesOf(sops, db, workspaceId, ['title']),
    naturalKey.sop,
  );
  await load(
    'sop_versions',
    file.sops !== undefined,
    () => identitiesOf(sopVersions, db, workspaceId, ['sop_id', 'version']),
    (v) => naturalKey.sopVersion(v.sop_id, v.version),
  );
  await load(
    'equipment',
    file.equipment !== undefined,
    () => identitiesOf(equipment, db, workspaceId, ['name']),
    naturalKey.equipment,
  );
  await load(
    'culture_line_prices',
    file.culture_line_prices !== undefined,
    () => identitiesOf(cultureLinePrices, db, workspaceId, ['plant_id']),
    naturalKey.price,
  );
  await load(
    'price_events',
    file.price_events !== undefined,
    () => identitiesOf(priceEvents, db, workspaceId, ['plant_id', 'changed_at']),
    naturalKey.priceEvent,
  );
  await load(
    'order_lines',
    file.order_lines !== undefined,
    () => identitiesOf(orderLines, db, workspaceId, ORDER_LINE_FACTS),
    naturalKey.orderLine,
  );
  return {
    idOf: (section, key, given) => given ?? pools.get(section)?.get(key)?.shift() ?? newId(),
  };
}
