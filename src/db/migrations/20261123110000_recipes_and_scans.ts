import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('media_recipes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('is_public', 'integer', (c) => c.notNull())
    .addColumn('notes', 'text')
    // pH in hundredths (5.75 -> 575): stored exactly to two decimals on both engines.
    .addColumn('ph_target_centi', 'integer')
    .addColumn('sterilization_notes', 'text')
    .addColumn('storage_notes', 'text')
    .addColumn('usage_notes', 'text')
    .addColumn('components', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('members.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('media_recipes_workspace_created')
    .on('media_recipes')
    .columns(['workspace_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('media_recipes_workspace_status_created')
    .on('media_recipes')
    .columns(['workspace_id', 'status', 'created_at', 'id'])
    .execute();

  // Every formulation a recipe has had, the current one included: one row per version.
  await db.schema
    .createTable('media_recipe_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('recipe_id', 'text', (c) => c.notNull().references('media_recipes.id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('ph_target_centi', 'integer')
    .addColumn('sterilization_notes', 'text')
    .addColumn('storage_notes', 'text')
    .addColumn('usage_notes', 'text')
    .addColumn('components', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('members.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('media_recipe_versions_number', ['recipe_id', 'version'])
    .execute();

  // Append-only; no list reads them yet, so only the key indexes.
  await db.schema
    .createTable('label_scans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('barcode', 'text', (c) => c.notNull())
    .addColumn('plant_id', 'text', (c) => c.references('plants.id'))
    .addColumn('explant_id', 'text', (c) => c.references('explants.id'))
    .addColumn('context', 'text')
    .addColumn('scanned_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('members.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['label_scans', 'media_recipe_versions', 'media_recipes']) {
    await db.schema.dropTable(table).execute();
  }
}
