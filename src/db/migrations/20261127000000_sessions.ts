import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

export async function up(db: Kysely<any>): Promise<void> {
  // Personal sign-in links: single use, short-lived; only the SHA-256 of the secret is kept.
  await db.schema
    .createTable('sign_in_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    // Who minted it: a member (the console), or null (the CLI).
    .addColumn('created_by', 'text', (c) => c.references('members.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('sign_in_links_expires')
    .on('sign_in_links')
    .column('expires_at')
    .execute();

  // Console sessions: the cookie's SHA-256; a session ends when ended_at is set or
  // when it has not been used for 30 days.
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('member_id', 'text', (c) => c.notNull().references('members.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .execute();
  await db.schema
    .createIndex('sessions_member')
    .on('sessions')
    .columns(['workspace_id', 'member_id'])
    .execute();
  await db.schema.createIndex('sessions_last_used').on('sessions').column('last_used_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('sign_in_links').execute();
}
