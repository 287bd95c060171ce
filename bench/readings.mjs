// Sensor readings in the bench: the seeded devices and readings, the ingest bodies, and the
// baseline's SQL and rows for POST and GET /api/v1/sensor-readings.
import { createHash, randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';

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

const ARRAY_TYPES = { value: 'float8[]' };

/** Vitro's readings insert on PostgreSQL: one array per column, unnested into rows. */
export const PG_INSERT_READINGS =
  `insert into "sensor_readings" (${COLUMN_LIST}) select * from unnest(` +
  `${READING_COLUMNS.map((c, i) => `$${i + 1}::${ARRAY_TYPES[c] ?? 'text[]'}`).join(', ')}) ` +
  'on conflict do nothing returning "id"';

export const readingColumns = (rows) => READING_COLUMNS.map((c) => rows.map((row) => row[c]));

export const READINGS_SQL = {
  devicesIn: (count) =>
    'select "id", "status", "room_id" from "devices" where "workspace_id" = ? and "id" in ' +
    `(${Array.from({ length: count }, () => '?').join(', ')})`,
  stampLastSeen:
    'update "devices" set "last_seen_at" = ? where "workspace_id" = ? and "id" = ? and ' +
    '("last_seen_at" is null or "last_seen_at" < ?)',
  // Vitro's device list: both bounds always (the widest when not asked), limit and offset.
  listByDevice:
    `select ${COLUMN_LIST} from "sensor_readings" where "workspace_id" = ? and "device_id" = ? ` +
    'and "recorded_at" >= ? and "recorded_at" <= ? order by "recorded_at" desc, "id" desc ' +
    'limit ? offset ?',
};

/** Vitro's id of a reading sent with an external id (readingIdOf in readings.service.ts). */
export function readingIdOf(deviceId, externalId, recordedAt) {
  const bytes = createHash('sha256')
    .update(`${deviceId}\n${recordedAt}\n${externalId}`)
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x80;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
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
 * without the secondary indexes, which are then built again from their own definitions.
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
    let left = count;
    for (let d = 0; d < devices.length && left > 0; d++) {
      const device = devices[d];
      const n = Math.min(perDevice, left);
      left -= n;
      const firstMs = endMs - (n - 1) * READING_INTERVAL_MS;
      for (let t = 0; t < n; t++) {
        const at = new Date(firstMs + t * READING_INTERVAL_MS).toISOString();
        insert.run(
          device.id,
          at,
          uuidv7({ msecs: firstMs + t * READING_INTERVAL_MS }),
          device.workspace_id,
          device.room_id,
          TYPES[d % TYPES.length],
          Math.round(Math.random() * 1000) / 10,
          UNITS[d % UNITS.length],
          null,
          null,
          at,
        );
      }
    }
    for (const index of indexes) db.exec(index.sql);
  })();
  db.exec('analyze');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/** The same on PostgreSQL, generated by the server; indexes and key rebuilt afterwards. */
async function seedPostgres(url, rooms, devices, count, endMs) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const dollar = (n) => `$${n}`;
    await client.query('begin');
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
    const perDevice = Math.ceil(count / devices.length);
    let left = count;
    for (let d = 0; d < devices.length && left > 0; d++) {
      const device = devices[d];
      const n = Math.min(perDevice, left);
      left -= n;
      const firstMs = endMs - (n - 1) * READING_INTERVAL_MS;
      await client.query(
        `insert into sensor_readings (${COLUMN_LIST})
         select $1, at, md5($1 || t::text)::uuid::text, $2, $3, $4, round((random() * 1000)::numeric, 1)::float8, $5, null, null, at
         from (select t, to_char(to_timestamp(($6::bigint + t * $7::bigint) / 1000.0) at time zone 'UTC',
                                 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at
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
    await client.query('commit');
    await client.query('vacuum analyze sensor_readings');
    await client.query('analyze devices');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** Seeds the devices and `count` readings (one per device every 10 s, the last a minute ago). */
export async function seedReadings(target, { workspaceId, memberId }, count) {
  const nowMs = Date.now();
  const { rooms, devices } = deviceRows(workspaceId, memberId, nowMs);
  const endMs = nowMs - 60_000;
  if (target.dialect === 'sqlite') seedSqlite(target.path, rooms, devices, count, endMs);
  else await seedPostgres(target.url, rooms, devices, count, endMs);
  return {
    deviceIds: devices.map((d) => d.id),
    roomIds: rooms.map((r) => r.id),
    listDeviceId: devices[Math.floor(devices.length / 2)].id,
    listSince: new Date(endMs - LIST_WINDOW_MS).toISOString(),
  };
}
