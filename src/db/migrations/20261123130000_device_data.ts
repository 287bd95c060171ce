import { PostgresAdapter, sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * Device status events and sensor readings.
 *
 * Sensor readings are the heaviest write path, so the table carries only what its
 * lists and its deduplication need:
 * - primary key (workspace_id, device_id, recorded_at, id): the device filter, newest
 *   first, and the deduplication. The workspace leads so that a device query
 *   (workspace_id = ? and device_id = ?) matches two columns of this key and one of
 *   any other index: both planners pick it, even in a one-workspace database where
 *   the workspace alone selects everything. A reading sent with an external_id gets
 *   an id derived from (device, external_id, recorded_at), so a repeat conflicts on
 *   the key itself and `ON CONFLICT DO NOTHING` skips it; no separate unique index.
 *   On SQLite the table is stored in this key's order (WITHOUT ROWID): a device's
 *   page is one range read, and a batch from one device is written in one place.
 * - (workspace_id, recorded_at, id), (workspace_id, room_id, recorded_at, id) and
 *   (workspace_id, type, recorded_at, id): the other filters, each newest first.
 * - no foreign keys: the service checks the device and the room in the workspace
 *   before it writes (neither is ever deleted), where a foreign key would add a
 *   parent lookup, and on PostgreSQL a lock on the device row, for every reading.
 * - not partitioned by time on PostgreSQL: every list is an index range newest
 *   first, which a partitioned table would split into one range per partition, and
 *   nothing expires readings (dropping old partitions is what partitioning buys).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('device_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id'))
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // One event per device and external id: a repeat finds the stored one.
  await db.schema
    .createIndex('device_events_external_id')
    .on('device_events')
    .columns(['device_id', 'external_id'])
    .unique()
    .where(sql.ref('external_id'), 'is not', null)
    .execute();

  const readings = db.schema
    .createTable('sensor_readings')
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('recorded_at', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('room_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('value', 'double precision', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('external_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sensor_readings_pk', [
      'workspace_id',
      'device_id',
      'recorded_at',
      'id',
    ]);
  await (postgres ? readings : readings.modifyEnd(sql`without rowid`)).execute();
  await db.schema
    .createIndex('sensor_readings_workspace_recorded')
    .on('sensor_readings')
    .columns(['workspace_id', 'recorded_at', 'id'])
    .execute();
  await db.schema
    .createIndex('sensor_readings_room_recorded')
    .on('sensor_readings')
    .columns(['workspace_id', 'room_id', 'recorded_at', 'id'])
    .where(sql.ref('room_id'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('sensor_readings_workspace_type_recorded')
    .on('sensor_readings')
    .columns(['workspace_id', 'type', 'recorded_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sensor_readings').execute();
  await db.schema.dropTable('device_events').execute();
}
