import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    // The record commented on: a kind of the record lookup and its id.
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text', (c) => c.references('comments.id'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('is_pinned', 'integer', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.notNull().references('members.id'))
    // JSON arrays: member ids, and {entity_type, entity_id, label} objects.
    .addColumn('mentioned_user_ids', 'text', (c) => c.notNull())
    .addColumn('entity_references', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('edited_at', 'text')
    .addColumn('deleted_at', 'text')
    .execute();
  // The list: one record's comments, oldest first.
  await db.schema
    .createIndex('comments_entity_created')
    .on('comments')
    .columns(['workspace_id', 'entity_type', 'entity_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('comments').execute();
}
