import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * The lab's setup written through the API: a room can be archived (left out of the
 * rooms list, kept for the records and history that name it), and a stage dropped
 * from a list while records were ever in it stays as a retired stage (its name kept
 * for that history; nothing new may enter it).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('rooms').addColumn('archived_at', 'text').execute();
  await db.schema
    .alterTable('stage_definitions')
    .addColumn('retired', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('stage_definitions').dropColumn('retired').execute();
  await db.schema.alterTable('rooms').dropColumn('archived_at').execute();
}
