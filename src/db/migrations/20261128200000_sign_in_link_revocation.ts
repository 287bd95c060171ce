import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * A sign-in link can be revoked before it is used: by a newer link for the same
 * person, by signing the person out (everywhere, or from the CLI), by removing
 * them, or by an admin. `revoked_at` says when; the member's unused links are
 * found by workspace and member.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sign_in_links').addColumn('revoked_at', 'text').execute();
  await db.schema
    .createIndex('sign_in_links_member')
    .on('sign_in_links')
    .columns(['workspace_id', 'member_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('sign_in_links_member').execute();
  await db.schema.alterTable('sign_in_links').dropColumn('revoked_at').execute();
}
