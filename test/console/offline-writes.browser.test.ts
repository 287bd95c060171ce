import type { BrowserContext, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { demoPng } from '../../src/modules/demo/demo.photos.js';
import { addMember } from '../../src/modules/identity/identity.service.js';
import { body } from '../support/harness.js';
import {
  consoleSuite,
  DESKTOP,
  expectAccessible,
  newPage,
  ownerApi,
  screenshotBothWidths,
  signIn,
  signInLink,
} from '../support/browser.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A write the console sent, as the server saw it: method, path and Idempotency-Key. */
interface Sent {
  readonly what: string;
  readonly key: string;
}

/**
 * The write queue in headless Chromium, on each database: 20 pieces of bench work of
 * every kind done with the browser offline (transfers, stage moves, contaminations,
 * comments, a photo, splits, a task completed, SOP step evidence and a measurement,
 * label scans), each shown at once as "waiting to send"; every page closed and a new
 * one opened still offline holds them; back online each lands once, in the order it
 * was done, with the time it was done, even when the answer to one is lost on its way
 * back. Two the lab changed meanwhile (a transfer number taken, an explant ended) wait
 * in "Needs your attention" with the API's words: one fixed, one dropped.
 */
consoleSuite('offline writes in Chromium', ({ browser, t, demo }) => {
  const owner = ownerApi({ t, demo });
  const api = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
    const res = await owner.api(method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return body(res).data;
  };
  const explant = (label: string, plantId: string) =>
    api('POST', '/api/v1/explants', {
      label,
      plant_id: plantId,
      initial_stage: 'multiplication',
      initial_count: 20,
    }) as Promise<Json>;

  /** Opens a page of the console and waits for its heading. */
  const open = async (context: BrowserContext, path: string, heading: string) => {
    const page = await context.newPage();
    await page.goto(`${t.base}${path}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    return page;
  };
  const waiting = (page: Page) => page.getByRole('status').filter({ hasText: 'waiting to send' });

  it('keeps 20 offline writes across pages, sends each once in order with its time, and asks about the refused', async () => {
    const plant = (await api('POST', '/api/v1/plants', { species: 'Ficus lyrata' })) as Json;
    const a = await explant('OFF-A', plant.id);
    const b = await explant('OFF-B', plant.id);
    const c = await explant('OFF-C', plant.id);
    const task = (await api('POST', '/api/v1/tasks', { title: 'Pour 20 jars of MS' })) as Json;
    const sop = ((await api('GET', '/api/v1/sops?limit=50')) as Json[]).find(
      (s) => s.title === 'Subculture of shoot clusters',
    )!;
    const run = (await api('POST', '/api/v1/sop-runs', {
      sop_id: sop.id,
      explant_id: a.id,
    })) as Json;

    // The page alone sends (no service worker, so no Background Sync): the worker's own
    // sending is the next test's.
    const {
      context,
      page: first,
      problems,
    } = await newPage(browser, DESKTOP, {
      serviceWorkers: 'block',
    });
    context.setDefaultTimeout(15_000);
    await signIn(first, t, demo.ownerId);
    await first.close();
    // Every screen opened while online (no service worker here: nothing loads offline).
    const pageA = await open(context, `/explants/${a.id}`, 'OFF-A');
    const pageB = await open(context, `/explants/${b.id}`, 'OFF-B');
    const pageC = await open(context, `/explants/${c.id}`, 'OFF-C');
    const pageTask = await open(context, `/tasks/${task.id}`, 'Pour 20 jars of MS');
    const pageRun = await open(context, `/sop-runs/${run.id}`, sop.title);
    await pageRun.getByRole('button', { name: 'Done — next step' }).click();
    await pageRun.getByText('Step 2 of 7', { exact: true }).waitFor();
    const pageScan = await open(context, '/labels/scan', 'Scan');

    const offlineAt = Date.now();
    await context.setOffline(true);
    /** What each action should send, in the order done. */
    const expected: string[] = [];

    // Explant A: three transfers (the third numbered 50 by hand), two stage moves,
    // two contaminations, three comments and a photo.
    const transfer = pageA.getByRole('form', { name: 'Record a transfer onto fresh medium' });
    for (const [n, cycle] of [
      [18, null],
      [16, null],
      [14, 50],
    ] as const) {
      await pageA.getByRole('button', { name: 'Record transfer' }).click();
      await transfer.getByLabel('Vessels now').fill(String(n));
      if (cycle !== null) {
        await transfer.locator('summary').click();
        await transfer.getByLabel('Transfer number').fill(String(cycle));
      }
      await transfer.getByRole('button', { name: 'Record transfer' }).click();
      await pageA.getByRole('status').getByText('Saved on this device: waiting to send.').waitFor();
      await pageA
        .getByRole('region', { name: 'Waiting to send' })
        .getByText(`Transfer: ${n} vessels`)
        .waitFor();
      expected.push('POST /api/v1/transfers');
    }
    const move = pageA.getByRole('form', { name: 'Move to another stage' });
    for (const stage of ['elongation', 'root_induction']) {
      await pageA.getByRole('button', { name: 'Move stage' }).click();
      await move.getByLabel('New stage').selectOption(stage);
      await move.getByRole('button', { name: 'Move' }).click();
      await move.waitFor({ state: 'detached' });
      expected.push('POST /api/v1/stages');
    }
    const report = pageA.getByRole('form', { name: 'Report a contamination' });
    for (const issue of ['Pink film on the medium', 'White fuzz at the base']) {
      await pageA.getByRole('button', { name: 'Report contamination' }).click();
      await report.getByLabel('What do you see?').fill(issue);
      await report.getByLabel('What kind').selectOption('mold');
      await report.getByRole('button', { name: 'Report' }).click();
      await report.waitFor({ state: 'detached' });
      expected.push('POST /api/v1/contaminations');
    }
    const comments = ['Moved to the hood at 10', 'Medium looks dry', 'Check again Friday'];
    for (const comment of comments) {
      await pageA.getByLabel('Comment', { exact: true }).fill(comment);
      await pageA.getByRole('button', { name: 'Comment', exact: true }).click();
      await pageA.getByRole('region', { name: 'Waiting to send' }).getByText(comment).waitFor();
      expected.push('POST /api/v1/comments');
    }
    await pageA.locator('input[type=file]').setInputFiles({
      name: 'leaf.png',
      mimeType: 'image/png',
      buffer: demoPng([200, 230, 200], [30, 90, 40]),
    });
    await pageA.getByLabel('Caption').fill('Offline leaf');
    await pageA.getByRole('button', { name: 'Add photo' }).click();
    await pageA
      .getByRole('region', { name: 'Waiting to send' })
      .getByText('Photo: Offline leaf')
      .waitFor();
    expected.push('POST /api/v1/assets');
    await waiting(pageA).getByText('11 waiting to send').waitFor();

    // Explants B and C: a split each (B ends meanwhile, below).
    for (const page of [pageB, pageC]) {
      await page.getByRole('button', { name: 'Split', exact: true }).click();
      const split = page.getByRole('form', { name: 'Split into daughter cultures' });
      await split.getByRole('radio', { name: '2', exact: true }).click();
      await split.getByRole('button', { name: 'Split into 2' }).click();
      await page
        .getByRole('region', { name: 'Waiting to send' })
        .getByText('Split: 2 daughters')
        .waitFor();
    }
    expected.push(`POST /api/v1/explants/${b.id}/split`, `POST /api/v1/explants/${c.id}/split`);

    // The task, done; the SOP run's measurement and its step done; two labels scanned.
    await pageTask.getByRole('button', { name: 'Mark as done' }).click();
    await pageTask.getByText('Saved on this device: waiting to send.').waitFor();
    expected.push(`PATCH /api/v1/tasks/${task.id}`);
    await pageRun.getByLabel('Sterilizer temperature (°C)').fill('250');
    await pageRun.getByRole('button', { name: 'Record Sterilizer temperature' }).click();
    await pageRun.getByText('Saved on this device: waiting to send.').first().waitFor();
    await pageRun.getByRole('button', { name: 'Done — next step' }).click();
    await waiting(pageRun).getByText('16 waiting to send').waitFor();
    const steps = `/api/v1/sop-runs/${run.id}/steps/step-2`;
    expected.push(`POST ${steps}/measurements`, `POST ${steps}/events`);
    for (const [code, id] of [
      ['OFF-A', a.id],
      ['OFF-C', c.id],
    ] as const) {
      await pageScan.getByLabel('Label code').fill(code);
      await pageScan.getByLabel('Label code').press('Enter');
      await waiting(pageScan)
        .getByText(`${expected.length + 1} waiting to send`)
        .waitFor();
      expected.push('POST /api/v1/label-scans');
      // The label's record was opened here: its kept page opens; back to Scan for the next.
      await pageScan.waitForURL(`${t.base}/explants/${id}`);
      await pageScan.goBack();
      await pageScan.getByRole('heading', { level: 1, name: 'Scan' }).waitFor();
    }
    // Two more on A, to make twenty.
    for (const comment of ['Labels reprinted']) {
      await pageA.getByLabel('Comment', { exact: true }).fill(comment);
      await pageA.getByRole('button', { name: 'Comment', exact: true }).click();
      expected.push('POST /api/v1/comments');
    }
    await pageA.getByRole('button', { name: 'Record transfer' }).click();
    await transfer.getByLabel('Vessels now').fill('12');
    await transfer.getByRole('button', { name: 'Record transfer' }).click();
    expected.push('POST /api/v1/transfers');
    await waiting(pageA).getByText('20 waiting to send').waitFor();
    expect(expected).toHaveLength(20);
    await screenshotBothWidths(pageA, 'offline-waiting');
    await pageA.setViewportSize(DESKTOP);

    // Meanwhile the lab: transfer 50 of A recorded, and B ended, by someone else.
    await api('POST', '/api/v1/transfers', {
      explant_id: a.id,
      transfer_cycle: 50,
      vessel_count: 19,
    });
    await api('PATCH', `/api/v1/explants/${b.id}`, { status: 'lost' });

    // Every page closed; a new one, still offline, holds the queue. (The shell and
    // its reads come through the test's own route, as a service worker would serve
    // them; writes get no answer.)
    for (const page of [pageA, pageB, pageC, pageTask, pageRun, pageScan]) await page.close();
    await context.route(`${t.base}/**`, (route) =>
      route.request().method() === 'GET'
        ? route.fetch().then((r) => route.fulfill({ response: r }))
        : route.abort('internetdisconnected'),
    );
    const again = await open(context, `/explants/${a.id}`, 'OFF-A');
    await waiting(again).getByText('20 waiting to send').waitFor();
    await again
      .getByRole('region', { name: 'Waiting to send' })
      .getByText('Labels reprinted')
      .waitFor();
    const before = (await api(
      'GET',
      `/api/v1/comments?entity_type=explant&entity_id=${a.id}`,
    )) as Json[];
    expect(before).toHaveLength(0);
    await again.close();
    await context.unroute(`${t.base}/**`);

    // Back online, with someone else signed in on this browser: the work is not
    // theirs, so it is neither shown to them nor sent as theirs.
    await context.setOffline(false);
    const backOnline = Date.now();
    const nora = await inTransaction(t.database.db, (trx) =>
      addMember(trx, { workspaceId: demo.workspaceId, name: 'Nora Nuñez', role: 'member' }),
    );
    const other = await context.newPage();
    await other.goto(await signInLink(t, nora.id));
    await other.getByRole('button', { name: 'Switch to Nora Nuñez' }).click();
    await other.waitForURL((u) => u.pathname !== '/sign-in');
    await other.goto(`${t.base}/explants/${a.id}`);
    await other.getByRole('heading', { level: 1, name: 'OFF-A' }).waitFor();
    await other.waitForTimeout(1500);
    expect(await waiting(other).count()).toBe(0);
    expect(await api('GET', `/api/v1/comments?entity_type=explant&entity_id=${a.id}`)).toEqual([]);
    await other.close();

    // Its author signed in again: a new page sends it. The first answer is lost on its
    // way back (the server did the work): its send again must not make a second transfer.
    const sent: Sent[] = [];
    let lost = false;
    await context.route(`${t.base}/api/v1/transfers`, async (route) => {
      if (lost || route.request().method() !== 'POST') return route.fallback();
      lost = true;
      await route.fetch();
      await route.abort('connectionreset');
    });
    const page = await context.newPage();
    page.on('request', (request) => {
      const key = request.headers()['idempotency-key'];
      if (key !== undefined && request.method() !== 'GET') {
        sent.push({ what: `${request.method()} ${new URL(request.url()).pathname}`, key });
      }
    });
    await page.goto(await signInLink(t, demo.ownerId));
    await page.getByRole('button', { name: /^Switch to / }).click();
    // Today opens, and the queue is sent from there.
    await page.waitForURL((u) => u.pathname !== '/sign-in');
    await page.getByRole('link', { name: '2 need your attention' }).waitFor({ timeout: 30_000 });
    // The refusals come before the last pieces are sent: wait for those too.
    await expect
      .poll(
        () =>
          waiting(page)
            .getByText(/waiting to send/)
            .count(),
        { timeout: 30_000 },
      )
      .toBe(0);

    // In order, each key once (the lost answer's write sent twice with its one key).
    const keys = sent.map((s) => s.key);
    const once = sent.filter((s, i) => keys.indexOf(s.key) === i);
    expect(once.map((s) => s.what)).toEqual(expected);
    // The transfer whose answer was lost went again with its one key.
    expect(sent.filter((s) => s.key === once[0]!.key).length).toBe(2);
    expect(sent.length).toBe(21);

    const inWindow = (iso: string) => {
      const at = Date.parse(iso);
      expect(at).toBeGreaterThanOrEqual(offlineAt - 1000);
      expect(at).toBeLessThan(backOnline);
    };
    const transfers = (await api('GET', `/api/v1/transfers?explant_id=${a.id}&limit=50`)) as Json[];
    // Three of the four landed (51, 52, 53), one per key; 50 is the lab's own.
    expect(transfers.map((x) => x.transfer_cycle).sort()).toEqual([50, 51, 52, 53]);
    for (const x of transfers.filter((x) => x.transfer_cycle !== 50)) inWindow(x.transfer_date);
    expect(transfers.find((x) => x.transfer_cycle === 51)!.vessel_count).toBe(18);
    const stages = (await api('GET', `/api/v1/stages?explant_id=${a.id}`)) as Json[];
    const moved = stages.filter((s) => ['elongation', 'root_induction'].includes(s.stage));
    expect(moved).toHaveLength(2);
    for (const s of moved) inWindow(s.entered_on);
    const logs = (await api('GET', `/api/v1/contaminations?explant_id=${a.id}`)) as Json[];
    expect(logs.map((l) => l.issue).sort()).toEqual([
      'Pink film on the medium',
      'White fuzz at the base',
    ]);
    for (const l of logs) inWindow(l.observed_at);
    const said = (await api(
      'GET',
      `/api/v1/comments?entity_type=explant&entity_id=${a.id}`,
    )) as Json[];
    expect(said.map((x) => x.body).sort()).toEqual([...comments, 'Labels reprinted'].sort());
    const photos = (await api('GET', `/api/v1/assets?target=explant&target_id=${a.id}`)) as Json[];
    expect(photos.map((p) => p.caption)).toEqual(['Offline leaf']);
    const family = (await api('GET', `/api/v1/explants?plant_id=${plant.id}&limit=50`)) as Json[];
    const daughtersOf = (label: string) =>
      family.filter((x) => (x.label as string).startsWith(`${label}.`));
    expect(daughtersOf('OFF-C')).toHaveLength(2);
    expect((await api('GET', `/api/v1/tasks/${task.id}`)).status).toBe('done');
    const trail = (await api('GET', `/api/v1/sop-runs/${run.id}/events?limit=50`)) as Json[];
    const stepTwo = trail.filter((e) => e.stepKey === 'step-2');
    expect(stepTwo.map((e) => e.eventType)).toEqual(['measured', 'confirmed']);
    for (const e of stepTwo) inWindow(e.recordedAt);
    // No operation lists scans: read from the table.
    const scans = await t.database.db
      .selectFrom('label_scans')
      .select(['barcode', 'scanned_at'])
      .where('workspace_id', '=', demo.workspaceId)
      .where('barcode', 'in', ['OFF-A', 'OFF-C'])
      .execute();
    expect(scans.map((s) => s.barcode).sort()).toEqual(['OFF-A', 'OFF-C']);
    for (const s of scans) inWindow(s.scanned_at);

    // Needs your attention: the lab's changes in the API's words.
    await page.getByRole('link', { name: '2 need your attention' }).click();
    await page.getByRole('heading', { level: 1, name: 'Needs your attention' }).waitFor();
    const items = page.locator('.attention-item');
    await expect.poll(() => items.count()).toBe(2);
    const taken = items.filter({ hasText: 'Transfer: 14 vessels' });
    await taken
      .getByText('transfer_cycle: cycle 50 is already recorded for this explant')
      .waitFor();
    const ended = items.filter({ hasText: 'Split: 2 daughters' });
    await ended.getByText('the explant has ended (status lost)').waitFor();
    await screenshotBothWidths(page, 'offline-attention');
    await page.setViewportSize(DESKTOP);

    // Fixed: the transfer sent again with another number, still dated when it was done.
    await taken.getByRole('button', { name: 'Fix' }).click();
    const fix = page.getByRole('form', { name: /^Fix: Transfer/ });
    await fix.getByLabel('transfer cycle').fill('60');
    await expectAccessible(page, 'fixing a refused write');
    await fix.getByRole('button', { name: 'Send again' }).click();
    await page.getByRole('status').getByText('Sent.').waitFor({ timeout: 30_000 });
    const fixed = (
      (await api('GET', `/api/v1/transfers?explant_id=${a.id}&limit=50`)) as Json[]
    ).find((x) => x.transfer_cycle === 60)!;
    expect(fixed.vessel_count).toBe(14);
    inWindow(fixed.transfer_date);

    // Dropped, once asked: nothing sent, nothing left.
    await ended.getByRole('button', { name: 'Drop' }).click();
    await page.getByRole('button', { name: 'Keep it' }).click();
    expect(await items.count()).toBe(1);
    await ended.getByRole('button', { name: 'Drop' }).click();
    await page.getByRole('button', { name: 'Drop it' }).click();
    await page.getByText('Nothing needs your attention').waitFor();
    expect(await page.getByRole('link', { name: /need your attention/ }).count()).toBe(0);
    const after = (await api('GET', `/api/v1/explants?plant_id=${plant.id}&limit=50`)) as Json[];
    expect(after.filter((x) => (x.label as string).startsWith('OFF-B.'))).toEqual([]);
    await expectAccessible(page, 'needs your attention, empty');

    // While offline, the failed loads were the point; anything else is a fault.
    expect(
      problems.filter((p) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(p)),
    ).toEqual([]);
    await context.close();
  }, 240_000);
  it('the service worker sends the queue on Background Sync with no page of the console open, once', async () => {
    const plant = (await api('POST', '/api/v1/plants', { species: 'Ficus elastica' })) as Json;
    const x = await explant('SYNC-X', plant.id);
    const comments = () =>
      api('GET', `/api/v1/comments?entity_type=explant&entity_id=${x.id}`) as Promise<Json[]>;
    const { context, page } = await newPage(browser, DESKTOP);
    context.setDefaultTimeout(15_000);
    await signIn(page, t, demo.ownerId);
    await page.goto(`${t.base}/explants/${x.id}`);
    await page.getByRole('heading', { level: 1, name: 'SYNC-X' }).waitFor();
    await expect
      .poll(() => page.evaluate<boolean>('navigator.serviceWorker.controller !== null'), {
        timeout: 15_000,
      })
      .toBe(true);

    await context.setOffline(true);
    const said = 'Sent by the worker';
    await page.getByLabel('Comment', { exact: true }).fill(said);
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await page.getByRole('region', { name: 'Waiting to send' }).getByText(said).waitFor();
    // No page of the console is left to send it; a blank one holds the DevTools session.
    const blank = await context.newPage();
    await page.close();
    // Back online the browser may fire the sync itself; the worker sends it either way.
    await context.setOffline(false);

    const cdp = await context.newCDPSession(blank);
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) =>
      registrations.push(...event.registrations),
    );
    await cdp.send('ServiceWorker.enable');
    await expect
      .poll(() => registrations.some((r) => !r.isDeleted), { timeout: 15_000 })
      .toBe(true);
    const { registrationId } = registrations.find((r) => !r.isDeleted)!;
    await cdp.send('ServiceWorker.dispatchSyncEvent', {
      origin: t.base,
      registrationId,
      tag: 'vitro-writes',
      lastChance: false,
    });
    await expect.poll(async () => (await comments()).length, { timeout: 15_000 }).toBe(1);
    // A second sync finds nothing waiting: the comment is not made twice.
    await cdp.send('ServiceWorker.dispatchSyncEvent', {
      origin: t.base,
      registrationId,
      tag: 'vitro-writes',
      lastChance: false,
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await comments()).map((c) => c.body)).toEqual([said]);

    // Opened again: nothing waits.
    const again = await context.newPage();
    await again.goto(`${t.base}/explants/${x.id}`);
    await again.getByText(said).waitFor();
    expect(await again.getByRole('region', { name: 'Waiting to send' }).count()).toBe(0);
    await context.close();
  }, 90_000);
});
