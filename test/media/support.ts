import type { Database } from '../../src/db/database.js';
import { dataOf, type Client, type Json } from '../support/helpers.js';

/** A recipe the caller made (private unless sent otherwise). */
export async function newRecipe(c: Client, fields: Record<string, unknown> = {}): Promise<Json> {
  return dataOf(
    await c.post('/api/v1/media-recipes', {
      title: 'MS + BAP',
      components: [{ name: 'MS basal salts', qty: '4.4', unit: 'g/L' }],
      ...fields,
    }),
    201,
  );
}

export async function newBatch(c: Client, fields: Record<string, unknown>): Promise<Json> {
  return dataOf(await c.post('/api/v1/media-batches', { volume_ml: 1000, ...fields }), 201);
}

/** A stock item (the caller must be a manager) and one lot of it. */
export async function newStock(
  c: Client,
  item: Record<string, unknown> = {},
  lot: Record<string, unknown> = {},
): Promise<{ item: Json; lot: Json }> {
  const made = dataOf(
    await c.post('/api/v1/stock-items', { name: 'Agar', category: 'agar', unit: 'g', ...item }),
    201,
  );
  const received = dataOf(
    await c.post(`/api/v1/stock-items/${made.id}/lots`, {
      lot_number: 'AG-1',
      quantity: 500,
      ...lot,
    }),
    201,
  );
  return { item: made, lot: received };
}

export async function lotOf(c: Client, lot: Json): Promise<Json> {
  return dataOf(await c.get(`/api/v1/stock-items/${lot.item_id}/lots/${lot.id}`), 200);
}

/** What a refused write must leave as it was: batches, lots, transfers, explants, tasks, events. */
export async function snapshot(database: Database, workspaceId: string): Promise<unknown> {
  const db = database.db;
  const ids = (table: 'media_batches' | 'transfers' | 'explants' | 'tasks' | 'events') =>
    db
      .selectFrom(table)
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .orderBy('id')
      .execute();
  return {
    batches: await ids('media_batches'),
    transfers: await ids('transfers'),
    explants: await db
      .selectFrom('explants')
      .select(['id', 'current_count', 'media_batch_id'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('id')
      .execute(),
    tasks: await ids('tasks'),
    events: await ids('events'),
    lots: await db
      .selectFrom('stock_lots')
      .select(['id', 'quantity', 'low_task_id'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('id')
      .execute(),
  };
}
