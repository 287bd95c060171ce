import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * A mark for the insights' drain may name the transfer that made it
 * (`insight_dirty.transfer_id`): an explant marked only by transfers added after its
 * last kept handling gets those handlings added, not its whole history made anew. A
 * mark without one (every mark before this) asks for the whole history, as before.
 * The kept handlings' last of each explant (no next yet) is found by an index of its
 * own.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('insight_dirty').addColumn('transfer_id', 'text').execute();
  await db.schema
    .createIndex('insight_handlings_last')
    .on('insight_handlings')
    .columns(['workspace_id', 'explant_id'])
    .where(sql.ref('next_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('insight_handlings_last').execute();
  await db.schema.alterTable('insight_dirty').dropColumn('transfer_id').execute();
}
