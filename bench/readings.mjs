// Sensor readings in the bench: the seeded devices and readings, the ingest bodies, and the
// baseline's SQL and rows for POST and GET /api/v1/sensor-readings.
import { hash, randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { openDatabase } from '../dist/db/database.js';
import { pgColumn } from '../dist/db/pg-arrays.js';
import { inTransaction } from '../dist/db/transaction.js';
import {
  ensureMonthPartition,
  monthPartition,
} from '../dist/modules/readings/partitions.repository.js';
import { rollupRowsOf } from '../dist/modules/readings/rollups.js';

export const DEVICES = 100;
export const READING_INTERVAL_MS = 10_000;
export const INGEST_BATCH = 500;
export const LIST_LIMIT = 1000;
/** The list case asks for a device's readings of the last 6 hours: 2,160 of them, 1,000 a page. */
export const LIST_WINDOW_MS = 6 * 3600_000;
export const LATEST = '9999-12-31T23:59:59.999Z';
const TYPES = ['temperature', 'humidity', 'ph', 'co2', 'light', 'other'];
const UNITS = ['C', '%', 'pH', 'ppm', 'lx', 'u'];
const ROOMS = 10;

/** Columns of sensor_readings in the order Vitro's repository writes and selects them. */
export const READING_COLUMNS = [
  'device_id',
  'recorded_at',
  'id',
  'workspace_id',
  'room_id',
  'type',
  'value',
  'unit',
  'notes',
  'external_id',
  'created_at',
];
const COLUMN_LIST = READING_COLUMNS.map((c) => `"${c}"`).join(', ');

/** The text Vitro's readings insert compiles to, for `count` rows (`?` placeholders). */
export function insertReadingsSql(count, placeholder = () => '?') {
  let n = 0;
  const tuple = () => `(${READING_COLUMNS.map(() => placeholder(++n)).join(', ')})`;
  return (
    `insert into "sensor_readings" (${COLUMN_LIST}) values ` +
    `${Array.from({ length: count }, tuple).join(', ')} on conflict do nothing returning "id"`
  );
}

/** PostgreSQL column types of the readings (uuid and timestamptz; text on SQLite). */
const ARRAY_TYPES = {
  device_id: 'uuid[]',
  recorded_at: 'timestamptz[]',
  id: 'uuid[]',
  workspace_id: 'uuid[]',
  room_id: 'uuid[]',
  value: 'float8[]',
  created_at: 'timestamptz[]',
};

/** The columns that differ from reading to reading: one array each on PostgreSQL. */
const PG_ARRAY_COLUMNS = READING_COLUMNS.filter((c) => c !== 'workspace_id' && c !== 'created_at');

/**
 * Vitro's readings insert on PostgreSQL (readings.repository.ts): the workspace and the
 * time of storing once, one array per other column, unnested into rows.
 */
export const PG_INSERT_READINGS =
  `insert into "sensor_readings" (${COLUMN_LIST}) select ` +
  `${READING_COLUMNS.map((c) => (c === 'workspace_id' ? '$1::uuid' : c === 'created_at' ? '$2::timestamptz' : `r."${c}"`)).join(', ')} ` +
  `from unnest(${PG_ARRAY_COLUMNS.map((c, i) => `$${i + 3}::${ARRAY_TYPES[c] ?? 'text[]'}`).join(', ')}) ` +
  `as r(${PG_ARRAY_COLUMNS.map((c) => `"${c}"`).join(', ')}) on conflict do nothing returning "id"`;

/** The parameters of PG_INSERT_READINGS for one batch's rows, encoded as Vitro encodes them. */
export const readingColumns = (rows) => [
  rows[0].workspace_id,
  rows[0].created_at,
  ...PG_ARRAY_COLUMNS.map((c) => pgColumn(rows, c)),
];

/** The rollup rows of readings just stored: Vitro's own function (dist/modules/readings/rollups.js). */
export { rollupRowsOf };

/** Columns of sensor_rollups in the order Vitro's rollups repository writes them. */
export const ROLLUP_COLUMNS = [
  'workspace_id',
  'device_id',
  'span_minutes',
  'minute',
  'type',
  'unit',
  'room_key',
  'reading_count',
  'min_value',
  'max_value',
  'value_sum',
  'last_at',
  'last_id',
  'last_value',
];
const ROLLUP_KEY = 'workspace_id, device_id, span_minutes, minute, type, unit, room_key';
const LATER =
  '(excluded.last_at, excluded.last_id) > (sensor_rollups.last_at, sensor_rollups.last_id)';
const ROLLUP_LAST = ['last_value', 'last_id', 'last_at']
  .map((c) => `${c} = case when ${LATER} then excluded.${c} else sensor_rollups.${c} end`)
  .join(', ');
const ROLLUP_ARRAY_TYPES = {
  workspace_id: 'uuid[]',
  device_id: 'uuid[]',
  span_minutes: 'int2[]',
  minute: 'int8[]',
  type: 'text[]',
  unit: 'text[]',
  room_key: 'uuid[]',
  reading_count: 'int8[]',
  min_value: 'float8[]',
  max_value: 'float8[]',
  value_sum: 'numeric[]',
  last_at: 'int8[]',
  last_id: 'uuid[]',
  last_value: 'float8[]',
};

/** Vitro's rollup upsert on PostgreSQL (rollups.repository.ts). */
export const PG_UPSERT_ROLLUPS =
  `insert into sensor_rollups (${ROLLUP_COLUMNS.join(', ')}) ` +
  `select * from unnest(${ROLLUP_COLUMNS.map((c, i) => `$${i + 1}::${ROLLUP_ARRAY_TYPES[c]}`).join(', ')}) ` +
  `on conflict (${ROLLUP_KEY}) do update set ` +
  'reading_count = sensor_rollups.reading_count + excluded.reading_count, ' +
  'min_value = least(sensor_rollups.min_value, excluded.min_value), ' +
  'max_value = greatest(sensor_rollups.max_value, excluded.max_value), ' +
  `value_sum = sensor_rollups.value_sum + excluded.value_sum, ${ROLLUP_LAST}`;

/** The same on SQLite, for `count` rows (the sum added by Vitro's vitro_decimal_add). */
export function sqliteUpsertRollupsSql(count) {
  const tuple = `(${ROLLUP_COLUMNS.map(() => '?').join(', ')})`;
  return (
    `insert into sensor_rollups (${ROLLUP_COLUMNS.join(', ')}) values ` +
    `${Array.from({ length: count }, () => tuple).join(', ')} ` +
    `on conflict (${ROLLUP_KEY}) do update set ` +
    'reading_count = sensor_rollups.reading_count + excluded.reading_count, ' +
    'min_value = min(sensor_rollups.min_value, excluded.min_value), ' +
    'max_value = max(sensor_rollups.max_value, excluded.max_value), ' +
    `value_sum = vitro_decimal_add(sensor_rollups.value_sum, excluded.value_sum), ${ROLLUP_LAST}`
  );
}

export const rollupColumns = (rows) => ROLLUP_COLUMNS.map((c) => pgColumn(rows, c));
export const rollupValues = (rows) => rows.flatMap((row) => ROLLUP_COLUMNS.map((c) => row[c]));

export const READINGS_SQL = {
  devicesIn: (count) =>
    'select "id", "status", "room_id" from "devices" where "workspace_id" = ? and "id" in ' +
    `(${Array.from({ length: count }, () => '?').join(', ')})`,
  stampLastSeen:
    'update "devices" set "last_seen_at" = ? where "workspace_id" = ? and "id" = ? and ' +
    '("last_seen_at" is null or "last_seen_at" < ?)',
  // Where the workspace's raw readings start (retention), asked by every list.
  rawSince: 'select "raw_since" from "sensor_retention" where "workspace_id" = ?',
  // Vitro's device list: both bounds always (the widest when not asked), limit and offset.
  listByDevice:
    `select ${COLUMN_LIST} from "sensor_readings" where "workspace_id" = ? and "device_id" = ? ` +
    'and "recorded_at" >= ? and "recorded_at" <= ? order by "recorded_at" desc, "id" desc ' +
    'limit ? offset ?',
};

/** Vitro's id of a reading sent with an external id (readingIdOf in readings.service.ts). */
export function readingIdOf(deviceId, externalId, recordedAt) {
  const hex = hash('sha256', `${deviceId}\n${recordedAt}\n${externalId}`, 'hex');
  const variant = '89ab'[Number.parseInt(hex[16], 16) & 0x3];
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The rows a batch stores, as Vitro's ingest builds them (device room when none is sent). */
export function readingRows(inputs, devices, workspaceId, now) {
  const rows = [];
  const seen = new Set();
  for (const r of inputs) {
    const recordedAt = r.recorded_at === undefined ? now : new Date(r.recorded_at).toISOString();
    const externalId = r.external_id ?? null;
    const id = externalId === null ? uuidv7() : readingIdOf(r.device_id, externalId, recordedAt);
    if (seen.has(id)) continue;
    seen.add(id);
    rows.push({
      device_id: r.device_id,
      recorded_at: recordedAt,
      id,
      workspace_id: workspaceId,
      room_id: r.room_id ?? devices.get(r.device_id).room_id,
      type: r.type,
      value: r.value,
      unit: r.unit,
      notes: r.notes ?? null,
      external_id: externalId,
      created_at: now,
    });
  }
  return rows;
}

export const readingValues = (rows) => rows.flatMap((row) => READING_COLUMNS.map((c) => row[c]));

export function presentReading(row) {
  return {
    id: row.id,
    device_id: row.device_id,
    team_id: row.workspace_id,
    room_id: row.room_id,
    type: row.type,
    value: row.value,
    unit: row.unit,
    recorded_at: row.recorded_at,
    notes: row.notes,
    created_at: row.created_at,
    external_id: row.external_id,
  };
}

/** Where the ingest bodies' timeline has got to: the next factory starts after it. */
let timelineEndMs = 0;

/**
 * A new body of 500 readings on every call: one device per batch (the devices in turn), one
 * reading a millisecond from a whole second that moves on by a second per batch, fresh
 * external ids. Built from pieces made once: the load generator must not be the bottleneck.
 */
export function ingestBodies(deviceIds) {
  const prefix = randomBytes(6).toString('base64url');
  // Every factory of a bench run continues one timeline, as a fleet of sensors does: a
  // new run starting again at the present would write into the minutes the previous
  // runs already filled (a batch moves on a second, much faster than the clock), which
  // no real device does, and which splits pages all over the readings indexes.
  const startMs = Math.max(Math.ceil(Date.now() / 1000) * 1000, timelineEndMs);
  const millis = Array.from({ length: INGEST_BATCH }, (_, i) => String(i).padStart(3, '0'));
  const values = Array.from({ length: INGEST_BATCH }, (_, i) => (20 + (i % 50) / 10).toFixed(1));
  let batch = 0;
  return () => {
    const n = batch++;
    timelineEndMs = Math.max(timelineEndMs, startMs + (n + 1) * 1000);
    const head = `{"device_id":"${deviceIds[n % deviceIds.length]}","type":"temperature","value":`;
    const second = new Date(startMs + n * 1000).toISOString().slice(0, 20);
    const tail = `","external_id":"${prefix}-${n}-`;
    let body = '{"readings":[';
    for (let i = 0; i < INGEST_BATCH; i++) {
      body += `${i === 0 ? '' : ','}${head}${values[i]},"unit":"C","recorded_at":"${second}${millis[i]}Z${tail}${i}"}`;
    }
    return `${body}]}`;
  };
}

/** The devices (and their rooms) of the bench workspace, as Vitro's registration writes them. */
function deviceRows(workspaceId, memberId, nowMs) {
  const at = new Date(nowMs).toISOString();
  const rooms = Array.from({ length: ROOMS }, (_, i) => ({
    id: uuidv7(),
    workspace_id: workspaceId,
    name: `Growth room ${i + 1}`,
    created_at: at,
  }));
  const devices = Array.from({ length: DEVICES }, (_, i) => ({
    id: uuidv7(),
    workspace_id: workspaceId,
    name: `Sensor ${i + 1}`,
    type: 'sensor',
    hardware: null,
    status: 'active',
    firmware_version: null,
    room_id: rooms[i % ROOMS].id,
    last_seen_at: null,
    metadata: '{}',
    created_by: memberId,
    created_at: at,
    updated_at: at,
  }));
  return { rooms, devices };
}

const insertSql = (table, row, placeholder) => {
  const keys = Object.keys(row);
  return `insert into "${table}" (${keys.map((k) => `"${k}"`).join(', ')}) values (${keys.map((_, i) => placeholder(i + 1)).join(', ')})`;
};

/**
 * Bulk load, as one would restore a dump: the readings in primary-key order (device, time)
 * without the secondary indexes, which are then built again from their own definitions; the
 * rollups computed by Vitro's own function, an hour of a device at a time.
 */
function seedSqlite(path, rooms, devices, count, endMs) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  const indexes = db
    .prepare(
      "select name, sql from sqlite_master where type = 'index' and tbl_name = 'sensor_readings' and sql is not null",
    )
    .all();
  const perDevice = Math.ceil(count / devices.length);
  db.transaction(() => {
    for (const room of rooms)
      db.prepare(insertSql('rooms', room, () => '?')).run(Object.values(room));
    for (const d of devices) db.prepare(insertSql('devices', d, () => '?')).run(Object.values(d));
    for (const index of indexes) db.exec(`drop index "${index.name}"`);
    const insert = db.prepare(
      insertReadingsSql(1).replace(' on conflict do nothing returning "id"', ''),
    );
    const insertRollup = db.prepare(
      `insert into sensor_rollups (${ROLLUP_COLUMNS.join(', ')}) values (${ROLLUP_COLUMNS.map(() => '?').join(', ')})`,
    );
    let left = count;
    for (let d = 0; d < devices.length && left > 0; d++) {
      const device = devices[d];
      const n = Math.min(perDevice, left);
      left -= n;
      const firstMs = endMs - (n - 1) * READING_INTERVAL_MS;
      let hour = [];
      const flush = () => {
        for (const row of rollupRowsOf(hour)) insertRollup.run(ROLLUP_COLUMNS.map((c) => row[c]));
        hour = [];
      };
      for (let t = 0; t < n; t++) {
        const ms = firstMs + t * READING_INTERVAL_MS;
        if (hour.length > 0 && ms % 3_600_000 < READING_INTERVAL_MS) flush();
        const at = new Date(ms).toISOString();
        const row = {
          device_id: device.id,
          recorded_at: at,
          id: uuidv7({ msecs: ms }),
          workspace_id: device.workspace_id,
          room_id: device.room_id,
          type: TYPES[d % TYPES.length],
          value: Math.round(Math.random() * 1000) / 10,
          unit: UNITS[d % UNITS.length],
          notes: null,
          external_id: null,
          created_at: at,
        };
        insert.run(READING_COLUMNS.map((c) => row[c]));
        hour.push(row);
      }
      flush();
    }
    for (const index of indexes) db.exec(index.sql);
  })();
  db.exec('analyze');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/** The months (partitions on PostgreSQL) of [fromMs, toMs]. */
function monthsOf(fromMs, toMs) {
  const months = [];
  const from = new Date(fromMs);
  for (let i = 0; ; i++) {
    const month = monthPartition(from.getUTCFullYear(), from.getUTCMonth() + i);
    if (Date.parse(month.from) > toMs) return months;
    months.push(month);
  }
}

/**
 * The same on PostgreSQL, generated by the server into the months' partitions (made first,
 * as Vitro's upkeep makes them); key and indexes rebuilt afterwards; rollups from the rows,
 * as the readings migration computes them.
 */
async function seedPostgres(url, rooms, devices, count, endMs) {
  const perDevice = Math.ceil(count / devices.length);
  const database = openDatabase({ dialect: 'postgres', url });
  try {
    for (const month of monthsOf(endMs - perDevice * READING_INTERVAL_MS, endMs)) {
      await inTransaction(database.db, (trx) => ensureMonthPartition(trx, month));
    }
  } finally {
    await database.close();
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const dollar = (n) => `$${n}`;
    await client.query('begin');
    await client.query('set local extra_float_digits = 1');
    for (const room of rooms)
      await client.query(insertSql('rooms', room, dollar), Object.values(room));
    for (const d of devices) await client.query(insertSql('devices', d, dollar), Object.values(d));
    const { rows: indexes } = await client.query(
      "select indexname, indexdef from pg_indexes where tablename = 'sensor_readings' and indexname <> 'sensor_readings_pk'",
    );
    const { rows: keys } = await client.query(
      "select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'sensor_readings_pk'",
    );
    for (const index of indexes) await client.query(`drop index "${index.indexname}"`);
    await client.query('alter table sensor_readings drop constraint sensor_readings_pk');
    let left = count;
    for (let d = 0; d < devices.length && left > 0; d++) {
      const device = devices[d];
      const n = Math.min(perDevice, left);
      left -= n;
      const firstMs = endMs - (n - 1) * READING_INTERVAL_MS;
      await client.query(
        `insert into sensor_readings (${COLUMN_LIST})
         select $1::uuid, at, md5($1 || t::text)::uuid, $2::uuid, $3::uuid, $4,
                round((random() * 1000)::numeric, 1)::float8, $5, null, null, at
         from (select t, timestamptz 'epoch' + ($6::bigint + t * $7::bigint) * interval '1 millisecond' as at
               from generate_series(0, $8::int - 1) as t) as g`,
        [
          device.id,
          device.workspace_id,
          device.room_id,
          TYPES[d % TYPES.length],
          UNITS[d % UNITS.length],
          firstMs,
          READING_INTERVAL_MS,
          n,
        ],
      );
    }
    await client.query(
      `alter table sensor_readings add constraint sensor_readings_pk ${keys[0].def}`,
    );
    for (const index of indexes) await client.query(index.indexdef);
    const workspaceId = devices[0].workspace_id;
    await client.query(
      `insert into sensor_rollups (${ROLLUP_COLUMNS.join(', ')})
       select workspace_id, device_id, 1, minute, type, unit, room_key, count(*), min(value), max(value),
         sum(value::text::numeric),
         (array_agg(round(extract(epoch from recorded_at) * 1000)::int8 order by recorded_at desc, id desc))[1],
         (array_agg(id order by recorded_at desc, id desc))[1],
         (array_agg(value order by recorded_at desc, id desc))[1]
       from (select workspace_id, device_id, floor(extract(epoch from recorded_at) / 60)::int8 as minute,
                    type, unit, coalesce(room_id, '00000000-0000-0000-0000-000000000000'::uuid) as room_key,
                    value, recorded_at, id
             from sensor_readings where workspace_id = $1) as r
       group by workspace_id, device_id, minute, type, unit, room_key`,
      [workspaceId],
    );
    await client.query(
      `insert into sensor_rollups (${ROLLUP_COLUMNS.join(', ')})
       select workspace_id, device_id, 60, minute - ((minute % 60) + 60) % 60 as hour, type, unit,
         room_key, sum(reading_count), min(min_value), max(max_value), sum(value_sum), max(last_at),
         (array_agg(last_id order by last_at desc, last_id desc))[1],
         (array_agg(last_value order by last_at desc, last_id desc))[1]
       from sensor_rollups where workspace_id = $1 and span_minutes = 1
       group by workspace_id, device_id, hour, type, unit, room_key`,
      [workspaceId],
    );
    await client.query(
      `insert into sensor_rollups (${ROLLUP_COLUMNS.join(', ')})
       select workspace_id, device_id, 5, minute - ((minute % 5) + 5) % 5 as start, type, unit,
         room_key, sum(reading_count), min(min_value), max(max_value), sum(value_sum), max(last_at),
         (array_agg(last_id order by last_at desc, last_id desc))[1],
         (array_agg(last_value order by last_at desc, last_id desc))[1]
       from sensor_rollups where workspace_id = $1 and span_minutes = 1
       group by workspace_id, device_id, start, type, unit, room_key`,
      [workspaceId],
    );
    await client.query('commit');
    await client.query('vacuum analyze sensor_readings');
    await client.query('vacuum analyze sensor_rollups');
    await client.query('analyze devices');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** The charts the summary cases draw: 30 days in hours and 24 hours in 5 minutes, to an unaligned now. */
export const SUMMARY_CHARTS = {
  month: { bucket: '1h', spanMs: 30 * 86_400_000 },
  day: { bucket: '5m', spanMs: 86_400_000 },
};

/**
 * Seeds the devices and `count` readings, one per device every 10 s, the newest a minute
 * before the first of last month (UTC): old enough that a retention of 30 days removes all
 * of them (the retention step), while the ingest cases write into the present.
 */
export async function seedReadings(target, { workspaceId, memberId }, count) {
  const nowMs = Date.now();
  const { rooms, devices } = deviceRows(workspaceId, memberId, nowMs);
  const now = new Date(nowMs);
  const endMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1) - 60_000;
  if (target.dialect === 'sqlite') seedSqlite(target.path, rooms, devices, count, endMs);
  else await seedPostgres(target.url, rooms, devices, count, endMs);
  // A chart's "now": the seeded data's end, 30.5 s on (not on a minute).
  const chartUntil = endMs + 30_500;
  return {
    deviceIds: devices.map((d) => d.id),
    roomIds: rooms.map((r) => r.id),
    listDeviceId: devices[Math.floor(devices.length / 2)].id,
    listSince: new Date(endMs - LIST_WINDOW_MS).toISOString(),
    count,
    endMs,
    charts: Object.fromEntries(
      Object.entries(SUMMARY_CHARTS).map(([name, chart]) => [
        name,
        {
          bucket: chart.bucket,
          since: new Date(chartUntil - chart.spanMs).toISOString(),
          until: new Date(chartUntil).toISOString(),
        },
      ]),
    ),
  };
}
