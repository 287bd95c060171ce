// The console in headless Chromium, for bench/console-lists.mjs --browser: the initial
// JavaScript a first visit downloads, and how long a signed-in person waits for the Today
// screen and for a filtered plant list, on the bench's lab and on the demo lab.
import console from 'node:console';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { chromium } from 'playwright-core';
import { createDemoLab } from '../dist/modules/demo/demo.service.js';
import { createRecordLookup } from '../dist/modules/index.js';
import { mintSignInLinkForMember } from '../dist/modules/sessions/index.js';
import { inTransaction } from '../dist/db/transaction.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'];

/**
 * What a first visit loads before any screen's own chunk: the scripts and module
 * preloads `dist/web/index.html` names, each gzipped as a server would send it.
 */
export function initialJavaScript(root) {
  const dir = join(root, 'dist', 'web');
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/?([^"]+\.js)"/g)].map((m) => m[1]);
  let bytes = 0;
  let gzipped = 0;
  for (const file of new Set(files)) {
    const body = readFileSync(join(dir, file));
    bytes += body.length;
    gzipped += gzipSync(body).length;
  }
  const kb = (n) => Math.round((n / 1024) * 10) / 10;
  return { files: new Set(files).size, kb: kb(bytes), kb_gzipped: kb(gzipped) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (ms) => Math.round(ms * 10) / 10;

/** Until the screen's heading is shown and no part of it is still loading. */
async function settled(page) {
  await page.getByRole('heading', { level: 1 }).waitFor();
  // A function, not a string: the console's Content-Security-Policy forbids eval.
  await page.waitForFunction(
    () => globalThis.document.querySelector('[aria-busy="true"]') === null,
  );
}

async function memberOf(server, key) {
  const res = await request(`${server.url}/api/v1/me`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return (await res.body.json()).data.user.id;
}

async function signedInPage(browser, database, server, memberId) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const link = await inTransaction(database.db, (trx) =>
    mintSignInLinkForMember(trx, memberId, server.url, new Date().toISOString()),
  );
  await page.goto(link.url);
  await page.waitForURL((url) => url.pathname !== '/sign-in');
  await settled(page);
  return { context, page };
}

/**
 * Per lab: Today opened by address (a full page load: HTML, scripts, the screen's
 * requests; the browser's cache warm after the first), and the plant list filtered from
 * its own search box (the person types, presses Search: one request, the rows redrawn).
 */
async function measureLab(browser, database, server, name, key, search, rounds) {
  const { context, page } = await signedInPage(
    browser,
    database,
    server,
    await memberOf(server, key),
  );
  const today = [];
  for (let i = 0; i < rounds; i += 1) {
    const started = performance.now();
    await page.goto(`${server.url}/`);
    await settled(page);
    today.push(performance.now() - started);
  }
  const filtered = [];
  for (let i = 0; i < rounds; i += 1) {
    await page.goto(`${server.url}/plants`);
    await settled(page);
    const started = performance.now();
    await page.getByLabel('Search plants').fill(search);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === search);
    await settled(page);
    filtered.push(performance.now() - started);
  }
  const rows = await page.locator('ul.record-rows > li').count();
  await context.close();
  const result = {
    lab: name,
    today_ms: { median: round(median(today)), max: round(Math.max(...today)) },
    filtered_list_ms: { median: round(median(filtered)), max: round(Math.max(...filtered)), rows },
  };
  console.log(
    `[browser] ${name.padEnd(22)} Today ${result.today_ms.median} ms (max ${result.today_ms.max}); ` +
      `plants q=${search}: ${result.filtered_list_ms.median} ms (max ${result.filtered_list_ms.max}), ${rows} rows`,
  );
  return result;
}

export async function measureConsole({ database, server, seeded, rounds }) {
  const demo = await inTransaction(database.db, (trx) =>
    createDemoLab(trx, createRecordLookup(), new Date()),
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    return [
      await measureLab(
        browser,
        database,
        server,
        'bench lab (plants)',
        seeded.apiKey,
        'fig',
        rounds,
      ),
      await measureLab(browser, database, server, 'demo lab', demo.key, 'monstera', rounds),
    ];
  } finally {
    await browser.close();
  }
}
