import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('plants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('species', 'text', (c) => c.notNull())
    .addColumn('common_name', 'text')
    .addColumn('genus', 'text')
    .addColumn('family', 'text')
    .addColumn('cultivar', 'text')
    .addColumn('source', 'text')
    .addColumn('notes', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('external_id_key', 'text')
    .addColumn('custom_fields', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('members.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema
    .createIndex('plants_workspace_created')
    .on('plants')
    .columns(['workspace_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('plants_external_id')
    .on('plants')
    .columns(['workspace_id', 'external_id_key'])
    .unique()
    .execute();

  await db.schema
    .createTable('explants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('plant_id', 'text', (c) => c.references('plants.id'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('label_key', 'text', (c) => c.notNull())
    .addColumn('batch_number', 'text')
    .addColumn('batch_number_key', 'text')
    .addColumn('notes', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('external_id_key', 'text')
    .addColumn('initial_count', 'integer')
    .addColumn('current_count', 'integer')
    .addColumn('plantlet_count', 'integer')
    .addColumn('custom_fields', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('members.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema
    .createIndex('explants_workspace_created')
    .on('explants')
    .columns(['workspace_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('explants_external_id')
    .on('explants')
    .columns(['workspace_id', 'external_id_key'])
    .unique()
    .execute();
  await db.schema
    .createIndex('explants_batch_number')
    .on('explants')
    .columns(['workspace_id', 'batch_number_key'])
    .execute();
  await db.schema
    .createIndex('explants_label')
    .on('explants')
    .columns(['workspace_id', 'label_key'])
    .execute();
  await db.schema.createIndex('explants_plant').on('explants').column('plant_id').execute();

  await db.schema
    .createTable('stages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('entered_on', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addColumn('room_id', 'text', (c) => c.references('rooms.id'))
    .addColumn('notes', 'text')
    .addColumn('created_by', 'text', (c) => c.references('members.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('stages_entity_entered')
    .on('stages')
    .columns(['workspace_id', 'entity_type', 'entity_id', 'entered_on', 'id'])
    .execute();
  // At most one current stage per record, whatever races happen.
  await db.schema
    .createIndex('stages_one_active')
    .on('stages')
    .columns(['entity_type', 'entity_id'])
    .unique()
    .where(sql.ref('status'), '=', 'active')
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('stage_id', 'text')
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('event_time', 'text', (c) => c.notNull())
    .addColumn('recorded_by', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('events_workspace_seq', ['workspace_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('events_entity_seq')
    .on('events')
    .columns(['workspace_id', 'entity_type', 'seq'])
    .execute();
  await db.schema
    .createIndex('events_entity_created')
    .on('events')
    .columns(['workspace_id', 'entity_type', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['events', 'stages', 'explants', 'plants']) {
    await db.schema.dropTable(table).execute();
  }
}
