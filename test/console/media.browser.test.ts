import { beforeAll, expect, it } from 'vitest';
import {
  consoleSuite,
  newPage,
  ownerApi,
  PHONE,
  screenshotBothWidths,
  signIn,
} from '../support/browser.js';
import { body } from '../support/harness.js';

interface Lot {
  id: string;
  item_id: string;
  lot_number: string;
  quantity: number;
}

const DAY_MS = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

/**
 * Making a media batch in headless Chromium, on each database: the lab manager makes a
 * batch of the demo lab's multiplication medium scaled to 500 mL, choosing one lot and
 * taking the form's pick for the others, and prints its label; a technician transfers
 * an explant onto it with the medium picker; the API agrees (the batch, the lots taken
 * from, the transfer's media_batch_id), then splits it with one batch for all
 * daughters. The Stock screen puts the low lot first. axe and screenshots at 375 and
 * 1440 px on each screen.
 */
consoleSuite('making a media batch in Chromium', ({ browser, t, demo }) => {
  const { api, read } = ownerApi({ t, demo });
  const post = async (url: string, payload: object) => {
    const res = await api('POST', url, payload);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
    return body(res).data;
  };

  const lots: Record<string, Lot> = {};
  let manager: string;
  let technician: string;
  let explant: { id: string; label: string };
  beforeAll(async () => {
    const people: { id: string; role: string }[] = await read('/api/v1/people');
    manager = people.find((p) => p.role === 'manager')!.id;
    technician = people.find((p) => p.role === 'member')!.id;
    const stock: [string, string, string, number, [string, number, number][]][] = [
      // name, category, unit, reorder level, lots: [number, quantity, expires in days]
      ['MS basal salts with vitamins', 'chemical', 'g', 20, [['MS-1', 80, 200]]],
      ['Sucrose', 'chemical', 'g', 200, [['SU-1', 1000, 300]]],
      ['6-Benzylaminopurine (BAP)', 'chemical', 'mg', 100, [['BAP-1', 50, 400]]],
      [
        'Agar',
        'agar',
        'g',
        100,
        [
          ['AG-1', 400, 300],
          ['AG-2', 300, 60],
        ],
      ],
    ];
    for (const [name, category, unit, reorder_level, received] of stock) {
      const item = await post('/api/v1/stock-items', { name, category, unit, reorder_level });
      for (const [lot_number, quantity, days] of received) {
        lots[lot_number] = await post(`/api/v1/stock-items/${item.id}/lots`, {
          lot_number,
          quantity,
          expires_on: inDays(days),
          supplier: 'PhytoTech',
        });
      }
    }
    explant = await post('/api/v1/explants', {
      label: 'MB-TEST-1',
      initial_stage: 'multiplication',
      initial_count: 12,
    });
  });

  const amountOf = async (lot: Lot) =>
    ((await read(`/api/v1/stock-items/${lot.item_id}/lots/${lot.id}`)) as Lot).quantity;

  it('a manager makes a batch from a recipe scaled to 500 mL with lots chosen, prints its label; a technician transfers onto it', async () => {
    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, manager);
    await page.goto(`${t.base}/media`);
    await page.getByRole('heading', { level: 1, name: 'Media' }).waitFor();
    await page.getByText('No batches here yet').waitFor();
    await screenshotBothWidths(page, 'media-empty');
    await page.setViewportSize(PHONE);
    await page.getByRole('link', { name: 'New batch' }).click();

    const form = page.getByRole('form', { name: 'New media batch' });
    await form.getByLabel('Recipe').waitFor();
    expect(await form.getByLabel('Recipe').locator('option:checked').textContent()).toBe(
      'MS + BAP (aroid multiplication)',
    );
    await form.getByText('Version 2 (the current one)').waitFor();
    await form.getByLabel('Volume (mL)').fill('500');
    // The amounts follow the volume: per litre in the recipe, for 500 mL here.
    const component = (name: string) => form.getByRole('group', { name, exact: true });
    const amount = (name: string) => component(name).getByLabel(/^Amount/);
    await expect.poll(() => amount('Sucrose').inputValue()).toBe('15');
    expect(await amount('Agar').inputValue()).toBe('3.5');
    expect(await amount('MS basal salts with vitamins').inputValue()).toBe('2.2');
    expect(await amount('6-Benzylaminopurine (BAP)').inputValue()).toBe('0.75');
    expect(await component('Agar').getByText('recipe: 7 g/L').count()).toBe(1);
    // Each lot picker offers the item's lots; the first to expire is the form's pick.
    const agarLot = component('Agar').getByLabel('Lot');
    await expect.poll(() => agarLot.locator('option:checked').textContent()).toMatch(/^AG-2/);
    const bapLot = component('6-Benzylaminopurine (BAP)').getByLabel('Lot');
    await expect
      .poll(() => bapLot.locator('option:checked').textContent())
      .toBe(`BAP-1 · holds 50 mg · expires ${inDays(400)} · (low)`);
    await agarLot.selectOption({ label: `AG-1 · holds 400 g · expires ${inDays(300)}` });
    await form.getByLabel('pH measured').fill('5.8');
    await screenshotBothWidths(page, 'media-new-batch');
    await page.setViewportSize(PHONE);
    await form.getByRole('button', { name: 'Make batch' }).dblclick();

    const title = 'MS + BAP (aroid multiplication) v2';
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    const batchId = new URL(page.url()).pathname.split('/').at(-1)!;
    const components = page.getByRole('region', { name: 'Components' });
    await components.getByText('3.5 g · lot AG-1 (PhytoTech)').waitFor();
    await page.getByText('No culture has gone onto this batch yet.').waitFor();
    await screenshotBothWidths(page, 'media-batch');
    await page.setViewportSize(PHONE);

    // Through the API: one batch, made to the recipe's version, each lot taken from.
    const batches: { id: string }[] = await read('/api/v1/media-batches');
    expect(batches.map((b) => b.id)).toEqual([batchId]);
    const batch = await read(`/api/v1/media-batches/${batchId}`);
    expect(batch).toMatchObject({
      recipe_version: 2,
      volume_ml: 500,
      ph_measured: 5.8,
      prepared_by: manager,
      status: 'ready',
      expires_at: `${inDays(28)}T00:00:00.000Z`,
    });
    expect(
      batch.components.map((c: { name: string; lot_id: string; amount: number; unit: string }) => [
        c.name,
        c.amount,
        c.unit,
        c.lot_id,
      ]),
    ).toEqual([
      ['MS basal salts with vitamins', 2.2, 'g', lots['MS-1']!.id],
      ['Sucrose', 15, 'g', lots['SU-1']!.id],
      ['6-Benzylaminopurine (BAP)', 0.75, 'mg', lots['BAP-1']!.id],
      ['Agar', 3.5, 'g', lots['AG-1']!.id],
    ]);
    expect(await amountOf(lots['MS-1']!)).toBeCloseTo(77.8, 9);
    expect(await amountOf(lots['SU-1']!)).toBe(985);
    expect(await amountOf(lots['BAP-1']!)).toBe(49.25);
    expect(await amountOf(lots['AG-1']!)).toBe(396.5);
    expect(await amountOf(lots['AG-2']!)).toBe(300);

    // Its label: the recipe, its version and the day it was made, the day it expires.
    await page.getByRole('link', { name: 'Print label' }).click();
    await page.getByRole('heading', { level: 1, name: 'Print labels' }).waitFor();
    const label = page.locator(`.label[data-code="${batchId}"]`);
    await label.waitFor();
    expect(await label.locator('.label-text p').allTextContents()).toEqual([
      'MS + BAP (aroid multiplication)',
      `v2 · made ${new Date().toISOString().slice(0, 10)}`,
      `Expires ${inDays(28)}`,
      '500 mL · pH 5.8',
      batchId,
    ]);
    await page.getByRole('status').getByText('1 label on 1 sheet').waitFor();
    await screenshotBothWidths(page, 'media-batch-label');
    // Scanning the label (its code typed, as a scanner types it) opens the batch.
    await page.goto(`${t.base}/labels/scan`);
    await page.getByLabel('Label code').fill(batchId);
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(problems).toEqual([]);
    await context.close();

    // A technician at the hood: the transfer onto the batch, picked from the ready ones.
    const bench = await newPage(browser, PHONE);
    await signIn(bench.page, t, technician);
    await bench.page.goto(`${t.base}/explants/${explant.id}`);
    await bench.page.getByRole('heading', { level: 1, name: 'MB-TEST-1' }).waitFor();
    await bench.page.getByRole('button', { name: 'Record transfer' }).click();
    const transfer = bench.page.getByRole('form', { name: 'Record a transfer onto fresh medium' });
    await transfer.getByLabel('Vessels now').fill('14');
    const picker = transfer.getByLabel('Medium batch');
    const offered = `${title} · made ${new Date().toISOString().slice(0, 10)} · expires ${inDays(28)}`;
    await picker.locator('option', { hasText: offered }).waitFor({ state: 'attached' });
    expect(await picker.locator('option').allTextContents()).toEqual(['None named', offered]);
    await picker.selectOption({ label: offered });
    await screenshotBothWidths(bench.page, 'media-transfer-picker');
    await bench.page.setViewportSize(PHONE);
    await transfer.getByRole('button', { name: 'Record transfer' }).click();
    await bench.page.getByRole('status').getByText('Transfer 1 recorded.').waitFor();
    const transfers = await read(`/api/v1/transfers?explant_id=${explant.id}`);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ vessel_count: 14, media_batch_id: batchId });

    // A split onto it: one batch for all daughters, in the same taps as before.
    await bench.page.getByRole('button', { name: 'Split', exact: true }).click();
    const split = bench.page.getByRole('form', { name: 'Split into daughter cultures' });
    await split.getByRole('radio', { name: '2', exact: true }).click();
    const forAll = split.getByLabel('Medium batch for all daughters');
    await forAll.locator('option', { hasText: offered }).waitFor({ state: 'attached' });
    await forAll.selectOption({ label: offered });
    await split.getByRole('button', { name: 'Split into 2' }).click();
    await bench.page
      .getByRole('status')
      .getByText(/^Split into 2/)
      .waitFor();
    const lineage = await read(`/api/v1/explants/${explant.id}/lineage?depth=1`);
    const daughters: { id: string; media_batch_id?: string }[] = await Promise.all(
      lineage.nodes
        .filter((n: { generation: number }) => n.generation === 1)
        .map((n: { id: string }) => read(`/api/v1/explants/${n.id}`)),
    );
    expect(daughters.map((d) => d.media_batch_id)).toEqual([batchId, batchId]);

    // The batch lists the cultures on it.
    await bench.page.goto(`${t.base}/media/${batchId}`);
    const cultures = bench.page.getByRole('region', { name: 'Cultures on this batch' });
    await cultures.getByRole('link', { name: 'MB-TEST-1', exact: true }).waitFor();
    expect(await cultures.locator('li').count()).toBe(3);
    await bench.page.goto(`${t.base}/media`);
    const row = bench.page.locator(`[data-batch="${batchId}"]`);
    await row.getByText('Cultures on it: 3').waitFor();
    await screenshotBothWidths(bench.page, 'media-batches');
    expect(bench.problems).toEqual([]);
    await bench.context.close();
  });

  it('shows the low lot first on the Stock screen, receives a lot and adds an item', async () => {
    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, manager);
    await page.goto(`${t.base}/stock`);
    await page.getByRole('heading', { level: 1, name: 'Stock' }).waitFor();
    const attention = page.getByRole('region', { name: 'Needs attention' });
    const first = attention.locator('li').first();
    await first.waitFor();
    expect(await first.getAttribute('data-lot')).toBe(lots['BAP-1']!.id);
    expect(await first.textContent()).toContain('Low');
    expect(await attention.locator('li').count()).toBe(1);
    // Its reorder task, which the API raised when the lot was received below the level.
    const bap: { low_task_id: string } = await read(
      `/api/v1/stock-items/${lots['BAP-1']!.item_id}/lots/${lots['BAP-1']!.id}`,
    );
    expect(await first.getByRole('link', { name: 'Its task' }).getAttribute('href')).toBe(
      `/tasks/${bap.low_task_id}`,
    );
    // The item holding it comes first among the items too.
    const firstItem = page.locator('[data-item]').first();
    expect(await firstItem.getByRole('heading', { level: 3 }).textContent()).toBe(
      '6-Benzylaminopurine (BAP)',
    );
    await screenshotBothWidths(page, 'stock');
    await page.setViewportSize(PHONE);

    await firstItem.getByRole('button', { name: 'Receive lot: 6-Benzylaminopurine (BAP)' }).click();
    const receive = page.getByRole('form', { name: 'Receive a lot of 6-Benzylaminopurine (BAP)' });
    await receive.getByLabel('Lot number').fill('BAP-2');
    await receive.getByLabel('Quantity (mg)').fill('500');
    await receive.getByLabel('Expires on').fill(inDays(20));
    await receive.getByRole('button', { name: 'Receive lot' }).click();
    await page
      .getByRole('status')
      .getByText('Lot BAP-2 of 6-Benzylaminopurine (BAP) received.')
      .waitFor();
    // Expiring within a month: it needs attention too, after the low one.
    await expect.poll(() => attention.locator('li').count()).toBe(2);
    expect(await attention.locator('li').nth(1).textContent()).toContain('Expiring soon');
    // A new item of the catalogue, by a manager.
    await page.getByRole('button', { name: 'Add item' }).click();
    const add = page.getByRole('form', { name: 'New stock item' });
    await add.getByLabel('Name').fill('Gelrite');
    await add.getByLabel('Category').selectOption({ label: 'Agar' });
    await add.getByLabel('Reorder level').fill('50');
    await add.getByRole('button', { name: 'Add item' }).click();
    await page.getByRole('status').getByText('Gelrite added.').waitFor();
    await page
      .locator('[data-item]', { hasText: 'Gelrite' })
      .getByText('No lots received.')
      .waitFor();
    const catalogue: { name: string; category: string; unit: string; reorder_level: number }[] =
      await read('/api/v1/stock-items');
    expect(catalogue.find((i) => i.name === 'Gelrite')).toMatchObject({
      category: 'agar',
      unit: 'g',
      reorder_level: 50,
    });
    const received: Lot[] = await read(`/api/v1/stock-items/${lots['BAP-1']!.item_id}/lots`);
    expect(received.map((l) => [l.lot_number, l.quantity])).toEqual([
      ['BAP-2', 500],
      ['BAP-1', 49.25],
    ]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
