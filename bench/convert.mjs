// How long the readings migrations take on a database of the previous release holding many
// readings, and the bytes per reading before and after:
//   node bench/convert.mjs [--readings 10000000] [--databases sqlite,postgres]
// SQLite: a new file .bench/convert.db. PostgreSQL: a new database next to BENCH_DATABASE_URL's
// (named after it with _convert), created and dropped here (the URL's user must be allowed to).
import console from 'node:console';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { URL, fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { Migrator } from 'kysely';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { ensureBuilt } from './build.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BEFORE = '20261123170000_comments';
const STEPS = ['20261126210000_compact_readings', '20261126210100_reading_rollups'];
const DEVICES = 100;
const INTERVAL_MS = 10_000;

const { values } = parseArgs({
  options: {
    readings: { type: 'string', default: '10000000' },
    databases: { type: 'string' },
  },
});
const count = Number(values.readings);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? null;
const databases = (values.databases ?? (postgresUrl ? 'sqlite,postgres' : 'sqlite')).split(',');

ensureBuilt(ROOT, { build: true });
const { openDatabase } = await import('../dist/db/database.js');
const { migrations } = await import('../dist/db/migrations/index.js');
const { storageFigures } = await import('./storage.mjs');

const COLUMNS =
  'device_id, recorded_at, id, workspace_id, room_id, type, value, unit, notes, external_id, created_at';

/** The previous release's rows: text ids and times, one reading per device every 10 s. */
function seedSqlite(path, workspaceId) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // As a restore would: rows in key order without the secondary indexes, built afterwards.
  const indexes = db
    .prepare(
      "select name, sql from sqlite_master where type = 'index' and tbl_name = 'sensor_readings' and sql is not null",
    )
    .all();
  for (const index of indexes) db.exec(`drop index "${index.name}"`);
  const insert = db.prepare(
    `insert into sensor_readings (${COLUMNS}) values (?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const endMs = Date.now() - 60_000;
  const perDevice = Math.ceil(count / DEVICES);
  db.transaction(() => {
    for (let d = 0; d < DEVICES; d++) {
      const device = uuidv7();
      const room = uuidv7();
      const first = endMs - (perDevice - 1) * INTERVAL_MS;
      for (let t = 0; t < perDevice; t++) {
        const at = new Date(first + t * INTERVAL_MS).toISOString();
        insert.run(
          device,
          at,
          uuidv7({ msecs: first + t * INTERVAL_MS }),
          workspaceId,
          room,
          'temperature',
          Math.round(Math.random() * 1000) / 10,
          'C',
          null,
          null,
          at,
        );
      }
    }
  })();
  for (const index of indexes) db.exec(index.sql);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

async function seedPostgres(url, workspaceId) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const endMs = Date.now() - 60_000;
  const perDevice = Math.ceil(count / DEVICES);
  for (let d = 0; d < DEVICES; d++) {
    await client.query(
      `insert into sensor_readings (${COLUMNS})
       select $1, at, md5($1 || t::text)::uuid::text, $2, $3, 'temperature',
              round((random() * 1000)::numeric, 1)::float8, 'C', null, null, at
       from (select t, to_char(to_timestamp(($4::bigint + t * $5::bigint) / 1000.0) at time zone 'UTC',
                               'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at
             from generate_series(0, $6::int - 1) as t) as g`,
      [
        uuidv7(),
        workspaceId,
        uuidv7(),
        endMs - (perDevice - 1) * INTERVAL_MS,
        INTERVAL_MS,
        perDevice,
      ],
    );
  }
  await client.query('vacuum analyze sensor_readings');
  await client.end();
}

const kb = (bytes) => `${(bytes / 1024).toFixed(3)} KB`;

async function convert(dialect) {
  let target;
  let config;
  let cleanup = async () => undefined;
  if (dialect === 'sqlite') {
    const path = join(ROOT, '.bench', 'convert.db');
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    target = { dialect, path };
    config = { dialect, path, url: `sqlite:${path}` };
  } else {
    const base = new URL(postgresUrl);
    const name = `${base.pathname.slice(1)}_convert`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
    base.pathname = `/${name}`;
    target = { dialect, url: base.toString() };
    config = { dialect, url: base.toString() };
    cleanup = async () => {
      await admin.query(`drop database if exists ${name}`);
      await admin.end();
    };
  }
  try {
    let database = openDatabase(config);
    const migrator = () =>
      new Migrator({
        db: database.db,
        provider: { getMigrations: () => Promise.resolve(migrations) },
      });
    const { error } = await migrator().migrateTo(BEFORE);
    if (error) throw error;
    await database.close();
    const workspaceId = uuidv7();
    let started = Date.now();
    if (dialect === 'sqlite') seedSqlite(target.path, workspaceId);
    else await seedPostgres(target.url, workspaceId);
    console.log(
      `[${dialect}] ${count.toLocaleString('en-US')} readings of the previous release in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    const before = await storageFigures(target, { rollups: false });
    console.log(`[${dialect}] before: ${kb(before.perReading)} per reading (table and indexes)`);
    for (const step of STEPS) {
      database = openDatabase(config);
      started = Date.now();
      const result = await migrator().migrateTo(step);
      if (result.error) throw result.error;
      await database.close();
      console.log(
        `[${dialect}] migration ${step}: ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    const after = await storageFigures(target);
    console.log(
      `[${dialect}] after: ${kb(after.perReading)} per reading (table and indexes), rollups ` +
        `${kb(after.rollupsPerReading)} more per reading (${after.rollups.toLocaleString('en-US')} rows)`,
    );
  } finally {
    await cleanup();
  }
}

for (const dialect of databases) await convert(dialect);
