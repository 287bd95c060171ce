// Backup and restore figures (issue 24): time and archive size of `vitro backup` and
// `vitro restore` for the demo lab and for a lab of plants, photos and readings, and
// the p99 of writes during a backup against without one. Embedded shape (SQLite),
// the built CLI run as a process, as a lab runs it.
//
//   node bench/backup.mjs [--plants 100000] [--photos 1000] [--readings 10000000] [--duration 10]
//
// Writes .bench/backup/results.json. Run `npm run build` first.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import console from 'node:console';
import process from 'node:process';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import { loadServer } from './load.mjs';
import { seed } from './seed.mjs';
import { startServer } from './servers.mjs';

const { values } = parseArgs({
  options: {
    plants: { type: 'string', default: '100000' },
    photos: { type: 'string', default: '1000' },
    readings: { type: 'string', default: '10000000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
  },
});
const ROOT = resolve('.bench/backup');
const CLI = resolve('dist/cli/main.js');

function vitro(env, ...args) {
  const started = process.hrtime.bigint();
  const out = execFileSync(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { seconds, result: JSON.parse(out.trim().split('\n').at(-1)) };
}

/** Photos: a JPEG-sized random file each (incompressible, as photos are), with its asset row. */
function addPhotos(dataDir, dbPath, { workspaceId, memberId }, count) {
  const db = new Database(dbPath);
  const plant = db.prepare('select id from plants where workspace_id = ? limit 1').get(workspaceId);
  const insert = db.prepare(`insert into assets (id, workspace_id, target, target_id, kind,
    file_name, content_type, byte_size, storage_key, caption, captured_at, uploaded_by, created_at)
    values (?, ?, 'plant', ?, 'photo', 'photo.jpg', 'image/jpeg', ?, ?, null, null, ?, ?)`);
  const files = join(dataDir, 'files');
  mkdirSync(join(files, workspaceId), { recursive: true, mode: 0o700 });
  mkdirSync(join(files, '.types', workspaceId), { recursive: true, mode: 0o700 });
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const id = uuidv7();
      const key = `${workspaceId}/${id}.jpg`;
      const bytes = randomBytes(200_000 + ((i * 7919) % 200_000));
      writeFileSync(join(files, key), bytes, { mode: 0o600 });
      writeFileSync(join(files, '.types', key), 'image/jpeg', { mode: 0o600 });
      insert.run(id, workspaceId, plant.id, bytes.length, key, memberId, new Date().toISOString());
    }
  })();
  db.close();
}

function measure(name, env) {
  const out = join(ROOT, `${name}.tar.gz`);
  rmSync(out, { force: true });
  const backup = vitro(env, 'backup', '--out', out);
  const into = join(ROOT, `${name}-restored`);
  rmSync(into, { recursive: true, force: true });
  const restore = vitro({ VITRO_DATA_DIR: into }, 'restore', out);
  const dbBytes = statSync(join(env.VITRO_DATA_DIR, 'vitro.db')).size;
  return {
    name,
    database_bytes: dbBytes,
    files: backup.result.files,
    records: backup.result.records,
    archive_bytes: backup.result.bytes,
    backup_seconds: Number(backup.seconds.toFixed(2)),
    restore_seconds: Number(restore.seconds.toFixed(2)),
  };
}

/** p99 of `POST /plants` with and without a `vitro backup` running beside the server. */
async function writeP99(env, apiKey) {
  const server = await startServer({
    name: 'vitro',
    script: resolve('bench/vitro-server.mjs'),
    env: {
      ...process.env,
      ...env,
      LOG_LEVEL: 'silent',
      VITRO_RATE_LIMIT_KEY_PER_MIN: '10000000',
      VITRO_RATE_LIMIT_WORKSPACE_PER_MIN: '10000000',
    },
    execArgv: [],
  });
  const request = {
    method: 'POST',
    path: '/api/v1/plants',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ species: 'Ficus lyrata' }),
  };
  const options = {
    apiKey,
    connections: Number(values.connections),
    duration: Number(values.duration),
  };
  try {
    const quiet = await loadServer(server, request, options);
    const out = join(ROOT, 'during-load.tar.gz');
    rmSync(out, { force: true });
    // Backups run one after another for the whole load.
    let stop = false;
    const backups = (async () => {
      let n = 0;
      while (!stop) {
        rmSync(out, { force: true });
        await new Promise((done, fail) => {
          const child = spawn(process.execPath, [CLI, 'backup', '--out', out], {
            env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env },
            stdio: 'ignore',
          });
          child.on('exit', (code) =>
            code === 0 ? done() : fail(new Error(`backup exit ${code}`)),
          );
        });
        n += 1;
      }
      return n;
    })();
    const busy = await loadServer(server, request, options);
    stop = true;
    const count = await backups;
    return { without_backup: quiet, during_backup: busy, backups_during_load: count };
  } finally {
    await server.stop();
  }
}

async function main() {
  mkdirSync(ROOT, { recursive: true });
  const results = { machine: `${process.arch}, node ${process.version}`, sizes: [] };

  // The demo lab.
  const demoDir = join(ROOT, 'demo');
  rmSync(demoDir, { recursive: true, force: true });
  vitro({ VITRO_DATA_DIR: demoDir }, 'demo');
  results.sizes.push(measure('demo', { VITRO_DATA_DIR: demoDir }));
  console.log(results.sizes.at(-1));

  // The large lab.
  const bigDir = join(ROOT, 'lab');
  rmSync(bigDir, { recursive: true, force: true });
  mkdirSync(bigDir, { recursive: true });
  const dbPath = join(bigDir, 'vitro.db');
  const seeded = await seed(
    { dialect: 'sqlite', path: dbPath },
    {
      plants: Number(values.plants),
      readings: Number(values.readings),
    },
  );
  addPhotos(bigDir, dbPath, seeded, Number(values.photos));
  const env = { VITRO_DATA_DIR: bigDir };
  results.sizes.push(
    measure(`${values.plants}-plants-${values.photos}-photos-${values.readings}-readings`, env),
  );
  console.log(results.sizes.at(-1));

  results.writes = await writeP99(env, seeded.apiKey);
  console.log(JSON.stringify(results.writes, null, 1));
  writeFileSync(join(ROOT, 'results.json'), JSON.stringify(results, null, 2));
}

await main();
