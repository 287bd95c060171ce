// What PostgreSQL alone does with the ingest's batches: pgbench, on the same machine in the
// same run, inserting batches of 500 readings generated in the database (one device each, a
// millisecond apart from the current second, new ids and external ids), with no Node process
// in the way. Two scripts: the readings insert alone ("insert-only"), and the insert with the
// rollup upsert Vitro does in the same transaction.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { INGEST_BATCH, ROLLUP_COLUMNS } from './readings.mjs';

export function findPgbench() {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir !== '' && existsSync(join(dir, 'pgbench'))) return join(dir, 'pgbench');
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = join(root, version, 'bin', 'pgbench');
    if (existsSync(bin)) return bin;
  }
  return null;
}

const quote = (text) => `'${text.replace(/'/g, "''")}'`;

function insertSql(workspaceId) {
  return `insert into sensor_readings (device_id, recorded_at, id, workspace_id, room_id, type, value,
      unit, notes, external_id, created_at)
    select d.id::uuid, t.at, md5(random()::text || g::text)::uuid, d.workspace_id::uuid,
      d.room_id::uuid, 'temperature', 20 + (g % 50) / 10.0, 'C', null,
      'pgb-' || :client_id || '-' || md5(random()::text), now()
    from (select id, workspace_id, room_id from devices where workspace_id = ${quote(workspaceId)}
          order by id offset :d limit 1) as d,
      generate_series(0, ${INGEST_BATCH - 1}) as g,
      lateral (select date_trunc('second', clock_timestamp()) + g * interval '1 millisecond' as at) as t
    on conflict do nothing`;
}

const LATER =
  '(excluded.last_at, excluded.last_id) > (sensor_rollups.last_at, sensor_rollups.last_id)';

function scripts(workspaceId) {
  const head = '\\set d random(0, 99)\n';
  const insert = `${head}${insertSql(workspaceId).replace(/\s+/g, ' ')};\n`;
  const group = (span, start) => `select workspace_id, device_id, ${span}, ${start}, type, unit,
      coalesce(room_id, '00000000-0000-0000-0000-000000000000'::uuid), count(*), min(value), max(value),
      sum(value::text::numeric),
      (array_agg(round(extract(epoch from recorded_at) * 1000)::int8 order by recorded_at desc, id desc))[1],
      (array_agg(id order by recorded_at desc, id desc))[1],
      (array_agg(value order by recorded_at desc, id desc))[1]
    from (select *, floor(extract(epoch from recorded_at) / 60)::int8 as minute from stored) as s
    group by workspace_id, device_id, ${start}, type, unit, room_id`;
  const withRollups = `with stored as (${insertSql(workspaceId)}
      returning device_id, recorded_at, id, workspace_id, room_id, type, unit, value)
    insert into sensor_rollups (${ROLLUP_COLUMNS.join(', ')})
    ${group(1, 'minute')} union all ${group(5, 'minute - ((minute % 5) + 5) % 5')}
    union all ${group(60, 'minute - ((minute % 60) + 60) % 60')}
    on conflict (workspace_id, device_id, span_minutes, minute, type, unit, room_key) do update set
      reading_count = sensor_rollups.reading_count + excluded.reading_count,
      min_value = least(sensor_rollups.min_value, excluded.min_value),
      max_value = greatest(sensor_rollups.max_value, excluded.max_value),
      value_sum = sensor_rollups.value_sum + excluded.value_sum,
      ${['last_value', 'last_id', 'last_at'].map((c) => `${c} = case when ${LATER} then excluded.${c} else sensor_rollups.${c} end`).join(', ')}`;
  // The \set line stays on its own line: pgbench reads meta-commands to the end of a line.
  return { insert, 'insert+rollups': `${head}${withRollups.replace(/\s+/g, ' ')};\n` };
}

function run(bin, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`pgbench exited ${code}: ${err.slice(-800)}`)),
    );
  });
}

/**
 * Runs each script for `duration` seconds with `clients` connections; readings per second
 * (transactions per second × 500), or null when pgbench is not installed.
 */
export async function pgbenchIngest(url, workspaceId, { duration, clients, dir }) {
  const bin = findPgbench();
  if (bin === null) return null;
  const out = {};
  for (const [name, text] of Object.entries(scripts(workspaceId))) {
    const file = join(dir, `pgbench-${name.replace('+', '-')}.sql`);
    writeFileSync(file, text);
    const report = await run(bin, [
      '-n',
      '-c',
      String(clients),
      '-j',
      '2',
      '-T',
      String(duration),
      '-f',
      file,
      url,
    ]);
    const tps = Number(/tps = ([\d.]+)/.exec(report)?.[1] ?? NaN);
    out[name] = { tps, readingsPerSecond: tps * INGEST_BATCH };
  }
  return out;
}
