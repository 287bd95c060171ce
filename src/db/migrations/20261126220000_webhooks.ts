import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    // A JSON array of event types; null = every type.
    .addColumn('event_types', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_at', 'text')
    .addColumn('secret', 'text', (c) => c.notNull())
    // After a rotation the old secret signs too, until it expires.
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', 'text')
    // The cursor over the change feed: the last workspace event sequence number sent.
    .addColumn('feed_seq', 'bigint', (c) => c.notNull())
    // Which process streams the feed to this endpoint, until when (also: paused for Retry-After).
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('failing_since', 'text')
    .addColumn('last_success_at', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_workspace')
    .on('webhook_endpoints')
    .columns(['workspace_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('endpoint_id', 'text', (c) =>
      c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
    )
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_seq', 'bigint', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    // Attempts since the schedule last started (a redelivery starts it again).
    .addColumn('schedule_step', 'integer', (c) => c.notNull())
    // When a pending delivery is due; while a process sends it, when its lease ends.
    .addColumn('next_attempt_at', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('last_attempt_at', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_duration_ms', 'integer')
    .addColumn('last_response', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('webhook_deliveries_endpoint_event', ['endpoint_id', 'event_id'])
    .execute();
  // The retry queue: only pending deliveries, by when they are due.
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['next_attempt_at'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  // The log of one endpoint, newest first; and the 30-day purge.
  await db.schema
    .createIndex('webhook_deliveries_log')
    .on('webhook_deliveries')
    .columns(['workspace_id', 'endpoint_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_created')
    .on('webhook_deliveries')
    .columns(['created_at'])
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('delivery_id', 'text', (c) =>
      c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
    )
    .addColumn('attempted_at', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('response', 'text')
    .addColumn('error', 'text')
    .addColumn('next_attempt_at', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_attempts_delivery')
    .on('webhook_attempts')
    .columns(['delivery_id', 'attempted_at', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_attempts_attempted')
    .on('webhook_attempts')
    .columns(['attempted_at'])
    .execute();

  await db.schema
    .createTable('alert_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sensor_type', 'text', (c) => c.notNull())
    // Exactly one of the two: the rule watches a room's readings or one device's.
    .addColumn('room_id', 'text')
    .addColumn('device_id', 'text')
    .addColumn('condition', 'text', (c) => c.notNull())
    .addColumn('threshold', 'double precision')
    .addColumn('duration_minutes', 'integer', (c) => c.notNull())
    .addColumn('hysteresis', 'double precision', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    // The episode in progress: when the readings left the range, and the open alert.
    .addColumn('breach_started_at', 'text')
    .addColumn('open_alert_id', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('alert_rules_workspace')
    .on('alert_rules')
    .columns(['workspace_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('alerts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('rule_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('sensor_type', 'text', (c) => c.notNull())
    .addColumn('room_id', 'text')
    .addColumn('device_id', 'text')
    .addColumn('condition', 'text', (c) => c.notNull())
    .addColumn('threshold', 'double precision')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('opened_at', 'text', (c) => c.notNull())
    .addColumn('opened_value', 'double precision')
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_value', 'double precision')
    .addColumn('resolution', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('alerts_workspace_status')
    .on('alerts')
    .columns(['workspace_id', 'status', 'opened_at', 'id'])
    .execute();
  await db.schema
    .createIndex('alerts_workspace_opened')
    .on('alerts')
    .columns(['workspace_id', 'opened_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'alerts',
    'alert_rules',
    'webhook_attempts',
    'webhook_deliveries',
    'webhook_endpoints',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
