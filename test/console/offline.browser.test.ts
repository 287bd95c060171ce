import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  consoleSuite,
  DESKTOP,
  newPage,
  ownerApi,
  screenshotBothWidths,
  signIn,
  signInLink,
} from '../support/browser.js';

/** How many of a store of the console's kept reads (IndexedDB `vitro-reads`) hold, in the page. */
const kept = (page: Page, store: 'answers' | 'labels' | 'meta') =>
  page.evaluate<number>(`new Promise((resolve, reject) => {
    const open = indexedDB.open('vitro-reads');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('${store}')) return resolve(0);
      const count = db.transaction('${store}').objectStore('${store}').count();
      count.onsuccess = () => { db.close(); resolve(count.result); };
    };
  })`);

/** Whether a label code is kept (lower-cased, as kept). */
const labelKept = (page: Page, code: string) =>
  page.evaluate<boolean>(`new Promise((resolve) => {
    const open = indexedDB.open('vitro-reads');
    open.onsuccess = () => {
      const get = open.result.transaction('labels').objectStore('labels').get('${code.toLowerCase()}');
      get.onsuccess = () => { open.result.close(); resolve(get.result !== undefined); };
    };
  })`);

/** Whether a read is kept under `key` (its address, the query sorted). */
const answerKept = (page: Page, key: string) =>
  page.evaluate<boolean>(`new Promise((resolve) => {
    const open = indexedDB.open('vitro-reads');
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('answers')) { db.close(); return resolve(false); }
      const get = db.transaction('answers').objectStore('answers').get(${JSON.stringify(key)});
      get.onsuccess = () => { db.close(); resolve(get.result !== undefined); };
    };
  })`);

const until = async (what: string, check: () => Promise<boolean>) => {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`never: ${what}`);
};

/** What a page offline cannot load is not a fault of the page. */
const faults = (problems: string[]) =>
  problems.filter((problem) => !/ERR_INTERNET_DISCONNECTED/.test(problem));

const AS_OF = /Offline: showing what this device kept, as of \d\d:\d\d\./;

/**
 * Reading offline, in headless Chromium on each database: what a person opened is
 * kept on the device (IndexedDB) and shown, marked "as of", when the connection is
 * gone — after a reload too, the console's service worker keeping the shell; a label
 * scanned offline opens its kept record; back online everything is read afresh. Signing
 * out leaves nothing. On a plain-http address (no service worker) the account menu
 * says why the console cannot open offline, and reads are still kept while the page
 * stays open.
 */
