import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sops')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('category', 'text')
    .addColumn('status', 'text')
    .addColumn('level', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('equipment', 'text', (c) => c.notNull())
    .addColumn('estimated_time_minutes', 'double precision')
    .addColumn('duration_hours', 'double precision')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sops_workspace_updated')
    .on('sops')
    .columns(['workspace_id', 'updated_at', 'id'])
    .execute();

  await db.schema
    .createTable('sop_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('sop_id', 'text', (c) => c.notNull().references('sops.id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('lifecycle_status', 'text', (c) => c.notNull())
    .addColumn('effective_at', 'text')
    .addColumn('approved_at', 'text')
    .addColumn('title', 'text')
    .addColumn('description', 'text')
    .addColumn('steps', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('sop_versions_number', ['sop_id', 'version'])
    .execute();

  await db.schema
    .createTable('equipment')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('manufacturer', 'text')
    .addColumn('model', 'text')
    .addColumn('serial_number', 'text')
    .addColumn('location', 'text')
    .addColumn('purchase_date', 'text')
    .addColumn('vendor_url', 'text')
    .addColumn('notes', 'text')
    .addColumn('last_calibrated_at', 'text')
    .addColumn('next_calibration_due_at', 'text')
    .addColumn('last_maintenance_at', 'text')
    .addColumn('next_maintenance_due_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('equipment_workspace_created')
    .on('equipment')
    .columns(['workspace_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('labels')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('barcode', 'text', (c) => c.notNull())
    .addColumn('record_type', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('labels_barcode', ['workspace_id', 'barcode'])
    .execute();

  await db.schema
    .createTable('label_contents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('label_id', 'text', (c) => c.notNull().references('labels.id'))
    .addColumn('record_type', 'text')
    .addColumn('record_id', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('label_contents_label')
    .on('label_contents')
    .column('label_id')
    .execute();

  await db.schema
    .createTable('culture_line_prices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('plant_id', 'text', (c) => c.notNull().references('plants.id'))
    .addColumn('list_amount', 'text', (c) => c.notNull())
    .addColumn('list_currency', 'text')
    .addColumn('wholesale_amount', 'text')
    .addColumn('wholesale_currency', 'text')
    .addColumn('previous_amount', 'text')
    .addColumn('previous_currency', 'text')
    .addColumn('pricing_tier', 'text')
    .addColumn('tier_score', 'text')
    .addColumn('price_source', 'text', (c) => c.notNull())
    .addColumn('price_source_at', 'text')
    .addColumn('notes', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('culture_line_prices_workspace_created')
    .on('culture_line_prices')
    .columns(['workspace_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('price_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('plant_id', 'text', (c) => c.notNull().references('plants.id'))
    .addColumn('list_amount', 'text', (c) => c.notNull())
    .addColumn('list_currency', 'text')
    .addColumn('previous_amount', 'text')
    .addColumn('previous_currency', 'text')
    .addColumn('price_source', 'text', (c) => c.notNull())
    .addColumn('changed_by', 'text')
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('price_events_workspace_changed')
    .on('price_events')
    .columns(['workspace_id', 'changed_at', 'id'])
    .execute();

  await db.schema
    .createTable('order_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('plant_id', 'text', (c) => c.references('plants.id'))
    .addColumn('product_link_id', 'text')
    .addColumn('store_product_id', 'text')
    .addColumn('store_variant_id', 'text')
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('unit_amount', 'text')
    .addColumn('unit_currency', 'text')
    .addColumn('occurred_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('order_lines_workspace_occurred')
    .on('order_lines')
    .columns(['workspace_id', 'occurred_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'order_lines',
    'price_events',
    'culture_line_prices',
    'label_contents',
    'labels',
    'equipment',
    'sop_versions',
    'sops',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
