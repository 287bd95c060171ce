// The insights bench (issue 40), a focused script beside the load cases of run.mjs: on
// SQLite (and on PostgreSQL with BENCH_DATABASE_URL) it seeds one lab of --explants
// explants over --plants plants, --handlings completed transfers with vessel counts
// spread over the last year, and --contaminations contaminations, then times through the
// built app (dist/, requests by app.inject: the whole kernel, no socket) each insight over
// that year, p50/p95 over --requests requests. The issue's lab is --explants 100000
// --handlings 1000000 --contaminations 50000 (goal p95 ≤ 300 ms); the defaults are a tenth.
//
//   npm run build && node bench/insights.mjs [--requests 20]
//   BENCH_DATABASE_URL=postgres://user@127.0.0.1/vitro_bench node bench/insights.mjs
import console from 'node:console';
import process from 'node:process';
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { migrateToLatest } from '../dist/db/migrate.js';
import { inTransaction } from '../dist/db/transaction.js';
import { SCOPES } from '../dist/kernel/access.js';
import { addMember, createApiKey, createWorkspace } from '../dist/modules/identity/index.js';
import { drainLab } from '../dist/modules/insights/index.js';
import { ms, percentile, seededApp } from './in-process.mjs';

const { values: options } = parseArgs({
  options: {
    requests: { type: 'string', default: '20' },
    plants: { type: 'string', default: '50' },
    explants: { type: 'string', default: '10000' },
    handlings: { type: 'string', default: '100000' },
    contaminations: { type: 'string', default: '5000' },
    // `sqlite` or `postgres` (BENCH_DATABASE_URL): that database only.
    only: { type: 'string', default: '' },
  },
});
const REQUESTS = Number(options.requests);
const PLANTS = Number(options.plants);
const EXPLANTS = Number(options.explants);
const HANDLINGS = Number(options.handlings);
const CONTAMINATIONS = Number(options.contaminations);
const DAY = 86_400_000;

async function insertAll(trx, table, rows) {
  const size = Math.max(1, Math.floor(30_000 / Object.keys(rows[0] ?? { a: 1 }).length));
  for (let i = 0; i < rows.length; i += size) {
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + size))
      .execute();
  }
}

/** A random generator with a fixed seed: every run seeds the same lab. */
function random(seed) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/**
 * Seeded straight into the tables, the lab's explants are marked for the insights'
 * drain as the migration marks them, and drained (timed) before the reads are.
 */
