// Figures of a lab's data that the request bench does not load: importing a 10,000-row
// spreadsheet of plants (POST /imports) and searching (GET /search) a lab of 100,000
// plants and 200,000 explants. Runs the built code (dist/) in this process, requests
// through app.inject (no socket: the times are the server's work), on SQLite (a new
// file) and, with BENCH_DATABASE_URL, on PostgreSQL (a new workspace).
//
//   node bench/lab-data.mjs [--plants 100000] [--explants 200000] [--queries 400]
import console from 'node:console';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { ensureBuilt } from './build.mjs';

const root = join(import.meta.dirname, '..');
const { values: options } = parseArgs({
  options: {
    plants: { type: 'string', default: '100000' },
    explants: { type: 'string', default: '200000' },
    queries: { type: 'string', default: '400' },
    imports: { type: 'string', default: '3' },
    'no-build': { type: 'boolean', default: false },
  },
});
ensureBuilt(root, { build: !options['no-build'] });

const { buildApp } = await import('../dist/app.js');
const { loadConfig } = await import('../dist/config.js');
const { openDatabase } = await import('../dist/db/database.js');
const { migrateToLatest } = await import('../dist/db/migrate.js');
const { inTransaction } = await import('../dist/db/transaction.js');
const { SCOPES } = await import('../dist/kernel/access.js');
const { addMember, createApiKey, createWorkspace } =
  await import('../dist/modules/identity/index.js');
const { createPlants, newPlantSetup } = await import('../dist/modules/plants/index.js');
const { createExplants, newExplantSetup } = await import('../dist/modules/explants/index.js');
const { createRecordLookup } = await import('../dist/modules/index.js');
const { catchUpSearchIndex } = await import('../dist/modules/search/index.js');

const GENERA = [
  'Monstera',
  'Philodendron',
  'Anthurium',
  'Alocasia',
  'Begonia',
  'Hoya',
  'Ficus',
  'Calathea',
  'Syngonium',
  'Scindapsus',
  'Epipremnum',
  'Aglaonema',
  'Peperomia',
  'Nepenthes',
  'Dracaena',
  'Musa',
  'Colocasia',
  'Rhaphidophora',
  'Spathiphyllum',
  'Stromanthe',
];
const EPITHETS = [
  'deliciosa',
  'gloriosum',
  'warocqueanum',
  'zebrina',
  'rex',
  'carnosa',
  'lyrata',
  'orbifolia',
  'podophyllum',
  'pictus',
  'aureum',
  'commutatum',
  'obtusifolia',
  'rajah',
  'fragrans',
  'acuminata',
  'esculenta',
  'tetrasperma',
  'wallisii',
  'sanguinea',
  'micans',
  'melanochrysum',
  'verrucosum',
  'clarinervium',
  'regale',
  'frydek',
  'kerrii',
  'argyreia',
  'ampullaria',
  'marginata',
];
const CULTIVARS = [
  'Thai Constellation',
  'Albo',
  'Pink Princess',
  'Variegata',
  'Krimson',
  'Aurea',
  null,
];

const speciesOf = (i) => `${GENERA[i % GENERA.length]} ${EPITHETS[(i * 7) % EPITHETS.length]}`;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