consoleSuite(
  'reading offline in Chromium',
  ({ browser, t, demo }) => {
    const { api, read } = ownerApi({ t, demo });
    /** The demo's Monstera mother plant, whose imported label reads VT-P-0001. */
    const monstera = async () => {
      const label = (await read('/api/v1/labels/resolve?barcode=VT-P-0001')) as {
        record_id: string;
      };
      const plant = (await read(`/api/v1/plants/${label.record_id}`)) as { name: string };
      return { record_id: label.record_id, display_name: plant.name };
    };
    const status = (page: Page) => page.locator('.status-line');

    it('keeps Today, a list and a record; reloads them offline "as of" then; a scanned label opens its record; back online reads afresh', async () => {
      const plant = await monstera();
      const { context, page, problems } = await newPage(browser, DESKTOP);
      context.setDefaultTimeout(10_000);
      await signIn(page, t, demo.ownerId);
      await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
      await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
      await page.getByRole('button', { name: /Account/ }).click();
      await page
        .locator('#offline-reload')
        .getByText(/^Works offline/)
        .waitFor();
      await page.keyboard.press('Escape');
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });

      await page.goto(`${t.base}/plants`);
      await page.getByRole('link', { name: plant.display_name }).first().waitFor();
      await page.goto(`${t.base}/plants/${plant.record_id}`);
      await page.getByRole('heading', { level: 1, name: plant.display_name }).waitFor();
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
      // The record's imported label code, asked for a moment after the record was kept.
      await until('the label code kept', () => labelKept(page, 'VT-P-0001'));

      await context.setOffline(true);
      // Changed meanwhile by someone else: seen only once back online.
      const note = 'Changed while this tablet was offline';
      expect(
        (await api('PATCH', `/api/v1/plants/${plant.record_id}`, { notes: note })).statusCode,
      ).toBe(200);

      await page.reload();
      await page.getByRole('heading', { level: 1, name: plant.display_name }).waitFor();
      await status(page).getByText(AS_OF).waitFor();
      expect(await page.getByText(note).count()).toBe(0);
      await page.goto(`${t.base}/plants`);
      await page.getByRole('link', { name: plant.display_name }).first().waitFor();
      await status(page).getByText(AS_OF).waitFor();
      await page.goto(`${t.base}/`);
      await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
      await status(page).getByText(AS_OF).waitFor();
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
      await screenshotBothWidths(page, 'offline-today');
      await page.setViewportSize(DESKTOP);

      // The label scanned into the top field: its kept record opens.
      const field = page.getByLabel('Find a record by its label or name');
      await field.fill('VT-P-0001');
      await field.press('Enter');
      await page.waitForURL(`${t.base}/plants/${plant.record_id}`);
      await page.getByRole('heading', { level: 1, name: plant.display_name }).waitFor();
      await status(page).getByText(AS_OF).waitFor();
      // A label whose record was never opened here: nothing to open.
      await field.fill('VT-P-0002');
      await field.press('Enter');
      await page.getByRole('status').getByText('The server could not be reached').waitFor();
      expect(page.url()).toBe(`${t.base}/plants/${plant.record_id}`);

      // Back online: read again from the server, the "as of" gone.
      await context.setOffline(false);
      await page.getByText(note).waitFor();
      await status(page).waitFor({ state: 'detached' });
      expect(faults(problems)).toEqual([]);
      await context.close();
    }, 90_000);

    it('asks the server first for a page online, the worker in control: its own 404 for a mistyped address; offline the kept page opens', async () => {
      const { context, page, problems } = await newPage(browser, DESKTOP);
      context.setDefaultTimeout(10_000);
      await signIn(page, t, demo.ownerId);
      await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
      await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
      await until('the worker in control', () =>
        page.evaluate<boolean>('navigator.serviceWorker.controller !== null'),
      );
      const online = await page.goto(`${t.base}/no-such-screen`);
      // Through the worker, the server's own answer: the console's page, answered 404.
      expect(online!.fromServiceWorker()).toBe(true);
      expect(online!.status()).toBe(404);
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();

      await context.setOffline(true);
      const offline = await page.goto(`${t.base}/no-such-screen`);
      // No server: the kept page, which says the same.
      expect(offline!.fromServiceWorker()).toBe(true);
      expect(offline!.status()).toBe(200);
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      await context.setOffline(false);
      expect(faults(problems)).toEqual([]);
      await context.close();
    });

    it('keeps the tasks, stage lists and rooms ahead: only Today opened, they show offline "as of" after a reload', async () => {
      const title = `Check the hood filters ${Date.now()}`;
      const made = await api('POST', '/api/v1/tasks', { title, assigned_to: demo.ownerId });
      expect(made.statusCode, made.body).toBe(201);
      const room = ((await read('/api/v1/rooms?limit=200')) as { name: string }[])[0]!;
      const stage = ((await read('/api/v1/stage-lists')) as { plant: { name: string }[] })
        .plant[0]!;

      const { context, page, problems } = await newPage(browser, DESKTOP);
      context.setDefaultTimeout(10_000);
      await signIn(page, t, demo.ownerId);
      await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
      await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
      // Read in the background, under the addresses the screens read.
      const mine = `/api/v1/tasks?assigned_to=${demo.ownerId}&limit=20&status=todo`;
      for (const key of [
        mine,
        '/api/v1/stage-lists',
        '/api/v1/rooms?limit=200',
        '/api/v1/custom-fields',
      ])
        await until(`${key} kept`, () => answerKept(page, key));

      await context.setOffline(true);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
      // The person's open tasks, the Tasks screen never opened online.
      await page.goto(`${t.base}/tasks?assigned_to=${demo.ownerId}`);
      await page.getByText(title).waitFor();
      await status(page).getByText(AS_OF).waitFor();
      // A form's stage and room choices, the form never opened online.
      await page.goto(`${t.base}/plants`);
      await page.getByRole('button', { name: 'New plant' }).click();
      const stages = page.getByLabel('First stage', { exact: true });
      await stages
        .locator('option', { hasText: stage.name })
        .first()
        .waitFor({ state: 'attached' });
      await page
        .getByLabel('Room', { exact: true })
        .locator('option', { hasText: room.name })
        .first()
        .waitFor({ state: 'attached' });
      await status(page).getByText(AS_OF).waitFor();
      expect(faults(problems)).toEqual([]);
      await context.close();
    }, 90_000);

    it('signing out leaves nothing kept: offline, the next person sees no record', async () => {
      const plant = await monstera();
      const { context, page } = await newPage(browser, DESKTOP);
      context.setDefaultTimeout(10_000);
      await signIn(page, t, demo.ownerId);
      await page.goto(`${t.base}/plants/${plant.record_id}`);
      await page.getByRole('heading', { level: 1, name: plant.display_name }).waitFor();
      await until('the record kept', async () => (await kept(page, 'answers')) > 2);
      await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
      await page.getByRole('button', { name: /Account/ }).click();
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.waitForURL(/\/signed-out/);
      expect(await kept(page, 'answers')).toBe(0);
      expect(await kept(page, 'labels')).toBe(0);
      expect(await kept(page, 'meta')).toBe(0);

      await context.setOffline(true);
      await page.goto(`${t.base}/plants/${plant.record_id}`);
      await page.getByText('The server could not be reached').waitFor();
      expect(await page.getByText(plant.display_name).count()).toBe(0);
      await context.close();
    }, 90_000);

    it('on a plain-http lab address: says why the console cannot open offline, and keeps reads while the page stays open', async () => {
      const plant = await monstera();
      const lab = t.base.replace('127.0.0.1', 'lab-server');
      const { context, page, problems } = await newPage(browser, DESKTOP);
      context.setDefaultTimeout(10_000);
      await page.goto((await signInLink(t, demo.ownerId)).replace(t.base, lab));
      await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
      expect(await page.evaluate<boolean>('window.isSecureContext')).toBe(false);
      await page.getByRole('button', { name: /Account/ }).click();
      const why = page.locator('#offline-reload');
      await why.getByText(/this address is not secure \(http\)/).waitFor();
      await screenshotBothWidths(page, 'offline-insecure-account-menu');
      await page.setViewportSize(DESKTOP);
      await page.keyboard.press('Escape');

      await page.goto(`${lab}/plants`);
      await page.getByRole('link', { name: plant.display_name }).first().waitFor();
      await page.getByRole('link', { name: plant.display_name }).first().click();
      await page.getByRole('heading', { level: 1, name: plant.display_name }).waitFor();
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
      await until('the record kept', async () => (await kept(page, 'answers')) > 3);

      await context.setOffline(true);
      // Within the open page: back to the list, read from what was kept.
      await page.goBack();
      await page.getByRole('link', { name: plant.display_name }).first().waitFor();
      await status(page).getByText(AS_OF).waitFor();
      expect(faults(problems)).toEqual([]);
      await context.close();
    }, 90_000);
  },
  { browserArgs: () => ['--host-resolver-rules=MAP lab-server 127.0.0.1'] },
);
