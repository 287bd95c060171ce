import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * Notifications: each person's inbox, their settings, the emails waiting to be sent
 * and where the time-based passes (due tasks, due transfers) stopped.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    // The person told.
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    // What caused it (a comment, an alert opening, a task's due date): one per person.
    .addColumn('event_key', 'text', (c) => c.notNull())
    .addColumn('record_type', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    // The record's name when it was made.
    .addColumn('record_label', 'text', (c) => c.notNull())
    .addColumn('room_id', 'text')
    .addColumn('comment_id', 'text')
    .addColumn('actor_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text')
    .addUniqueConstraint('notifications_member_event', ['member_id', 'event_key'])
    .execute();
  // The inbox, newest first; and its unread part alone (the unread filter and count).
  await db.schema
    .createIndex('notifications_inbox')
    .on('notifications')
    .columns(['workspace_id', 'member_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('notifications_unread')
    .on('notifications')
    .columns(['workspace_id', 'member_id', 'created_at', 'id'])
    .where(sql.ref('read_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('notification_settings')
    .addColumn('member_id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    // A JSON array of the kinds the person does not want.
    .addColumn('muted_kinds', 'text', (c) => c.notNull())
    .addColumn('follow_all_rooms', 'integer', (c) => c.notNull())
    // A JSON array of the rooms followed when not all are.
    .addColumn('room_ids', 'text', (c) => c.notNull())
    .addColumn('email', 'integer', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notification_settings_workspace')
    .on('notification_settings')
    .columns(['workspace_id'])
    .execute();

  await db.schema
    .createTable('notification_emails')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('member_id', 'text', (c) => c.notNull())
    // immediate (one notification) or digest (a day's)
    .addColumn('kind', 'text', (c) => c.notNull())
    // The notification's event key, or `digest:<day>`: one email each per person.
    .addColumn('dedupe_key', 'text', (c) => c.notNull())
    .addColumn('period_start', 'text')
    .addColumn('period_end', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    // When a pending email is due; while a process sends it, when its lease ends.
    .addColumn('next_attempt_at', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .addUniqueConstraint('notification_emails_member_key', ['member_id', 'dedupe_key'])
    .execute();
  await db.schema
    .createIndex('notification_emails_due')
    .on('notification_emails')
    .columns(['next_attempt_at'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('notification_emails_created')
    .on('notification_emails')
    .columns(['created_at'])
    .execute();

  // Where each time-based pass stopped: the next looks at what fell due since.
  await db.schema
    .createTable('notification_passes')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('until', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'notification_passes',
    'notification_emails',
    'notification_settings',
    'notifications',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
