import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('category_label', 'text')
    .addColumn('workflow_status', 'text', (c) => c.notNull())
    .addColumn('priority', 'text')
    .addColumn('priority_rank', 'double precision')
    .addColumn('priority_source', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text')
    // The list's order, earliest due first and undated last: `undated` (0/1), then
    // `due_key` (the due date, '' when undated), then the id.
    .addColumn('undated', 'integer', (c) => c.notNull())
    .addColumn('due_key', 'text', (c) => c.notNull())
    .addColumn('is_all_day', 'integer', (c) => c.notNull())
    .addColumn('assigned_to', 'text', (c) => c.references('members.id'))
    .addColumn('genus', 'text')
    .addColumn('entity_type', 'text')
    .addColumn('entity_id', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('completed_by', 'text', (c) => c.references('members.id'))
    .addColumn('created_by', 'text', (c) => c.references('members.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tasks_workspace_due')
    .on('tasks')
    .columns(['workspace_id', 'undated', 'due_key', 'id'])
    .execute();
  await db.schema
    .createIndex('tasks_workspace_status_due')
    .on('tasks')
    .columns(['workspace_id', 'workflow_status', 'undated', 'due_key', 'id'])
    .execute();
  await db.schema
    .createIndex('tasks_workspace_assignee_due')
    .on('tasks')
    .columns(['workspace_id', 'assigned_to', 'undated', 'due_key', 'id'])
    .execute();
  await db.schema
    .createIndex('tasks_entity')
    .on('tasks')
    .columns(['workspace_id', 'entity_type', 'entity_id'])
    .execute();

  await db.schema
    .createTable('demand_signals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('genus', 'text', (c) => c.notNull())
    // Lower-cased genus: signals for `Monstera` and `monstera` are one genus.
    .addColumn('genus_key', 'text', (c) => c.notNull())
    .addColumn('source_type', 'text')
    .addColumn('demand_score', 'double precision', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('observed_at', 'text', (c) => c.notNull())
    .addColumn('recorded_by', 'text', (c) => c.references('members.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('demand_signals_workspace_observed')
    .on('demand_signals')
    .columns(['workspace_id', 'observed_at', 'id'])
    .execute();
  await db.schema
    .createIndex('demand_signals_genus_observed')
    .on('demand_signals')
    .columns(['workspace_id', 'genus_key', 'observed_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['demand_signals', 'tasks']) {
    await db.schema.dropTable(table).execute();
  }
}
