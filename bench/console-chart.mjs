// The console's readings chart on a lab of many readings: the time from a tap to the drawn
// chart for 30 days of one device, measured in the browser (the page's own performance marks),
// and the summary request alone. See bench/README.md ("Console chart");
// `node bench/console-chart.mjs --help`.
import console from 'node:console';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { openDatabase } from '../dist/db/database.js';
import { inTransaction } from '../dist/db/transaction.js';
import { mintSignInLinkForMember } from '../dist/modules/sessions/index.js';
import { ensureBuilt } from './build.mjs';
import { seed } from './seed.mjs';
import { startServer } from './servers.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, '.bench');
const CHROMIUM = '/usr/bin/chromium';
const HELP = `Usage: node bench/console-chart.mjs [options]

Seeds --readings sensor readings (100 devices in 10 rooms, one reading per device every
10 s, with their rollups: the readings cases' seed, see "Readings" in bench/README.md),
starts the real Vitro server (dist/, serving the console from dist/web/) and, per database:
  - signs the lab's owner in to the console in Debian's Chromium (${CHROMIUM}) and opens a
    device's page; then --rounds times picks a 30-day range that ends at the device's last
    reading (two ranges a day apart, in turn, so each tap asks the server again) and reads
    the page's own measure "vitro-chart": from the tap on Show to the charts drawn by uPlot
    (the summary request, the grid, every chart);
  - the same summary request alone, from this process (--rounds times).
Prints the median and p95 of each and writes .bench/console-chart.json.
Build the console first (npm run build:web).

Options:
  --readings <n>      readings to seed (default 1000000; the issue's goal is 10,000,000)
  --rounds <n>        taps (and requests) per database (default 20)
  --databases <list>  sqlite and/or postgres (default sqlite, plus postgres when
                      BENCH_DATABASE_URL is set)
  --no-build          do not rebuild dist/ when src/ is newer
  -h, --help          this text`;

