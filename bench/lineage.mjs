// The lineage bench (issue 39), a focused script beside the load cases of run.mjs: on
// SQLite (and on PostgreSQL with BENCH_DATABASE_URL) it seeds one lab's line of 30
// generations and 5,000 descendants, then times through the built app (dist/, requests
// by app.inject: the whole kernel, no socket) GET …/lineage of the line's first explant
// (every descendant) and of its last one (ancestors), p50/p95 over --requests requests;
// and, in the same run, POST /explants/{id}/split (one daughter of one vessel) against
// the transfer-create baseline, POST /transfers of an explant with a new vessel count,
// in rounds that take turns going first: the ratio is split's requests a second over the
// transfers'. Beside it, the same work as two requests (a transfer, then POST /explants
// of a culture of one vessel): split's requests a second over those pairs'.
// Then, untimed, what each write adds to the database's write-ahead log (logWritten).
//
//   npm run build && node bench/lineage.mjs [--requests 200] [--writes 1000] [--rounds 5]
//   BENCH_DATABASE_URL=postgres://user@127.0.0.1/vitro_bench node bench/lineage.mjs
import console from 'node:console';
import process from 'node:process';
import { Buffer } from 'node:buffer';
import { closeSync, mkdirSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';
import pg from 'pg';
import { parseArgs } from 'node:util';
import { v7 as uuidv7 } from 'uuid';
import { migrateToLatest } from '../dist/db/migrate.js';
import { inTransaction } from '../dist/db/transaction.js';
import { SCOPES } from '../dist/kernel/access.js';
import { addMember, createApiKey, createWorkspace } from '../dist/modules/identity/index.js';
import { ms, percentile, seededApp } from './in-process.mjs';

const { values: options } = parseArgs({
  options: {
    requests: { type: 'string', default: '200' },
    writes: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '5' },
    generations: { type: 'string', default: '30' },
    descendants: { type: 'string', default: '5000' },
  },
});
const REQUESTS = Number(options.requests);
const WRITES = Number(options.writes);
const ROUNDS = Number(options.rounds);
const GENERATIONS = Number(options.generations);
const DESCENDANTS = Number(options.descendants);

/** How many explants each generation holds: doubling, then level, adding up to DESCENDANTS. */
function generationSizes() {
  const sizes = [];
  let left = DESCENDANTS;
  for (let g = 1; g <= GENERATIONS; g++) {
    const even = Math.ceil(left / (GENERATIONS - g + 1));
    const size = Math.min(2 ** g, even, left);
    sizes.push(size);
    left -= size;
  }
  sizes[sizes.length - 1] += left;
  return sizes;
}

function explantRow(workspaceId, memberId, label, at, count, parents) {
  return {
    id: uuidv7(),
    workspace_id: workspaceId,
    plant_id: null,
    label,
    label_key: label.toLowerCase(),
    batch_number: null,
    batch_number_key: null,
    notes: null,
    status: 'active',
    external_id: null,
    external_id_key: null,
    initial_count: count,
    current_count: count,
    plantlet_count: null,
    custom_fields: '{}',
    created_by: memberId,
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
    search_text: label.toLowerCase(),
    subcultured_at: at,
    parent_explant_ids: JSON.stringify(parents),
  };
}

async function insertAll(trx, table, rows) {
  for (let i = 0; i < rows.length; i += 500) {
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + 500))
      .execute();
  }
}