async function run(target) {
  const dataDir = join(root, '.bench', 'lab-data');
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'lab-data.db');
  if (target === 'sqlite')
    for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    VITRO_DATA_DIR: dataDir,
    VITRO_SECRET: 'lab-data-bench-lab-data-bench-lab-data-bench',
    DATABASE_URL: target === 'sqlite' ? `sqlite:${path}` : process.env.BENCH_DATABASE_URL,
    VITRO_RATE_LIMIT_KEY_PER_MIN: '10000000',
    VITRO_RATE_LIMIT_WORKSPACE_PER_MIN: '10000000',
    VITRO_WORKER: 'off',
  });
  const database = openDatabase(config.database);
  await migrateToLatest(database.db);
  const { workspace, member, key } = await inTransaction(database.db, async (trx) => {
    const workspace = await createWorkspace(trx, { name: 'Lab data bench', plan: 'teams' });
    const member = await addMember(trx, {
      workspaceId: workspace.id,
      name: 'Bench',
      role: 'owner',
    });
    const key = await createApiKey(trx, {
      memberId: member.id,
      name: 'bench',
      scopes: [...SCOPES],
    });
    return { workspace, member, key };
  });
  const app = await buildApp(config, { database, readingsMaintenance: false });
  await app.ready();
  const auth = { authorization: `Bearer ${key.key}` };
  const principal = {
    kind: 'key',
    credentialId: key.id,
    workspaceId: workspace.id,
    plan: 'teams',
    features: [],
    memberId: member.id,
    role: 'owner',
    deviceId: null,
    scopes: [...SCOPES],
    key: null,
  };

  // Imports of 10,000 plants, each file new plants (a real first import).
  const importTimes = [];
  for (let round = 0; round < Number(options.imports); round++) {
    const lines = ['Species,Cultivar,External ID,Status,Notes'];
    for (let i = 0; i < 10_000; i++) {
      lines.push(
        `${speciesOf(i)},${CULTIVARS[i % CULTIVARS.length] ?? ''},IMP-${round}-${i},active,row ${i}`,
      );
    }
    const started = process.hrtime.bigint();
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/imports?kind=plants',
      headers: { ...auth, 'content-type': 'text/csv' },
      payload: `${lines.join('\r\n')}\r\n`,
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (res.statusCode !== 200)
      throw new Error(`import answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
    importTimes.push(ms);
  }

  // The lab searched: plants, then explants of them, written as an import writes them.
  const seedStarted = Date.now();
  const now = new Date().toISOString();
  const plantIds = [];
  const total = Number(options.plants) - 10_000 * Number(options.imports);
  for (let start = 0; start < total; start += 5000) {
    const count = Math.min(5000, total - start);
    await inTransaction(database.db, async (trx) => {
      const setup = await newPlantSetup(trx, workspace.id);
      const bodies = Array.from({ length: count }, (_, j) => {
        const i = start + j;
        const cultivar = CULTIVARS[i % CULTIVARS.length];
        return {
          species: speciesOf(i),
          ...(cultivar === null ? {} : { cultivar }),
          external_id: `${GENERA[i % GENERA.length].slice(0, 3).toUpperCase()}-${String(i).padStart(6, '0')}`,
        };
      });
      for (const plant of await createPlants(trx, principal, setup, bodies, now))
        plantIds.push(plant.id);
    });
  }
  const records = createRecordLookup();
  const perPlant = Math.ceil(Number(options.explants) / plantIds.length);
  for (let start = 0; start < Number(options.explants); start += 5000) {
    const count = Math.min(5000, Number(options.explants) - start);
    await inTransaction(database.db, async (trx) => {
      const setup = await newExplantSetup(trx, workspace.id);
      const bodies = Array.from({ length: count }, (_, j) => {
        const i = start + j;
        const plant = Math.floor(i / perPlant);
        return {
          label: `E-${String(plant).padStart(6, '0')}-${String((i % perPlant) + 1).padStart(2, '0')}`,
          plant_id: plantIds[plant],
          batch_number: `B-${Math.floor(i / 50)}`,
          initial_count: 1 + (i % 6),
        };
      });
      await createExplants(trx, principal, setup, bodies, now, records);
    });
  }
  const seedSeconds = (Date.now() - seedStarted) / 1000;
  // SQLite takes new documents into its index before a search (and every second): all
  // of the seed's at once here, timed apart from the searches.
  const catchUpStarted = Date.now();
  await catchUpSearchIndex(database.db);
  const catchUpSeconds = (Date.now() - catchUpStarted) / 1000;

  const queries = [
    'monstera',
    'mon del',
    'philodendron glor',
    'thai constellation',
    'albo',
    'ho car',
    'e-000123',
    'E-004711-02',
    'b-1234',
    'MON-000020',
    'pink princess',
    'ne raj',
    'alocasia',
    'begonia rex',
    'zz-no-such',
    'a',
  ];
  const times = [];
  const byQuery = new Map();
  for (let i = 0; i < 40; i++) {
    await app.inject({
      method: 'GET',
      url: `/api/v1/search?q=${encodeURIComponent(queries[i % queries.length])}`,
      headers: auth,
    });
  }
  for (let i = 0; i < Number(options.queries); i++) {
    const q = queries[i % queries.length];
    const started = process.hrtime.bigint();
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/search?q=${encodeURIComponent(q)}`,
      headers: auth,
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (res.statusCode !== 200)
      throw new Error(`search answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
    times.push(ms);
    byQuery.set(q, [...(byQuery.get(q) ?? []), ms]);
  }
  times.sort((a, b) => a - b);
  await app.close();
  await database.close();
  return {
    target,
    importMs: importTimes.map((ms) => Math.round(ms)),
    seedSeconds: Math.round(seedSeconds),
    catchUpSeconds: +catchUpSeconds.toFixed(1),
    search: {
      p50: +percentile(times, 50).toFixed(1),
      p95: +percentile(times, 95).toFixed(1),
      max: +times[times.length - 1].toFixed(1),
    },
    slowest: [...byQuery]
      .map(([q, list]) => [q, +Math.max(...list).toFixed(1)])
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4),
  };
}

for (const target of ['sqlite', ...(process.env.BENCH_DATABASE_URL ? ['postgres'] : [])]) {
  const result = await run(target);
  console.log(
    `[${result.target}] import 10,000 plants (CSV): ${result.importMs.join(', ')} ms; ` +
      `seeded ${options.plants} plants and ${options.explants} explants in ${result.seedSeconds} s ` +
      `(search index caught up in ${result.catchUpSeconds} s); ` +
      `search over them: p50 ${result.search.p50} ms, p95 ${result.search.p95} ms (goal ≤ 50), ` +
      `max ${result.search.max} ms; slowest: ${result.slowest.map(([q, ms]) => `"${q}" ${ms}`).join(', ')}`,
  );
}
