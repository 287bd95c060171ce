// The console's list pages on a lab of 100,000 plants: how long a filtered page takes (the
// whole request, and its SQL alone), and the server's memory while it exports every plant as
// CSV. See bench/README.md ("Console lists"); `node bench/console-lists.mjs --help`.
import console from 'node:console';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL, fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { openDatabase } from '../dist/db/database.js';
import { ensureBuilt } from './build.mjs';
import { measureConsole, initialJavaScript } from './console-browser.mjs';
import { seed } from './seed.mjs';
import { startServer } from './servers.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, '.bench');
const HELP = `Usage: node bench/console-lists.mjs [options]

Seeds a workspace of --plants plants (5 stages, 4 rooms, 10% in_culture, one a minute),
starts the real Vitro server (dist/) and measures, per database:
  - each filtered list page the console asks for: the request's time (median and p95 of
    --rounds sequential requests) and the same query's SQL alone (the plants repository,
    in this process);
  - GET /api/v1/plants with Accept: text/csv: every plant, streamed; the server's resident
    memory sampled every 20 ms from /proc (before, peak), bytes and rows received.
Writes .bench/console-lists.json.

Options:
  --plants <n>        plants to seed (default 100000)
  --rounds <n>        requests per page (default 30)
  --databases <list>  sqlite and/or postgres (default sqlite, plus postgres when
                      BENCH_DATABASE_URL is set)
  --browser           also measure the console in headless Chromium (Debian's chromium,
                      driven by playwright-core): the initial JavaScript gzipped, the time
                      to a complete Today screen and to a filtered plant list, on this lab
                      and on the demo lab (made in the same database)
  --no-build          do not rebuild dist/ when src/ is newer
  -h, --help          this text`;

