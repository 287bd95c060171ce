// The console's write queue, end to end: the real console (dist/web) in headless Chromium
// against the real server (dist/, listening on 127.0.0.1, a fresh SQLite file), the demo
// lab in it. With the browser offline, 200 pieces of bench work are done through the
// explant page's own forms (160 comments, 40 transfers); then the browser goes online and
// the time is taken until the last one has landed (the queue empty in the page, and the
// API counting all 200). Goal: ≤ 20 s.
//
//   npm run build && npm run build:web && node bench/offline.mjs [--actions 200]
import console from 'node:console';
import process from 'node:process';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { buildApp } from '../dist/app.js';
import { loadConfig } from '../dist/config.js';
import { openDatabase } from '../dist/db/database.js';
import { migrateToLatest } from '../dist/db/migrate.js';
import { inTransaction } from '../dist/db/transaction.js';
import { createDemoLab } from '../dist/modules/demo/demo.service.js';
import { createRecordLookup } from '../dist/modules/index.js';
import { mintSignInLinkForMember } from '../dist/modules/sessions/index.js';

const { values: options } = parseArgs({
  options: { actions: { type: 'string', default: '200' } },
});
const ACTIONS = Number(options.actions);
const GOAL_MS = 20_000;

const dir = mkdtempSync(join(tmpdir(), 'vitro-offline-bench-'));
const url = `sqlite:${join(dir, 'bench.db')}`;
const database = openDatabase({ dialect: 'sqlite', path: join(dir, 'bench.db'), url });
await migrateToLatest(database.db);
const app = await buildApp(
  loadConfig({
    DATABASE_URL: url,
    VITRO_DATA_DIR: dir,
    VITRO_SECRET: 'offline-bench-'.repeat(4),
    LOG_LEVEL: 'silent',
    VITRO_RATE_LIMIT_KEY_PER_MIN: '100000000',
    VITRO_RATE_LIMIT_WORKSPACE_PER_MIN: '100000000',
  }),
  { database, logger: false, readingsMaintenance: false },
);
await app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${app.server.address().port}`;
const lab = await inTransaction(database.db, (trx) =>
  createDemoLab(trx, createRecordLookup(), new Date()),
);
const asOwner = async (method, path, payload) => {
  const res = await app.inject({
    method,
    url: path,
    headers: { authorization: `Bearer ${lab.key}` },
    ...(payload ? { payload } : {}),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.body}`);
  return res.json();
};
const me = (await asOwner('GET', '/api/v1/me')).data.user.id;
const plant = (await asOwner('POST', '/api/v1/plants', { species: 'Ficus lyrata' })).data;
const explant = (
  await asOwner('POST', '/api/v1/explants', {
    label: 'BENCH-1',
    plant_id: plant.id,
    initial_stage: 'multiplication',
    initial_count: 500,
  })
).data;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
});
try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  const link = await inTransaction(database.db, (trx) =>
    mintSignInLinkForMember(trx, me, base, new Date().toISOString()),
  );
  await page.goto(link.url);
  await page.waitForURL((u) => u.pathname !== '/sign-in');
  await page.goto(`${base}/explants/${explant.id}`);
  await page.getByRole('heading', { level: 1, name: 'BENCH-1' }).waitFor();

  await context.setOffline(true);
  const queuing = performance.now();
  const transfer = page.getByRole('form', { name: 'Record a transfer onto fresh medium' });
  // The top bar's status (not the record's "Saved on this device: waiting to send.").
  const status = page.locator('.queue-status[role=status]');
  let comments = 0;
  let transfers = 0;
  for (let i = 0; i < ACTIONS; i += 1) {
    if (i % 5 === 4) {
      await page.getByRole('button', { name: 'Record transfer' }).click();
      await transfer.getByLabel('Vessels now').fill(String(500 - i));
      await transfer.getByRole('button', { name: 'Record transfer' }).click();
      await transfer.waitFor({ state: 'detached' });
      transfers += 1;
    } else {
      await page.getByLabel('Comment', { exact: true }).fill(`Offline note ${i + 1}`);
      await page.getByRole('button', { name: 'Comment', exact: true }).click();
      comments += 1;
    }
    // Each kept before the next is typed, at a person's pace.
    await status.getByText(`${i + 1} waiting to send`).waitFor();
  }
  const queuedMs = performance.now() - queuing;

  const started = performance.now();
  await context.setOffline(false);
  // Until the top bar no longer says anything waits.
  await status.waitFor({ state: 'detached', timeout: 120_000 });
  const sentMs = performance.now() - started;

  const landed = {
    comments: (
      await asOwner('GET', `/api/v1/comments?entity_type=explant&entity_id=${explant.id}&limit=200`)
    ).data.length,
    transfers: (await asOwner('GET', `/api/v1/transfers?explant_id=${explant.id}&limit=200`)).data
      .length,
  };
  const attention = await page.getByRole('link', { name: /need.* your attention/ }).count();
  const ok = landed.comments === comments && landed.transfers === transfers && attention === 0;
  console.log(
    `[offline] ${ACTIONS} queued writes (${comments} comments, ${transfers} transfers) done offline ` +
      `in ${(queuedMs / 1000).toFixed(1)} s through the console's forms`,
  );
  console.log(
    `[offline] sent in ${(sentMs / 1000).toFixed(2)} s after going online ` +
      `(goal ≤ ${GOAL_MS / 1000} s: ${sentMs <= GOAL_MS ? 'met' : 'MISSED'}); landed ` +
      `${landed.comments} comments, ${landed.transfers} transfers${ok ? '' : ' — NOT ALL'}; ` +
      `load ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
  );
  if (!ok) {
    process.exitCode = 1;
    await page.getByRole('link', { name: /attention/ }).click();
    await page.locator('.attention-item').first().waitFor();
    console.log(await page.locator('.attention-list').innerText());
  }
  await context.close();
} finally {
  await browser.close();
  await app.close();
  await database.close();
}
