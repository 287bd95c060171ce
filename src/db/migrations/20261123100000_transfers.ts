import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('transfer_date', 'text', (c) => c.notNull())
    .addColumn('transfer_cycle', 'integer', (c) => c.notNull())
    .addColumn('from_location', 'text')
    .addColumn('to_location', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('vessel_count', 'integer')
    .addColumn('plantlet_count', 'integer')
    .addColumn('custom_fields', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('members.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // GET /transfers: one record's transfers, newest first by transfer_date, then id.
  await db.schema
    .createIndex('transfers_entity_date')
    .on('transfers')
    .columns(['workspace_id', 'entity_type', 'entity_id', 'transfer_date', 'id'])
    .execute();
  // One transfer per cycle of a record, whatever races happen; also finds the highest cycle.
  await db.schema
    .createIndex('transfers_entity_cycle')
    .on('transfers')
    .columns(['workspace_id', 'entity_type', 'entity_id', 'transfer_cycle'])
    .unique()
    .execute();

  await db.schema
    .createTable('contaminations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('type_other', 'text')
    .addColumn('issue', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('notes', 'text')
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('suspected_source', 'text')
    .addColumn('observed_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .addColumn('vessels_affected', 'integer')
    .addColumn('plants_affected', 'integer')
    .addColumn('affected_vessel_markings', 'text')
    .addColumn('stage', 'text')
    .addColumn('room_id', 'text', (c) => c.references('rooms.id'))
    .addColumn('custom_fields', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('members.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  // GET /contaminations: newest first, unfiltered, by record, or by status.
  await db.schema
    .createIndex('contaminations_workspace_created')
    .on('contaminations')
    .columns(['workspace_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('contaminations_entity_created')
    .on('contaminations')
    .columns(['workspace_id', 'entity_type', 'entity_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('contaminations_status_created')
    .on('contaminations')
    .columns(['workspace_id', 'status', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['contaminations', 'transfers']) {
    await db.schema.dropTable(table).execute();
  }
}