const { values: options } = parseArgs({
  options: {
    readings: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '20' },
    databases: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (options.help) {
  console.log(HELP);
  process.exit(0);
}
const READINGS = Number(options.readings);
const ROUNDS = Number(options.rounds);
const databases = (
  options.databases ?? (process.env.BENCH_DATABASE_URL ? 'sqlite,postgres' : 'sqlite')
).split(',');

const DAY_MS = 86_400_000;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const p95 = (values) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];
const round = (ms) => Math.round(ms * 100) / 100;
/** A UTC date as a date input takes it (the browser runs in UTC). */
const day = (ms) => new Date(ms).toISOString().slice(0, 10);

function get(url, headers) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    http
      .get(url, { headers }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode, ms: performance.now() - started, text }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function measure(dialect, browser) {
  const target =
    dialect === 'sqlite'
      ? { dialect, path: join(OUT, 'console-chart.db') }
      : { dialect, url: process.env.BENCH_DATABASE_URL };
  if (dialect === 'postgres' && !target.url) throw new Error('BENCH_DATABASE_URL is not set');
  console.log(`[${dialect}] seeding ${READINGS.toLocaleString('en')} readings…`);
  const seeded = await seed(target, { plants: 10, readings: READINGS });
  const deviceId = seeded.readings.listDeviceId;
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
      VITRO_SECRET: randomBytes(32).toString('hex'),
      VITRO_DATA_DIR: join(OUT, 'data'),
      VITRO_RATE_LIMIT_KEY_PER_MIN: '1000000000',
      VITRO_RATE_LIMIT_WORKSPACE_PER_MIN: '1000000000',
    },
  });
  const database = openDatabase(
    dialect === 'sqlite'
      ? { dialect, path: target.path, url: `sqlite:${target.path}` }
      : { dialect, url: target.url },
  );
  const context = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    timezoneId: 'UTC',
  });
  const results = {
    database: dialect,
    readings: READINGS,
    device: deviceId,
    taps: [],
    requests: [],
  };
  try {
    const link = await inTransaction(database.db, (trx) =>
      mintSignInLinkForMember(trx, seeded.memberId, server.url, new Date().toISOString()),
    );
    const page = await context.newPage();
    await page.goto(link.url);
    await page.waitForURL((url) => url.pathname !== '/sign-in', { timeout: 30_000 });
    // The device's last reading is a minute before the first of last month (the seed's end).
    const endMs = seeded.readings.endMs;
    const ranges = [
      [day(endMs - 29 * DAY_MS), day(endMs)],
      [day(endMs - 30 * DAY_MS), day(endMs - DAY_MS)],
    ];
    await page.goto(`${server.url}/devices/${deviceId}?range=24h`);
    await page.getByRole('button', { name: 'Pick dates' }).click();
    let summaryUrl = null;
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/sensor-readings/summary')) summaryUrl = request.url();
    });
    for (let i = 0; i < ROUNDS; i += 1) {
      const [from, to] = ranges[i % 2];
      await page.getByLabel('From', { exact: true }).fill(from);
      await page.getByLabel('To', { exact: true }).fill(to);
      const before = await page.evaluate("performance.getEntriesByName('vitro-chart').length");
      await page.getByRole('button', { name: 'Show' }).click();
      // Polled from here: waitForFunction evaluates a string, which the console's CSP refuses.
      const deadline = Date.now() + 60_000;
      while (
        (await page.evaluate("performance.getEntriesByName('vitro-chart').length")) <= before
      ) {
        if (Date.now() > deadline) throw new Error('the chart was not drawn within 60 s');
        await sleep(5);
      }
      const ms = await page.evaluate("performance.getEntriesByName('vitro-chart').at(-1).duration");
      const points = await page.locator('.values-table').count();
      results.taps.push(ms);
      if (i === 0) results.charts = points;
    }
    // The same question without the browser: the summary request alone.
    const headers = { authorization: `Bearer ${seeded.apiKey}` };
    const url = new URL(summaryUrl);
    const first = await get(`${server.url}${url.pathname}${url.search}`, headers);
    if (first.status !== 200) throw new Error(`${url}: ${first.status} ${first.text}`);
    results.buckets = JSON.parse(first.text).data.length;
    results.query = Object.fromEntries(url.searchParams);
    for (let i = 0; i < ROUNDS; i += 1) {
      results.requests.push((await get(`${server.url}${url.pathname}${url.search}`, headers)).ms);
    }
  } finally {
    await context.close();
    await database.close();
    await server.stop();
  }
  const summary = {
    database: dialect,
    readings: READINGS,
    query: results.query,
    charts: results.charts,
    buckets: results.buckets,
    tap_to_drawn_ms: { median: round(median(results.taps)), p95: round(p95(results.taps)) },
    summary_request_ms: {
      median: round(median(results.requests)),
      p95: round(p95(results.requests)),
    },
    rounds: { taps: results.taps.map(round), requests: results.requests.map(round) },
  };
  console.log(
    `[${dialect}] 30 days of one device (${summary.buckets} buckets of ${results.query.bucket}, ` +
      `${summary.charts} chart(s)) on ${READINGS.toLocaleString('en')} readings: tap to drawn ` +
      `${summary.tap_to_drawn_ms.median} ms (p95 ${summary.tap_to_drawn_ms.p95}); the summary ` +
      `request alone ${summary.summary_request_ms.median} ms (p95 ${summary.summary_request_ms.p95})`,
  );
  return summary;
}

if (!existsSync(join(ROOT, 'dist', 'web', 'index.html'))) {
  console.error('dist/web/ is missing: run npm run build:web first');
  process.exit(1);
}
if (!existsSync(CHROMIUM)) {
  console.error(`${CHROMIUM} is missing: apt-get install chromium`);
  process.exit(1);
}
ensureBuilt(ROOT, { build: !options['no-build'] });
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
});
const all = [];
try {
  for (const dialect of databases) all.push(await measure(dialect, browser));
} finally {
  await browser.close();
}
writeFileSync(join(OUT, 'console-chart.json'), `${JSON.stringify(all, null, 2)}\n`);
console.log(`written to ${join(OUT, 'console-chart.json')}`);
