import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * An explant's family: one row per parent of a child explant (a split gives each
 * daughter one parent, a merge gives the pooled culture several), with the
 * transfer, time, person, room and medium batch that made it. The explant keeps
 * its parents' ids too (`parent_explant_ids`, a JSON array), so that reading an
 * explant or a list needs no second query.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('explant_parents')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('parent_id', 'text', (c) => c.notNull().references('explants.id'))
    .addColumn('child_id', 'text', (c) => c.notNull().references('explants.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('transfer_id', 'text', (c) => c.references('transfers.id'))
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('recorded_by', 'text', (c) => c.references('members.id'))
    .addColumn('room_id', 'text', (c) => c.references('rooms.id'))
    .addColumn('media_batch_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('explant_parents_pkey', ['child_id', 'parent_id'])
    .execute();
  // Descendants: a parent's children, walked generation by generation.
  await db.schema
    .createIndex('explant_parents_parent')
    .on('explant_parents')
    .columns(['workspace_id', 'parent_id', 'child_id'])
    .execute();
  // Ancestors: a child's parents.
  await db.schema
    .createIndex('explant_parents_child')
    .on('explant_parents')
    .columns(['workspace_id', 'child_id', 'parent_id'])
    .execute();
  await db.schema
    .alterTable('explants')
    .addColumn('parent_explant_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('explants').dropColumn('parent_explant_ids').execute();
  await db.schema.dropTable('explant_parents').execute();
}