async function seed(database) {
  const t0 = Date.now();
  const seeded = await seedRecords(database);
  console.log(`[insights] records seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const t1 = Date.now();
  await sql`insert into insight_dirty (workspace_id, explant_id)
    select workspace_id, id from explants where workspace_id = ${seeded.workspaceId}
    and deleted_at is null`.execute(database.db);
  const drained = await drainLab(database.db, seeded.workspaceId);
  console.log(
    `[insights] kept handlings of ${drained.explants} explants made in ${((Date.now() - t1) / 1000).toFixed(1)} s`,
  );
  return seeded;
}

async function seedRecords(database) {
  await migrateToLatest(database.db);
  const rand = random(40);
  return inTransaction(database.db, async (trx) => {
    const workspace = await createWorkspace(trx, { name: 'Insights bench', plan: 'teams' });
    const ws = workspace.id;
    const members = [];
    for (let i = 0; i < 5; i++) {
      members.push(await addMember(trx, { workspaceId: ws, name: `Person ${i}`, role: 'owner' }));
    }
    const key = await createApiKey(trx, {
      memberId: members[0].id,
      name: 'b',
      scopes: [...SCOPES],
    });
    const start = Date.now() - 380 * DAY;
    const iso = (ms) => new Date(ms).toISOString();
    const plants = Array.from({ length: PLANTS }, (_, i) => {
      const at = iso(start);
      return {
        id: uuidv7(),
        workspace_id: ws,
        species: `Species ${i % 10}`,
        common_name: `Line ${i}`,
        genus: null,
        family: null,
        cultivar: null,
        source: null,
        notes: null,
        status: 'active',
        external_id: null,
        external_id_key: null,
        custom_fields: '{}',
        created_by: members[0].id,
        created_at: at,
        updated_at: at,
        deleted_at: null,
        current_stage_id: null,
        current_stage: null,
        current_stage_name: null,
        current_stage_entered_on: null,
        current_room_id: null,
        archived_at: null,
        archived_by: null,
        search_text: `line ${i}`,
      };
    });
    const explants = [];
    const stages = [];
    for (let i = 0; i < EXPLANTS; i++) {
      const at = iso(start + rand() * 30 * DAY);
      const id = uuidv7();
      const stageId = uuidv7();
      explants.push({
        id,
        workspace_id: ws,
        plant_id: plants[i % PLANTS].id,
        label: `E-${i}`,
        label_key: `e-${i}`,
        batch_number: null,
        batch_number_key: null,
        notes: null,
        status: 'active',
        external_id: null,
        external_id_key: null,
        initial_count: 4,
        current_count: 4,
        plantlet_count: null,
        custom_fields: '{}',
        created_by: members[i % members.length].id,
        created_at: at,
        updated_at: at,
        deleted_at: null,
        current_stage_id: stageId,
        current_stage: 'multiplication',
        current_stage_name: 'Multiplication',
        current_stage_entered_on: at,
        current_room_id: null,
        archived_at: null,
        archived_by: null,
        search_text: `e-${i}`,
        subcultured_at: at,
        parent_explant_ids: '[]',
      });
      stages.push({
        id: stageId,
        workspace_id: ws,
        entity_type: 'explant',
        entity_id: id,
        stage: 'multiplication',
        status: 'active',
        entered_on: at,
        completed_at: null,
        room_id: null,
        notes: null,
        created_by: members[0].id,
        created_at: at,
      });
    }
    // Each explant's transfers, a cycle of 20 to 40 days apart, after its making.
    const perExplant = Math.ceil(HANDLINGS / EXPLANTS);
    const transfers = [];
    for (const explant of explants) {
      let at = Date.parse(explant.created_at);
      let vessels = 4;
      for (let n = 1; n <= perExplant && transfers.length < HANDLINGS; n++) {
        at += ((20 + rand() * 20) * DAY) / (perExplant / 12);
        vessels = Math.max(1, Math.round(vessels * (1 + rand() * 2)) % 500);
        transfers.push({
          id: uuidv7(),
          workspace_id: ws,
          entity_type: 'explant',
          entity_id: explant.id,
          transfer_date: iso(at),
          transfer_cycle: n,
          from_location: `Hood ${n % 4}`,
          to_location: null,
          status: 'completed',
          notes: null,
          vessel_count: vessels,
          plantlet_count: vessels * 3,
          custom_fields: '{}',
          created_by: members[n % members.length].id,
          created_at: iso(at),
        });
      }
    }
    const contaminations = [];
    for (let i = 0; i < CONTAMINATIONS; i++) {
      const at = iso(start + 30 * DAY + rand() * 340 * DAY);
      contaminations.push({
        id: uuidv7(),
        workspace_id: ws,
        entity_type: 'explant',
        entity_id: explants[Math.floor(rand() * explants.length)].id,
        type: 'mold',
        type_other: null,
        issue: 'Mold',
        description: null,
        notes: null,
        severity: 'low',
        status: 'active',
        suspected_source: null,
        observed_at: at,
        resolved_at: null,
        vessels_affected: null,
        plants_affected: null,
        affected_vessel_markings: null,
        stage: 'multiplication',
        room_id: null,
        custom_fields: '{}',
        created_by: members[0].id,
        created_at: at,
        updated_at: at,
        deleted_at: null,
        resolution_outcome: null,
        resolution_notes: null,
        resolved_by: null,
      });
    }
    await insertAll(trx, 'plants', plants);
    await insertAll(trx, 'explants', explants);
    await insertAll(trx, 'stages', stages);
    await insertAll(trx, 'transfers', transfers);
    await insertAll(trx, 'contaminations', contaminations);
    return {
      key: key.key,
      workspaceId: ws,
      plantId: plants[0].id,
      memberId: members[1].id,
      transfers: transfers.length,
    };
  });
}

async function timeReads(app, headers, url) {
  for (let i = 0; i < 2; i++) await app.inject({ method: 'GET', url, headers });
  const times = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = process.hrtime.bigint();
    const res = await app.inject({ method: 'GET', url, headers });
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

async function benchOn(name, url) {
  const { app, seeded } = await seededApp(name, url, 'insights', seed);
  const headers = { authorization: `Bearer ${seeded.key}` };
  const cases = {
    'contamination by operator': '/api/v1/insights/contamination?by=operator',
    'contamination by week': '/api/v1/insights/contamination?by=week',
    'contamination by recipe': '/api/v1/insights/contamination?by=recipe',
    'multiplication by plant': '/api/v1/insights/multiplication?by=plant',
    'multiplication by species': '/api/v1/insights/multiplication?by=species',
    'exposures of an operator': `/api/v1/insights/exposures?by=operator&group=${seeded.memberId}`,
    stages: '/api/v1/insights/stages',
    forecast: `/api/v1/insights/forecast?plant_id=${seeded.plantId}`,
  };
  const result = { database: name, explants: EXPLANTS, handlings: seeded.transfers, cases: {} };
  try {
    for (const [label, path] of Object.entries(cases)) {
      const times = await timeReads(app, headers, path);
      result.cases[label] = times;
      console.log(
        `[insights ${name}] ${label}: p50 ${ms(times.p50)} ms p95 ${ms(times.p95)} ms ` +
          `(${EXPLANTS} explants, ${seeded.transfers} transfers, ${CONTAMINATIONS} contaminations; goal p95 ≤ 300 ms)`,
      );
    }
    return result;
  } finally {
    await app.close();
  }
}

mkdirSync('.bench', { recursive: true });
const results = options.only === 'postgres' ? [] : [await benchOn('sqlite', '.bench/insights.db')];
if (process.env.BENCH_DATABASE_URL && options.only !== 'sqlite') {
  results.push(await benchOn('postgres', process.env.BENCH_DATABASE_URL));
}
console.log(JSON.stringify(results, null, 2));
