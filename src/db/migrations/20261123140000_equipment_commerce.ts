import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * Equipment events (append-only), the sort key of order lines, and the indexes
 * of the equipment, pricing and commerce lists and their filters.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('equipment_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('equipment_id', 'text', (c) => c.notNull().references('equipment.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text')
    .addColumn('subject_type', 'text')
    .addColumn('subject_id', 'text')
    .addColumn('subject_label', 'text')
    .addColumn('performed_by_name', 'text')
    .addColumn('provider', 'text')
    .addColumn('as_found_condition', 'text')
    .addColumn('as_left_condition', 'text')
    .addColumn('result_summary', 'text')
    .addColumn('certificate_number', 'text')
    .addColumn('certificate_url', 'text')
    .addColumn('next_due_at', 'text')
    .addColumn('notes', 'text')
    .addColumn('recorded_by', 'text', (c) => c.references('members.id'))
    .addColumn('recorded_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('equipment_events_equipment_occurred')
    .on('equipment_events')
    .columns(['workspace_id', 'equipment_id', 'occurred_at', 'id'])
    .execute();
  await db.schema
    .createIndex('equipment_events_equipment_kind_occurred')
    .on('equipment_events')
    .columns(['workspace_id', 'equipment_id', 'kind', 'occurred_at', 'id'])
    .execute();

  await db.schema
    .createIndex('equipment_workspace_category_created')
    .on('equipment')
    .columns(['workspace_id', 'category', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('equipment_workspace_status_created')
    .on('equipment')
    .columns(['workspace_id', 'status', 'created_at', 'id'])
    .execute();

  await db.schema
    .createIndex('culture_line_prices_plant_created')
    .on('culture_line_prices')
    .columns(['workspace_id', 'plant_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('culture_line_prices_tier_created')
    .on('culture_line_prices')
    .columns(['workspace_id', 'pricing_tier', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('price_events_plant_changed')
    .on('price_events')
    .columns(['workspace_id', 'plant_id', 'changed_at', 'id'])
    .execute();

  // Newest first needs a sort key that is never null: a line without occurred_at
  // sorts as '' (after every dated line), the same way on both engines.
  await db.schema
    .alterTable('order_lines')
    .addColumn('occurred_key', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`update order_lines set occurred_key = occurred_at where occurred_at is not null`.execute(
    db,
  );
  await db.schema
    .createIndex('order_lines_workspace_listed')
    .on('order_lines')
    .columns(['workspace_id', 'occurred_key', 'id'])
    .execute();
  await db.schema
    .createIndex('order_lines_product_link_listed')
    .on('order_lines')
    .columns(['workspace_id', 'product_link_id', 'occurred_key', 'id'])
    .execute();
  await db.schema
    .createIndex('order_lines_plant_occurred')
    .on('order_lines')
    .columns(['workspace_id', 'plant_id', 'occurred_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of [
    'order_lines_plant_occurred',
    'order_lines_product_link_listed',
    'order_lines_workspace_listed',
    'price_events_plant_changed',
    'culture_line_prices_tier_created',
    'culture_line_prices_plant_created',
    'equipment_workspace_status_created',
    'equipment_workspace_category_created',
  ]) {
    await db.schema.dropIndex(index).execute();
  }
  await db.schema.alterTable('order_lines').dropColumn('occurred_key').execute();
  await db.schema.dropTable('equipment_events').execute();
}
