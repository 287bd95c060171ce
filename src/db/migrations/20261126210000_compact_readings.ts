import { PostgresAdapter, sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * Sensor readings on PostgreSQL: native `uuid` and `timestamptz` columns instead
 * of text, and the table partitioned by month of `recorded_at`, so that removing a
 * month of old readings is dropping a table (retention), not deleting rows one by one.
 *
 * - Text ids took 37 bytes each and text times 25, in the row and again in each of
 *   the four indexes; as uuid (16) and timestamptz (8) a reading with its indexes
 *   takes less than half the space (bench/README.md has the figures).
 * - Columns are declared widest alignment first (8-byte times and value, then the
 *   uuids, then text), so the row carries no padding between them.
 * - One partition per calendar month (UTC) of `recorded_at`, named
 *   `sensor_readings_pYYYYMM`, and a default partition for readings outside every
 *   month made so far (a device clock years off). Lists stay one index range per
 *   partition they reach: a device's last hours are one or two partitions.
 * - Readings times outside 0001-01-01 … 9999-12-31 UTC, which a text column took
 *   and timestamptz cannot, were refused from this release on; such a stored row
 *   (only a wrong clock could make one) is kept at the nearest end of that range.
 *
 * SQLite keeps its table: it has no such types, and its text keys are what it
 * compares fastest. The API behaves the same on both (ids match in any case,
 * times come back as ISO 8601 UTC with milliseconds).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;

  await sql`alter table sensor_readings rename to sensor_readings_text`.execute(db);
  await sql`alter table sensor_readings_text drop constraint sensor_readings_pk`.execute(db);
  for (const index of [
    'sensor_readings_workspace_recorded',
    'sensor_readings_room_recorded',
    'sensor_readings_workspace_type_recorded',
  ]) {
    await sql`drop index ${sql.ref(index)}`.execute(db);
  }

  await sql`
    create table sensor_readings (
      recorded_at timestamptz not null,
      created_at timestamptz not null,
      value double precision not null,
      workspace_id uuid not null,
      device_id uuid not null,
      id uuid not null,
      room_id uuid,
      type text not null,
      unit text not null,
      external_id text,
      notes text
    ) partition by range (recorded_at)`.execute(db);
  await sql`create table sensor_readings_default partition of sensor_readings default`.execute(db);

  // A partition for every month that holds readings (within 20 years of now; any
  // other stays in the default partition), and for last month to three ahead.
  const { rows } = await sql<{ month: string }>`
    select distinct substr(recorded_at, 1, 7) as month from sensor_readings_text
    where recorded_at >= ${yearsFromNow(-20)} and recorded_at < ${yearsFromNow(20)}`.execute(db);
  const months = new Set(rows.map((row) => row.month));
  const now = new Date();
  for (let offset = -1; offset <= 3; offset++) {
    months.add(
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1))
        .toISOString()
        .slice(0, 7),
    );
  }
  for (const month of [...months].sort()) {
    const [year, mm] = month.split('-').map(Number) as [number, number];
    const from = new Date(Date.UTC(year, mm - 1, 1)).toISOString();
    const to = new Date(Date.UTC(year, mm, 1)).toISOString();
    await sql`create table ${sql.ref(`sensor_readings_p${month.replace('-', '')}`)}
      partition of sensor_readings for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(
      db,
    );
  }

  await sql`
    insert into sensor_readings (recorded_at, created_at, value, workspace_id, device_id, id,
                                 room_id, type, unit, external_id, notes)
    select ${clamped(sql.ref('recorded_at'))}::timestamptz, ${clamped(sql.ref('created_at'))}::timestamptz,
           value, workspace_id::uuid, device_id::uuid, id::uuid, room_id::uuid, type, unit,
           external_id, notes
    from sensor_readings_text`.execute(db);
  await sql`drop table sensor_readings_text`.execute(db);

  // Keys and indexes built once over the loaded rows: faster than kept up row by row.
  await sql`alter table sensor_readings add constraint sensor_readings_pk
    primary key (workspace_id, device_id, recorded_at, id)`.execute(db);
  await sql`create index sensor_readings_workspace_recorded
    on sensor_readings (workspace_id, recorded_at, id)`.execute(db);
  await sql`create index sensor_readings_room_recorded
    on sensor_readings (workspace_id, room_id, recorded_at, id) where room_id is not null`.execute(
    db,
  );
  await sql`create index sensor_readings_workspace_type_recorded
    on sensor_readings (workspace_id, type, recorded_at, id)`.execute(db);
  await sql`analyze sensor_readings`.execute(db);
}

const yearsFromNow = (years: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear() + years, 0, 1)).toISOString();
};

/**
 * A stored text time within what timestamptz holds: before year 1 (`0000-…`, or
 * `-0000…` as JavaScript writes earlier years) the first instant of year 1, past
 * year 9999 (`+01…`) its last.
 */
function clamped(column: ReturnType<typeof sql.ref>) {
  return sql`case when ${column} like '+%' then '9999-12-31T23:59:59.999Z'
    when ${column} < '0001-01-01T00:00:00.000Z' then '0001-01-01T00:00:00.000Z'
    else ${column} end`;
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table sensor_readings rename to sensor_readings_native`.execute(db);
  await sql`alter table sensor_readings_native drop constraint sensor_readings_pk`.execute(db);
  for (const index of [
    'sensor_readings_workspace_recorded',
    'sensor_readings_room_recorded',
    'sensor_readings_workspace_type_recorded',
  ]) {
    await sql`drop index ${sql.ref(index)}`.execute(db);
  }
  await sql`
    create table sensor_readings (
      device_id text not null, recorded_at text not null, id text not null,
      workspace_id text not null, room_id text, type text not null,
      value double precision not null, unit text not null, notes text, external_id text,
      created_at text not null,
      constraint sensor_readings_pk primary key (workspace_id, device_id, recorded_at, id))`.execute(
    db,
  );
  await sql`
    insert into sensor_readings
    select device_id::text,
           to_char(recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), id::text,
           workspace_id::text, room_id::text, type, value, unit, notes, external_id,
           to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    from sensor_readings_native`.execute(db);
  await sql`drop table sensor_readings_native`.execute(db);
  await sql`create index sensor_readings_workspace_recorded
    on sensor_readings (workspace_id, recorded_at, id)`.execute(db);
  await sql`create index sensor_readings_room_recorded
    on sensor_readings (workspace_id, room_id, recorded_at, id) where room_id is not null`.execute(
    db,
  );
  await sql`create index sensor_readings_workspace_type_recorded
    on sensor_readings (workspace_id, type, recorded_at, id)`.execute(db);
}
