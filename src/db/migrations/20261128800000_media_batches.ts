import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * Media batches and the stock they are made from. A stock item (a chemical, agar,
 * vessels) has lots, each with the quantity it still holds in a unit; a media batch
 * is made from a recipe's version and takes its components' amounts from lots.
 * Transfers and explants name the batch their cultures went onto (`media_batch_id`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stock_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('reorder_level', 'double precision')
    .addColumn('notes', 'text')
    .addColumn('created_by', 'text', (c) => c.references('members.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('stock_items_workspace_created')
    .on('stock_items')
    .columns(['workspace_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('stock_lots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('item_id', 'text', (c) => c.notNull().references('stock_items.id'))
    .addColumn('lot_number', 'text', (c) => c.notNull())
    .addColumn('supplier', 'text')
    .addColumn('received_on', 'text')
    .addColumn('expires_on', 'text')
    .addColumn('quantity', 'double precision', (c) => c.notNull())
    .addColumn('initial_quantity', 'double precision', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('low_task_id', 'text', (c) => c.references('tasks.id'))
    .addColumn('expired_task_id', 'text', (c) => c.references('tasks.id'))
    .addColumn('notes', 'text')
    .addColumn('created_by', 'text', (c) => c.references('members.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('stock_lots_item_created')
    .on('stock_lots')
    .columns(['workspace_id', 'item_id', 'created_at', 'id'])
    .execute();
  // The expiry pass: lots past their date not yet told of.
  await db.schema
    .createIndex('stock_lots_workspace_expires')
    .on('stock_lots')
    .columns(['workspace_id', 'expires_on'])
    .execute();

  await db.schema
    .createTable('media_batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('recipe_id', 'text', (c) => c.notNull().references('media_recipes.id'))
    .addColumn('recipe_version', 'integer', (c) => c.notNull())
    .addColumn('volume_ml', 'double precision', (c) => c.notNull())
    .addColumn('ph_measured_centi', 'integer')
    .addColumn('prepared_by', 'text', (c) => c.notNull().references('members.id'))
    .addColumn('prepared_at', 'text', (c) => c.notNull())
    .addColumn('autoclave_event_id', 'text', (c) => c.references('equipment_events.id'))
    .addColumn('expires_at', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('components', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('created_by', 'text', (c) => c.references('members.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('media_batches_workspace_created')
    .on('media_batches')
    .columns(['workspace_id', 'created_at', 'id'])
    .execute();

  await db.schema.alterTable('transfers').addColumn('media_batch_id', 'text').execute();
  await db.schema
    .createIndex('transfers_media_batch')
    .on('transfers')
    .columns(['workspace_id', 'media_batch_id'])
    .execute();
  await db.schema.alterTable('explants').addColumn('media_batch_id', 'text').execute();
  await db.schema
    .createIndex('explants_media_batch')
    .on('explants')
    .columns(['workspace_id', 'media_batch_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('explants_media_batch').execute();
  await db.schema.alterTable('explants').dropColumn('media_batch_id').execute();
  await db.schema.dropIndex('transfers_media_batch').execute();
  await db.schema.alterTable('transfers').dropColumn('media_batch_id').execute();
  await db.schema.dropTable('media_batches').execute();
  await db.schema.dropTable('stock_lots').execute();
  await db.schema.dropTable('stock_items').execute();
}
