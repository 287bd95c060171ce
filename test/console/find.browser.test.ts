import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { addMember } from '../../src/modules/identity/identity.service.js';
import { body } from '../support/harness.js';
import {
  consoleSuite,
  DESKTOP,
  newPage,
  PHONE,
  screenshotBothWidths,
  signIn,
  signInLink,
} from '../support/browser.js';

/**
 * Finding and bringing in records, in headless Chromium on each database: the top
 * field's search by name (a label code still opens its record first); importing a
 * spreadsheet of plants and explants (the dry run's wrong rows, nothing written,
 * then all rows, and a second import creating nothing); Download CSV's spreadsheet
 * form; revoking a member's sign-in links; and the question the sign-in page asks
 * before a link switches the browser to someone else. Checked through the API; axe
 * and screenshots at 375 and 1440 px.
 */
consoleSuite('finding and importing in Chromium', ({ browser, t, demo }) => {
  const api = (
    method: 'GET' | 'POST',
    url: string,
    options: { headers?: Record<string, string>; payload?: string } = {},
  ) =>
    t.request({
      method,
      url,
      headers: { authorization: `Bearer ${demo.ownerKey}`, ...options.headers },
      ...(options.payload === undefined ? {} : { payload: options.payload }),
    });
  const read = async (url: string) => {
    const res = await api('GET', url);
    expect(res.statusCode, url).toBe(200);
    return body(res).data;
  };
  const idle = (page: Page) =>
    page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });

  it('finds a plant by name from the top field, walks the matches with the keys; a label still opens its record', async () => {
    const expected = (await read('/api/v1/search?q=Monstera&limit=10')) as {
      kind: string;
      id: string;
      title: string;
    }[];
    const plant = expected.find((found) => found.kind === 'plant')!;
    expect(plant).toBeDefined();
    const { context, page, problems } = await newPage(browser, DESKTOP);
    await signIn(page, t, demo.ownerId);
    const field = page.getByLabel('Find a record by its label or name');
    await field.fill('Monstera');
    await field.press('Enter');
    const matches = page.getByRole('list', { name: 'Matches for “Monstera”' });
    await matches.waitFor();
    // The API's matches, in its order, each a link with its kind and title.
    const links = matches.getByRole('link');
    expect(await links.count()).toBe(expected.length);
    for (const [i, found] of expected.entries())
      expect(await links.nth(i).textContent()).toContain(found.title);
    await page
      .getByRole('status')
      .getByText(/best matches|1 match/)
      .waitFor();
    await screenshotBothWidths(page, 'search-matches');
    await page.setViewportSize(DESKTOP);
    // The keys: down into the matches, up back to the field; Escape closes them and
    // leaves the focus in the field with what was typed.
    const focused = () =>
      page.evaluate<string>('document.activeElement.id || document.activeElement.textContent');
    await field.focus();
    await field.press('ArrowDown');
    expect(await focused()).toContain(expected[0]!.title);
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe('search-code');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toContain(expected[1]!.title);
    await page.keyboard.press('Escape');
    await matches.waitFor({ state: 'detached' });
    expect(await focused()).toBe('search-code');
    expect(await field.inputValue()).toBe('Monstera');
    // Again, and Enter on the plant's match opens the plant.
    await field.press('Enter');
    await matches.waitFor();
    const at = expected.indexOf(plant);
    for (let i = 0; i <= at; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${t.base}/plants/${plant.id}`);
    await page.getByRole('heading', { level: 1, name: plant.title }).waitFor();

    // A label code resolves first, as before: the explant's page, no list of matches.
    const [explant] = await read('/api/v1/explants?q=MON-TC-B01');
    await field.fill('MON-TC-B01');
    await field.press('Enter');
    await page.waitForURL(`${t.base}/explants/${explant.id}`);
    // Nothing at all: said once, naming what was typed.
    await field.fill('Zyzzyva');
    await field.press('Enter');
    await page.getByRole('status').getByText('No match for “Zyzzyva”').waitFor();
    expect(await page.getByRole('list', { name: /^Matches for/ }).count()).toBe(0);
    await screenshotBothWidths(page, 'search-none');
    expect(problems).toEqual([]);
    await context.close();
  });

  /** Picks a file in the import screen's file field. */
  const pick = (page: Page, name: string, text: string) =>
    page.getByLabel('Spreadsheet file').setInputFiles({
      name,
      mimeType: 'text/csv',
      buffer: Buffer.from(text),
    });
  const plantsNamed = async (code: string) =>
    ((await read(`/api/v1/plants?q=${code}&limit=100`)) as { external_id: string | null }[]).filter(
      (p) => p.external_id?.startsWith(code),
    );

  it('imports plants: a wrong row is shown with the API’s words and nothing is written; a right file imports once, twice creates nothing new', async () => {
    const code = `IMP${Date.now() % 100000}`;
    const bad = [
      'Species,Common name,External ID,Status',
      `Ficus lyrata,Fiddle leaf,${code}-1,active`,
      `Alocasia zebrina,Zebra plant,${code}-2,sleeping`,
      '',
    ].join('\r\n');
    const good = bad.replace('sleeping', 'dormant');
    // What the API says of the wrong row, for comparing with the screen.
    const refused = await api('POST', '/api/v1/imports?kind=plants&dry_run=true', {
      headers: { 'content-type': 'text/csv' },
      payload: bad,
    });
    expect(refused.statusCode).toBe(422);
    const wrong = body(refused).details.rows.find((r: { status: string }) => r.status === 'failed');
    expect(wrong).toMatchObject({ row: 3, column: 'Status' });

    const { context, page, problems } = await newPage(browser, DESKTOP);
    const imports: { dryRun: boolean; key: string | undefined }[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/v1/imports?')) {
        imports.push({
          dryRun: request.url().includes('dry_run=true'),
          key: request.headers()['idempotency-key'],
        });
      }
    });
    await signIn(page, t, demo.ownerId);
    await page.goto(`${t.base}/plants`);
    await page.getByRole('link', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Import plants' }).waitFor();
    await pick(page, 'plants.csv', bad);
    const errors = page.getByRole('region', { name: 'Rows to fix (1)' });
    await errors.waitFor();
    const cells = await errors.locator('tbody td').allTextContents();
    expect(cells).toEqual(['3', 'Status', wrong.error]);
    await page.getByText('1 row is wrong, so nothing can be imported yet').waitFor();
    expect(await page.getByRole('button', { name: /^Import \d/ }).count()).toBe(0);
    await screenshotBothWidths(page, 'import-wrong-row');
    await page.setViewportSize(DESKTOP);
    // Nothing written: the good row of the wrong file is not there either.
    expect(await plantsNamed(code)).toEqual([]);

    // What the progress line says on the way, as the page shows it.
    await page.evaluate(`window.progress = [];
      new MutationObserver(() => {
        const line = document.querySelector('.import-progress p');
        if (line && window.progress.at(-1) !== line.textContent) window.progress.push(line.textContent);
      }).observe(document.body, { subtree: true, childList: true, characterData: true })`);
    await pick(page, 'plants.csv', good);
    await page.getByText('2 rows: 2 new, 0 to update, 0 unchanged.').waitFor();
    await page.getByRole('button', { name: 'Import 2 rows' }).click();
    await page.getByText('Imported: 2 created, 0 updated, 0 unchanged.').waitFor();
    const progress = await page.evaluate<string[]>('window.progress');
    expect(progress.filter((line) => !line.startsWith('Sending'))).toEqual([
      'Checking every row…',
      'Importing…',
    ]);
    const made = await plantsNamed(code);
    expect(made.map((p) => p.external_id).sort()).toEqual([`${code}-1`, `${code}-2`]);
    // The result links to the records made.
    const opened = page.getByRole('link', { name: 'Open the record of row 2' });
    const href = await opened.getAttribute('href');
    expect(made.map((p) => `/plants/${(p as unknown as { id: string }).id}`)).toContain(href);
    await screenshotBothWidths(page, 'import-done');
    await page.setViewportSize(DESKTOP);

    // The same file again: every row unchanged, no new plant.
    await page.getByRole('button', { name: 'Import another file' }).click();
    await pick(page, 'plants.csv', good);
    await page.getByText('2 rows: 0 new, 0 to update, 2 unchanged.').waitFor();
    await page.getByRole('button', { name: 'Import 2 rows' }).click();
    await page.getByText('Imported: 0 created, 0 updated, 2 unchanged.').waitFor();
    expect(await plantsNamed(code)).toHaveLength(2);
    // Dry runs go without a key; each import with its own.
    expect(imports.map((r) => r.dryRun)).toEqual([true, true, false, true, false]);
    const keys = imports.filter((r) => !r.dryRun).map((r) => r.key);
    expect(imports.filter((r) => r.dryRun).every((r) => r.key === undefined)).toBe(true);
    for (const key of keys) expect(key).toMatch(/^console-[0-9a-f]{32}$/);
    expect(keys[0]).not.toBe(keys[1]);

    // Its rows link to the plants, unchanged ones too.
    await page.getByRole('link', { name: 'Open the record of row 2' }).click();
    await page.waitForURL(`${t.base}${href}`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('imports explants of a plant from the explants list, and its sample file imports as it is', async () => {
    const [plant] = await read('/api/v1/plants?q=thai');
    const ref = plant.external_id ?? plant.name;
    const label = `EXP${Date.now() % 100000}`;
    const file = ['Label,Plant,Vessels,Plantlets', `${label}-01,${ref},6,24`, ''].join('\n');
    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, demo.ownerId);
    await page.goto(`${t.base}/explants`);
    await page.getByRole('link', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Import explants' }).waitFor();
    // The sample, made in the browser from this lab's rooms, stages and a plant.
    await page.getByText('Columns', { exact: true }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download a sample file' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('vitro-explants-sample.csv');
    const sample = readFileSync(await download.path(), 'utf8');
    expect(sample.split('\r\n')[0]).toBe(
      '"Label","Plant","Vessels","Plantlets","Stage","Room","Batch","Notes"',
    );
    const tried = await api('POST', '/api/v1/imports?kind=explants&dry_run=true', {
      headers: { 'content-type': 'text/csv' },
      payload: sample,
    });
    expect(tried.statusCode, tried.body).toBe(200);
    expect(body(tried).data.counts).toMatchObject({ rows: 2, failed: 0 });
    await screenshotBothWidths(page, 'import-columns');
    await page.setViewportSize(PHONE);

    const keys: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/v1/imports?kind=explants'))
        keys.push(request.headers()['idempotency-key'] ?? 'dry run');
    });
    await pick(page, 'explants.csv', file);
    await page.getByText('1 row: 1 new, 0 to update, 0 unchanged.').waitFor();
    // The connection drops as Import is pressed: said so, and Import again sends the
    // file with the same key.
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Import 1 row' }).click();
    await page.getByText('Not imported: The server could not be reached.').waitFor();
    await context.setOffline(false);
    await page.getByRole('button', { name: 'Import 1 row' }).click();
    await page.getByText('Imported: 1 created, 0 updated, 0 unchanged.').waitFor();
    expect(keys).toHaveLength(3);
    expect(keys[0]).toBe('dry run');
    expect(keys[1]).toMatch(/^console-/);
    expect(keys[2]).toBe(keys[1]);
    const [made] = await read(`/api/v1/explants?q=${label}`);
    expect(made).toMatchObject({ label: `${label}-01`, plant_id: plant.id, current_count: 6 });
    await page.getByRole('link', { name: 'Open the record of row 2' }).click();
    await page.waitForURL(`${t.base}/explants/${made.id}`);
    // The only failures the page saw: the request cut off while offline.
    expect(problems).toEqual([
      expect.stringMatching(
        /^request failed: .*\/api\/v1\/imports\?kind=explants \(net::ERR_INTERNET_DISCONNECTED\)$/,
      ),
      'console: Failed to load resource: net::ERR_INTERNET_DISCONNECTED',
    ]);
    await context.close();
  });

  it('offers a viewer no Import, and says why at its address', async () => {
    const viewer = await inTransaction(t.database.db, (trx) =>
      addMember(trx, { workspaceId: demo.workspaceId, name: 'Vic Viewer', role: 'viewer' }),
    );
    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, viewer.id);
    await page.goto(`${t.base}/plants`);
    await idle(page);
    await page.getByRole('button', { name: 'Download CSV' }).waitFor();
    expect(await page.getByRole('link', { name: 'Import', exact: true }).count()).toBe(0);
    await page.goto(`${t.base}/explants/import`);
    await page.getByRole('heading', { level: 1, name: 'Import explants' }).waitFor();
    await page.getByText('Your role does not let you add these records').waitFor();
    expect(await page.locator('input[type=file]').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('downloads a list for a spreadsheet, with names, beside the raw CSV', async () => {
    const { context, page, problems } = await newPage(browser, DESKTOP);
    await signIn(page, t, demo.ownerId);
    await page.goto(`${t.base}/plants`);
    await idle(page);
    await page.getByRole('button', { name: 'Download CSV' }).click();
    await page.getByRole('list', { name: 'Which file?' }).waitFor();
    await screenshotBothWidths(page, 'download-choice');
    await page.setViewportSize(DESKTOP);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /^For a spreadsheet/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('plants.csv');
    const file = readFileSync(await download.path(), 'utf8');
    // Exactly what the API answers for people, not its raw form.
    const friendly = await api('GET', '/api/v1/plants', {
      headers: { accept: 'text/csv; profile=spreadsheet' },
    });
    const raw = await api('GET', '/api/v1/plants', { headers: { accept: 'text/csv' } });
    expect(file).toBe(friendly.body);
    expect(file).not.toBe(raw.body);
    expect(file.split('\r\n')[0]).toContain('External ID');
    expect(file).toContain('Growth Room A');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('revokes a member’s sign-in links from the Members page: the old link no longer signs in', async () => {
    const noor = await inTransaction(t.database.db, (trx) =>
      addMember(trx, { workspaceId: demo.workspaceId, name: 'Noor Revoke', role: 'member' }),
    );
    const link = await signInLink(t, noor.id);
    const { context, page, problems } = await newPage(browser, DESKTOP);
    await signIn(page, t, demo.ownerId);
    await page.goto(`${t.base}/members`);
    const row = page.locator('li.row', { hasText: 'Noor Revoke' });
    await row.getByRole('button', { name: 'Revoke sign-in links' }).click();
    await row
      .getByRole('status')
      .getByText('One unused sign-in link of Noor Revoke revoked')
      .waitFor();
    await screenshotBothWidths(page, 'members-revoked');
    await page.setViewportSize(DESKTOP);
    // Her link no longer signs in, and says why.
    const phone = await newPage(browser, PHONE);
    await phone.page.goto(link);
    await phone.page
      .getByRole('alert')
      .getByText(/revoked/)
      .waitFor();
    expect(new URL(phone.page.url()).pathname).toBe('/sign-in');
    await phone.context.close();
    // A link made on the page is taken off the screen when revoked; none left then.
    await row.getByRole('button', { name: 'Make sign-in link' }).click();
    await row.locator('.secret-value').waitFor();
    await row.getByRole('button', { name: 'Revoke sign-in links' }).click();
    await row.getByRole('status').getByText('One unused sign-in link').waitFor();
    expect(await row.locator('.secret-value').count()).toBe(0);
    await row.getByRole('button', { name: 'Revoke sign-in links' }).click();
    await row.getByRole('status').getByText('Noor Revoke had no unused sign-in link').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('asks before a link switches the browser to someone else: stay keeps the first, switch signs in the second', async () => {
    const sam = await inTransaction(t.database.db, (trx) =>
      addMember(trx, { workspaceId: demo.workspaceId, name: 'Sam Switch', role: 'member' }),
    );
    const people = (await read('/api/v1/people')) as { id: string; name: string }[];
    const owner = people.find((p) => p.id === demo.ownerId)!.name;
    const who = async (page: Page) =>
      (
        await page.evaluate<{ data: { member: { id: string } } }>(
          `fetch('/api/v1/session').then((r) => r.json())`,
        )
      ).data.member.id;
    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, demo.ownerId);
    // Someone else's link: both named, nothing used yet.
    const first = await signInLink(t, sam.id);
    await page.goto(first);
    await page.getByRole('heading', { level: 1, name: 'Switch to another person?' }).waitFor();
    await page.getByText(`${owner} is signed in`).waitFor();
    await page.getByText('This link signs in Sam Switch').waitFor();
    await screenshotBothWidths(page, 'sign-in-switch');
    await page.getByRole('button', { name: `Stay signed in as ${owner}` }).click();
    await page.waitForURL(`${t.base}/`);
    expect(await who(page)).toBe(demo.ownerId);
    // The link was not used: it still signs Sam in, elsewhere.
    const sams = await newPage(browser, PHONE);
    await sams.page.goto(first);
    await sams.page.waitForURL(`${t.base}/`);
    expect(await who(sams.page)).toBe(sam.id);
    await sams.context.close();
    // Switch: the second link signs Sam in here.
    await page.goto(await signInLink(t, sam.id));
    await page.getByRole('button', { name: 'Switch to Sam Switch' }).click();
    await page.waitForURL(`${t.base}/`);
    expect(await who(page)).toBe(sam.id);
    // The same person's link goes on without a question.
    await page.goto(await signInLink(t, sam.id));
    await page.waitForURL(`${t.base}/`);
    expect(await page.getByRole('heading', { name: 'Switch to another person?' }).count()).toBe(0);
    expect(await who(page)).toBe(sam.id);
    expect(problems).toEqual([]);
    await context.close();
  });
});