/** A lab, its owner's key, the line (first and last explant) and explants for the writes. */
async function seed(database) {
  await migrateToLatest(database.db);
  return inTransaction(database.db, async (trx) => {
    const workspace = await createWorkspace(trx, { name: 'Lineage bench', plan: 'teams' });
    const member = await addMember(trx, {
      workspaceId: workspace.id,
      name: 'Bench owner',
      role: 'owner',
    });
    const key = await createApiKey(trx, { memberId: member.id, name: 'b', scopes: [...SCOPES] });
    const start = Date.now() - 400 * 86_400_000;
    const at = (n) => new Date(start + n * 60_000).toISOString();
    let n = 0;
    const root = explantRow(workspace.id, member.id, 'L', at(n++), 10, []);
    const explants = [root];
    const edges = [];
    let previous = [root];
    for (const size of generationSizes()) {
      const generation = [];
      for (let i = 0; i < size; i++) {
        const parent = previous[i % previous.length];
        const child = explantRow(workspace.id, member.id, `${parent.label}.${i}`, at(n++), 4, [
          parent.id,
        ]);
        generation.push(child);
        edges.push({
          workspace_id: workspace.id,
          parent_id: parent.id,
          child_id: child.id,
          kind: 'split',
          transfer_id: null,
          occurred_at: child.created_at,
          recorded_by: member.id,
          room_id: null,
          media_batch_id: null,
          created_at: child.created_at,
        });
      }
      explants.push(...generation);
      previous = generation;
    }
    // Cultures the writes take from: plenty of vessels, none of them in the line.
    const stock = [];
    for (let i = 0; i < 200; i++) {
      stock.push(explantRow(workspace.id, member.id, `W-${i}`, at(n++), 1_000_000, []));
    }
    await insertAll(trx, 'explants', [...explants, ...stock]);
    await insertAll(trx, 'explant_parents', edges);
    return {
      workspaceId: workspace.id,
      key: key.key,
      first: root.id,
      last: previous[previous.length - 1].id,
      count: explants.length - 1,
      stock: stock.map((row) => row.id),
    };
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timeReads(app, headers, url) {
  for (let i = 0; i < 10; i++) await app.inject({ method: 'GET', url, headers });
  const times = [];
  let nodes = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = process.hrtime.bigint();
    const res = await app.inject({ method: 'GET', url, headers });
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    nodes = res.json().data.nodes.length;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), nodes };
}

/** Requests a second of `count` writes made by `request(i)`, one after another. */
async function timeWrites(app, count, request) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const res = await app.inject(request(i));
    if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`);
  }
  return count / (Number(process.hrtime.bigint() - t0) / 1e9);
}

/**
 * What a database writes for `count` requests made by `request(i)`, one after another
 * and untimed: on SQLite the pages each adds to the write-ahead log, read from the
 * log's index (the -shm file: its header's last frame, and its salt, which changes
 * when the log starts again, dropping that request's reading); on PostgreSQL the bytes
 * of write-ahead log, over all the requests. What a write must store, beside its time.
 */
async function logWritten(app, name, url, count, request) {
  if (name === 'sqlite') {
    const fd = openSync(`${url}-shm`, 'r');
    const header = Buffer.alloc(48);
    // The index is in the machine's own byte order.
    const u32 =
      endianness() === 'LE' ? (at) => header.readUInt32LE(at) : (at) => header.readUInt32BE(at);
    const read = () => {
      readSync(fd, header, 0, 48, 0);
      return { frame: u32(16), salt: `${u32(32)}.${u32(36)}` };
    };
    let pages = 0;
    let counted = 0;
    try {
      for (let i = 0; i < count; i++) {
        const before = read();
        const res = await app.inject(request(i));
        if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`);
        const after = read();
        if (after.salt !== before.salt || after.frame < before.frame) continue;
        pages += after.frame - before.frame;
        counted += 1;
      }
    } finally {
      closeSync(fd);
    }
    return { unit: 'log pages', perRequest: pages / counted };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const lsn = async () =>
      (await client.query('select pg_current_wal_insert_lsn() as at')).rows[0].at;
    const start = await lsn();
    for (let i = 0; i < count; i++) {
      const res = await app.inject(request(i));
      if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`);
    }
    const bytes = (await client.query('select pg_wal_lsn_diff($1, $2) as n', [await lsn(), start]))
      .rows[0].n;
    return { unit: 'log bytes', perRequest: Number(bytes) / count };
  } finally {
    await client.end();
  }
}

async function benchOn(name, url) {
  const t0 = process.hrtime.bigint();
  const { app, seeded } = await seededApp(name, url, 'lineage', seed);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(
    `[lineage ${name}] seeded ${seeded.count + 1 + seeded.stock.length} explants, app ready in ${seconds.toFixed(1)} s`,
  );
  const headers = { authorization: `Bearer ${seeded.key}`, 'content-type': 'application/json' };
  try {
    const down = await timeReads(app, headers, `/api/v1/explants/${seeded.first}/lineage`);
    const up = await timeReads(
      app,
      headers,
      `/api/v1/explants/${seeded.last}/lineage?direction=ancestors`,
    );
    let next = 0;
    let vessels = 1_000_000;
    const transfer = () => ({
      method: 'POST',
      url: '/api/v1/transfers',
      headers,
      payload: {
        explant_id: seeded.stock[next++ % seeded.stock.length],
        vessel_count: --vessels,
      },
    });
    const split = () => ({
      method: 'POST',
      url: `/api/v1/explants/${seeded.stock[next++ % seeded.stock.length]}/split`,
      headers,
      payload: { daughters: [{ vessel_count: 1 }] },
    });
    // A split's work as a client without it would ask for it: the parent's transfer, then
    // the new culture of one vessel, two requests counted as one.
    let made = 0;
    const pair = (i) =>
      i % 2 === 0
        ? transfer()
        : {
            method: 'POST',
            url: '/api/v1/explants',
            headers,
            payload: { label: `W-pair.${++made}`, initial_count: 1 },
          };
    const kinds = [
      { request: transfer, requestsEach: 1, times: [] },
      { request: split, requestsEach: 1, times: [] },
      { request: pair, requestsEach: 2, times: [] },
    ];
    for (const kind of kinds) await timeWrites(app, 30, kind.request);
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts with the next kind.
      for (let k = 0; k < kinds.length; k++) {
        const kind = kinds[(round + k) % kinds.length];
        const requests = WRITES * kind.requestsEach;
        kind.times.push((await timeWrites(app, requests, kind.request)) / kind.requestsEach);
      }
    }
    const [transfers, splits, pairs] = kinds.map((kind) => kind.times);
    // What 200 of each store, a pair's two requests counted as one.
    const logs = [];
    for (const kind of kinds) {
      const written = await logWritten(app, name, url, 200 * kind.requestsEach, kind.request);
      logs.push({ unit: written.unit, perEach: written.perRequest * kind.requestsEach });
    }
    const [transferLog, splitLog, pairLog] = logs;
    const result = {
      database: name,
      descendants: { nodes: down.nodes, p50: down.p50, p95: down.p95 },
      ancestors: { nodes: up.nodes, p50: up.p50, p95: up.p95 },
      transferPerSecond: median(transfers),
      splitPerSecond: median(splits),
      ratio: median(splits) / median(transfers),
      transferAndCreatePerSecond: median(pairs),
      ratioToTransferAndCreate: median(splits) / median(pairs),
      log: {
        unit: splitLog.unit,
        split: splitLog.perEach,
        transfer: transferLog.perEach,
        transferAndCreate: pairLog.perEach,
        ratio: splitLog.perEach / transferLog.perEach,
      },
    };
    const amount = (value) => value.toFixed(result.log.unit === 'log pages' ? 1 : 0);
    console.log(
      `[lineage ${name}] ${seeded.count} descendants over ${GENERATIONS} generations; ` +
        `descendants (${down.nodes} nodes) p50 ${ms(down.p50)} ms p95 ${ms(down.p95)} ms; ` +
        `ancestors (${up.nodes} nodes) p50 ${ms(up.p50)} ms p95 ${ms(up.p95)} ms (goal p95 ≤ 200 ms); ` +
        `split ${result.splitPerSecond.toFixed(0)}/s, transfer-create ${result.transferPerSecond.toFixed(0)}/s, ` +
        `ratio ${result.ratio.toFixed(2)} (goal ≥ 0.7); transfer then create ` +
        `${result.transferAndCreatePerSecond.toFixed(0)} pairs/s, split over them ` +
        `${result.ratioToTransferAndCreate.toFixed(2)}; write-ahead log a request: split ` +
        `${amount(result.log.split)} ${result.log.unit}, ` +
        `transfer-create ${amount(result.log.transfer)} ` +
        `(${result.log.ratio.toFixed(2)}×), transfer then create ` +
        `${amount(result.log.transferAndCreate)} a pair`,
    );
    return result;
  } finally {
    await app.close();
  }
}

mkdirSync('.bench', { recursive: true });
const results = [await benchOn('sqlite', '.bench/lineage.db')];
if (process.env.BENCH_DATABASE_URL) {
  results.push(await benchOn('postgres', process.env.BENCH_DATABASE_URL));
}
console.log(JSON.stringify(results, null, 2));