const { values: options } = parseArgs({
  options: {
    plants: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '30' },
    databases: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    browser: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (options.help) {
  console.log(HELP);
  process.exit(0);
}
const PLANTS = Number(options.plants);
const ROUNDS = Number(options.rounds);
const databases = (
  options.databases ?? (process.env.BENCH_DATABASE_URL ? 'sqlite,postgres' : 'sqlite')
).split(',');

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const p95 = (values) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];
const round = (ms) => Math.round(ms * 100) / 100;

function get(url, headers) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        let lines = 0;
        let text = '';
        // A CSV answer is counted, not kept: the client holds no more than a chunk of it.
        const keep = !String(res.headers['content-type']).startsWith('text/csv');
        res.on('data', (chunk) => {
          bytes += chunk.length;
          if (keep) text += chunk;
          else for (const byte of chunk) if (byte === 10) lines += 1;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode, ms: performance.now() - started, bytes, lines, text }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Resident memory of a process, in MB, from /proc. */
function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

/** The pages the console's plant list asks for, with the repository filters of each. */
function pages(seeded) {
  const room = seeded.roomIds[1];
  return [
    ['newest 50', '', { archived: 'exclude' }],
    ['stage=production', 'stage=production', { stage: 'production', archived: 'exclude' }],
    [`room_id`, `room_id=${room}`, { roomId: room, archived: 'exclude' }],
    ['status=in_culture', 'status=in_culture', { status: 'in_culture', archived: 'exclude' }],
    ['q=fig (10% match)', 'q=fig', { q: 'fig', archived: 'exclude' }],
    ['q=zzz (no match)', 'q=zzz', { q: 'zzz', archived: 'exclude' }],
    [
      'stage+room (5% match)',
      `stage=production&room_id=${room}`,
      { stage: 'production', roomId: room, archived: 'exclude' },
    ],
    [
      'stage+status (no match)',
      'stage=quarantine&status=in_culture',
      { stage: 'quarantine', status: 'in_culture', archived: 'exclude' },
    ],
  ];
}

async function measure(dialect) {
  const target =
    dialect === 'sqlite'
      ? { dialect, path: join(OUT, 'console-lists.db') }
      : { dialect, url: process.env.BENCH_DATABASE_URL };
  if (dialect === 'postgres' && !target.url) throw new Error('BENCH_DATABASE_URL is not set');
  console.log(`[${dialect}] seeding ${PLANTS.toLocaleString('en')} plants…`);
  const seeded = await seed(target, { plants: PLANTS });
  const secret = randomBytes(32).toString('hex');
  const server = await startServer({
    name: 'vitro',
    script: join(ROOT, 'bench', 'vitro-server.mjs'),
    execArgv: [],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      PORT: '0',
      DATABASE_URL: dialect === 'sqlite' ? `sqlite:${target.path}` : target.url,
      VITRO_SECRET: secret,
      VITRO_DATA_DIR: join(OUT, 'data'),
      VITRO_RATE_LIMIT_KEY_PER_MIN: '1000000000',
      VITRO_RATE_LIMIT_WORKSPACE_PER_MIN: '1000000000',
    },
  });
  const headers = { authorization: `Bearer ${seeded.apiKey}` };
  const database = openDatabase(
    dialect === 'sqlite'
      ? { dialect, path: target.path, url: `sqlite:${target.path}` }
      : { dialect, url: target.url },
  );
  const { listPlantRows } = await import('../dist/modules/plants/plants.repository.js');
  const results = { database: dialect, plants: PLANTS, pages: [], csv: null };
  try {
    for (const [name, query, filters] of pages(seeded)) {
      const url = `${server.url}/api/v1/plants${query ? `?${query}` : ''}`;
      const first = await get(url, headers);
      if (first.status !== 200) throw new Error(`${url}: ${first.status} ${first.text}`);
      const items = JSON.parse(first.text).data.length;
      const times = [];
      for (let i = 0; i < ROUNDS; i += 1) times.push((await get(url, headers)).ms);
      const page = { limit: 50, offset: 0, after: null };
      const sql = [];
      for (let i = 0; i < ROUNDS; i += 1) {
        const started = performance.now();
        await listPlantRows(database.db, seeded.workspaceId, filters, page);
        sql.push(performance.now() - started);
      }
      const row = {
        page: name,
        items,
        request_ms: { median: round(median(times)), p95: round(p95(times)) },
        sql_ms: { median: round(median(sql)), p95: round(p95(sql)) },
      };
      results.pages.push(row);
      console.log(
        `[${dialect}] ${name.padEnd(26)} ${String(items).padStart(3)} items  request ` +
          `${row.request_ms.median} ms (p95 ${row.request_ms.p95})  SQL ${row.sql_ms.median} ms ` +
          `(p95 ${row.sql_ms.p95})`,
      );
    }

    if (options.browser) {
      results.browser = await measureConsole({ database, server, seeded, rounds: 5 });
    }

    await sleep(500);
    const before = rssMb(server.pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(server.pid));
    }, 20);
    const exported = await get(`${server.url}/api/v1/plants`, { ...headers, accept: 'text/csv' });
    clearInterval(sampler);
    // The header row aside.
    const rows = exported.lines - 1;
    results.csv = {
      status: exported.status,
      rows,
      megabytes: round(exported.bytes / 1024 / 1024),
      seconds: round(exported.ms / 1000),
      rss_mb: { before: round(before), peak: round(peak), growth: round(peak - before) },
    };
    console.log(
      `[${dialect}] CSV of every plant: ${rows.toLocaleString('en')} rows, ` +
        `${results.csv.megabytes} MB in ${results.csv.seconds} s; server RSS ` +
        `${results.csv.rss_mb.before} MB before, ${results.csv.rss_mb.peak} MB peak`,
    );
  } finally {
    await database.close();
    await server.stop();
  }
  return results;
}

ensureBuilt(ROOT, { build: !options['no-build'] });
if (options.browser) {
  const js = initialJavaScript(ROOT);
  console.log(
    `console: initial JavaScript ${js.files} files, ${js.kb_gzipped} KB gzipped (${js.kb} KB)`,
  );
}
const all = [];
for (const dialect of databases) all.push(await measure(dialect));
writeFileSync(join(OUT, 'console-lists.json'), `${JSON.stringify(all, null, 2)}\n`);
console.log(`written to ${join(OUT, 'console-lists.json')}`);
