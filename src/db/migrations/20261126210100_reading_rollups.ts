import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { ExactSum, addDecimalTexts } from '../../lib/exact-sum.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * Readings rollups, retention settings and maintenance leases.
 *
 * - `sensor_rollups`: per workspace, device, span (1 = a minute, 60 = an hour),
 *   start (epoch minutes), type, unit and room (`room_key`, the nil UUID for none):
 *   count, min, max, the exact sum of the values (decimal: `numeric` on PostgreSQL,
 *   text on SQLite; see lib/exact-sum.ts) and the last reading (greatest
 *   recorded_at as epoch ms, then greatest id). Keyed for a device's summary (on
 *   SQLite stored in that order, WITHOUT ROWID), indexed for a room's.
 * - `sensor_retention`: a workspace's own retention (null = the default) and where
 *   its raw readings now start.
 * - `maintenance_leases`: which process runs a periodic job (retention) right now.
 *
 * Readings stored before this migration get their rollups here, computed as the
 * ingest computes them: PostgreSQL sums the values' shortest decimals (its float8
 * text with extra_float_digits ≥ 1, the digits JavaScript's String() gives) as
 * `numeric`; SQLite reads them in key order and sums in JavaScript.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = postgres ? 'uuid' : 'text';
  const rollups = db.schema
    .createTable('sensor_rollups')
    // 8-byte columns first: no padding between columns on PostgreSQL.
    .addColumn('minute', 'bigint', (c) => c.notNull())
    .addColumn('reading_count', 'bigint', (c) => c.notNull())
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .addColumn('min_value', 'double precision', (c) => c.notNull())
    .addColumn('max_value', 'double precision', (c) => c.notNull())
    .addColumn('last_value', 'double precision', (c) => c.notNull())
    .addColumn('workspace_id', sql.raw(id), (c) => c.notNull())
    .addColumn('device_id', sql.raw(id), (c) => c.notNull())
    .addColumn('room_key', sql.raw(id), (c) => c.notNull())
    .addColumn('last_id', sql.raw(id), (c) => c.notNull())
    .addColumn('span_minutes', postgres ? 'smallint' : 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('unit', 'text', (c) => c.notNull())
    .addColumn('value_sum', postgres ? 'numeric' : 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sensor_rollups_pk', [
      'workspace_id',
      'device_id',
      'span_minutes',
      'minute',
      'type',
      'unit',
      'room_key',
    ]);
  await (postgres ? rollups : rollups.modifyEnd(sql`without rowid`)).execute();
  await db.schema
    .createIndex('sensor_rollups_room')
    .on('sensor_rollups')
    .columns(['workspace_id', 'room_key', 'span_minutes', 'minute'])
    .where(sql.ref('room_key'), '<>', sql.lit(NO_ROOM))
    .execute();

  await db.schema
    .createTable('sensor_retention')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id'))
    .addColumn('retention_days', 'integer')
    .addColumn('raw_since', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('maintenance_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  if (postgres) await backfillPostgres(db);
  else await backfillSqlite(db);
}

const NO_ROOM = '00000000-0000-0000-0000-000000000000';

async function backfillPostgres(db: Kysely<any>): Promise<void> {
  // Shortest round-trip digits for float8 text (PostgreSQL 12 and later).
  await sql`set local extra_float_digits = 1`.execute(db);
  await sql`
    insert into sensor_rollups (workspace_id, device_id, span_minutes, minute, type, unit, room_key,
      reading_count, min_value, max_value, value_sum, last_at, last_id, last_value)
    select workspace_id, device_id, 1, minute, type, unit, room_key, count(*), min(value), max(value),
      sum(value::text::numeric),
      (array_agg(round(extract(epoch from recorded_at) * 1000)::int8 order by recorded_at desc, id desc))[1],
      (array_agg(id order by recorded_at desc, id desc))[1],
      (array_agg(value order by recorded_at desc, id desc))[1]
    from (select workspace_id, device_id, floor(extract(epoch from recorded_at) / 60)::int8 as minute,
                 type, unit, coalesce(room_id, ${NO_ROOM}::uuid) as room_key, value, recorded_at, id
          from sensor_readings) as r
    group by workspace_id, device_id, minute, type, unit, room_key`.execute(db);
  await sql`
    insert into sensor_rollups (workspace_id, device_id, span_minutes, minute, type, unit, room_key,
      reading_count, min_value, max_value, value_sum, last_at, last_id, last_value)
    select workspace_id, device_id, 60, minute - ((minute % 60) + 60) % 60 as hour, type, unit,
      room_key, sum(reading_count), min(min_value), max(max_value), sum(value_sum),
      max(last_at),
      (array_agg(last_id order by last_at desc, last_id desc))[1],
      (array_agg(last_value order by last_at desc, last_id desc))[1]
    from sensor_rollups where span_minutes = 1
    group by workspace_id, device_id, hour, type, unit, room_key`.execute(db);
  await sql`analyze sensor_rollups`.execute(db);
}

interface Reading {
  workspace_id: string;
  device_id: string;
  recorded_at: string;
  id: string;
  room_id: string | null;
  type: string;
  unit: string;
  value: number;
}

interface StoredRollup {
  reading_count: number;
  min_value: number;
  max_value: number;
  value_sum: string;
  last_at: number;
  last_id: string;
}

interface Group {
  /** The device-hour of the readings. */
  hourKey: string;
  workspace_id: string;
  device_id: string;
  span_minutes: number;
  minute: number;
  type: string;
  unit: string;
  room_key: string;
  reading_count: number;
  min_value: number;
  max_value: number;
  sum: ExactSum;
  last_at: string;
  last_id: string;
  last_value: number;
}

/** Rows of one device's hour go into the same batch (its rollups written once). */
const hourKeyOf = (row: Reading) =>
  `${row.workspace_id}|${row.device_id}|${Math.floor(Date.parse(row.recorded_at) / 3_600_000)}`;

/**
 * SQLite: the readings in key order (workspace, device, time), 50,000 at a time, a
 * batch ending where a device's hour does, so that each batch's rollups are new rows
 * written in bulk. Only a device-hour holding more readings than a batch is cut, and
 * its rollups are added to the stored ones.
 */
async function backfillSqlite(db: Kysely<any>): Promise<void> {
  const BATCH = 50_000;
  let after: unknown[] | null = null;
  /** The device-hour the last batch ended in, when the batch had to cut it. */
  let cutHour: string | null = null;
  for (;;) {
    let query = db
      .selectFrom('sensor_readings')
      .select([
        'workspace_id',
        'device_id',
        'recorded_at',
        'id',
        'room_id',
        'type',
        'unit',
        'value',
      ])
      .orderBy('workspace_id')
      .orderBy('device_id')
      .orderBy('recorded_at')
      .orderBy('id')
      .limit(BATCH);
    if (after !== null) {
      query = query.where(
        sql<boolean>`(workspace_id, device_id, recorded_at, id) > (${sql.join(after.map((v) => sql.val(v)))})`,
      );
    }
    const fetched = (await query.execute()) as Reading[];
    if (fetched.length === 0) return;
    let rows = fetched;
    let cut: string | null = null;
    if (fetched.length === BATCH) {
      const lastHour = hourKeyOf(fetched[BATCH - 1]!);
      let end = BATCH;
      while (end > 0 && hourKeyOf(fetched[end - 1]!) === lastHour) end -= 1;
      if (end > 0) rows = fetched.slice(0, end);
      else cut = lastHour;
    }
    const groups = groupsOf(rows);
    const fresh: Group[] = [];
    for (const group of groups) {
      if (cutHour !== null && group.hourKey === cutHour) await mergeGroup(db, group);
      else fresh.push(group);
    }
    for (let i = 0; i < fresh.length; i += 500) {
      await db
        .insertInto('sensor_rollups')
        .values(fresh.slice(i, i + 500).map(rowOf))
        .execute();
    }
    cutHour = cut;
    const last = rows[rows.length - 1]!;
    after = [last.workspace_id, last.device_id, last.recorded_at, last.id];
  }
}

/** The minute and hour groups of readings, with their figures. */
function groupsOf(rows: Reading[]): Group[] {
  const groups = new Map<string, Group>();
  for (const row of rows) {
    const minute = Math.floor(Date.parse(row.recorded_at) / 60_000);
    const hourKey = hourKeyOf(row);
    for (const [span, start] of [
      [1, minute],
      [60, minute - (((minute % 60) + 60) % 60)],
    ] as const) {
      const room = row.room_id ?? NO_ROOM;
      const key = `${row.workspace_id}|${row.device_id}|${span}|${start}|${row.type}|${row.unit}|${room}`;
      let group = groups.get(key);
      if (group === undefined) {
        group = {
          hourKey,
          workspace_id: row.workspace_id,
          device_id: row.device_id,
          span_minutes: span,
          minute: start,
          type: row.type,
          unit: row.unit,
          room_key: room,
          reading_count: 0,
          min_value: row.value,
          max_value: row.value,
          sum: new ExactSum(),
          last_at: row.recorded_at,
          last_id: row.id,
          last_value: row.value,
        };
        groups.set(key, group);
      }
      group.reading_count += 1;
      group.min_value = Math.min(group.min_value, row.value);
      group.max_value = Math.max(group.max_value, row.value);
      group.sum.add(row.value);
      if (
        row.recorded_at > group.last_at ||
        (row.recorded_at === group.last_at && row.id > group.last_id)
      ) {
        group.last_at = row.recorded_at;
        group.last_id = row.id;
        group.last_value = row.value;
      }
    }
  }
  return [...groups.values()];
}

const rowOf = (group: Group) => ({
  workspace_id: group.workspace_id,
  device_id: group.device_id,
  span_minutes: group.span_minutes,
  minute: group.minute,
  type: group.type,
  unit: group.unit,
  room_key: group.room_key,
  reading_count: group.reading_count,
  min_value: group.min_value,
  max_value: group.max_value,
  value_sum: group.sum.text,
  last_at: Date.parse(group.last_at),
  last_id: group.last_id,
  last_value: group.last_value,
});

/** Adds a group to its stored rollup row (a device-hour cut between batches), or inserts it. */
async function mergeGroup(db: Kysely<any>, group: Group): Promise<void> {
  const row = rowOf(group);
  const keyOf = {
    workspace_id: row.workspace_id,
    device_id: row.device_id,
    span_minutes: row.span_minutes,
    minute: row.minute,
    type: row.type,
    unit: row.unit,
    room_key: row.room_key,
  };
  const stored: StoredRollup | undefined = await db
    .selectFrom('sensor_rollups')
    .select(['reading_count', 'min_value', 'max_value', 'value_sum', 'last_at', 'last_id'])
    .where((eb) => eb.and(keyOf))
    .executeTakeFirst();
  if (stored === undefined) {
    await db.insertInto('sensor_rollups').values(row).execute();
    return;
  }
  const later =
    row.last_at > stored.last_at ||
    (row.last_at === stored.last_at && row.last_id > stored.last_id);
  await db
    .updateTable('sensor_rollups')
    .set({
      reading_count: stored.reading_count + row.reading_count,
      min_value: Math.min(stored.min_value, row.min_value),
      max_value: Math.max(stored.max_value, row.max_value),
      value_sum: addDecimalTexts(stored.value_sum, row.value_sum),
      ...(later ? { last_at: row.last_at, last_id: row.last_id, last_value: row.last_value } : {}),
    })
    .where((eb) => eb.and(keyOf))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('maintenance_leases').execute();
  await db.schema.dropTable('sensor_retention').execute();
  await db.schema.dropTable('sensor_rollups').execute();
}
