import { expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { addMember } from '../../src/modules/identity/identity.service.js';
import { body } from '../support/harness.js';
import {
  consoleSuite,
  newPage,
  ownerApi,
  PHONE,
  screenshotBothWidths,
  signIn,
} from '../support/browser.js';

interface Explant {
  id: string;
  label: string;
  plant_id: string;
  initial_count: number | null;
  current_count: number | null;
  plantlet_count: number | null;
  batch_number: string | null;
  custom_fields: Record<string, unknown>;
  current_stage: { stage: string; room_id: string | null } | null;
}

/**
 * A lab beginning in the console, in headless Chromium on each database: New plant on
 * the plants list (its stage, room and the lab's own fields; the API's refusal beside
 * its field), and from a plant's page New explant and Initiate explants (N explants,
 * one request each with its own Idempotency-Key: a double press and a retry after a
 * dropped answer make none twice). Each checked through the API; axe and screenshots
 * at 375 and 1440 px.
 */
consoleSuite('beginning a lab in Chromium', ({ browser, t, demo }) => {
  const { api, read, roomId } = ownerApi({ t, demo });

  it('makes a plant with New plant: species, stage, room, code and the lab’s own fields, then opens it', async () => {
    const roomA = await roomId('Growth Room A');
    // The lab counts leaves too: a number field beside the demo lab's own two.
    const fields = await read('/api/v1/custom-fields');
    const patched = await api('PATCH', '/api/v1/custom-fields', {
      plant: [...fields.plant, { key: 'leaf_count', type: 'number' }],
    });
    expect(patched.statusCode).toBe(200);
    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, demo.ownerId);
    await page.goto(`${t.base}/plants`);
    await page.getByRole('button', { name: 'New plant' }).click();
    const form = page.getByRole('form', { name: 'New plant' });
    await form.getByLabel('Species').waitFor();
    // The API's default first stage is offered; the button is gone while the form is open.
    expect(await form.getByLabel('First stage').inputValue()).toBe('mother_block');
    expect(await page.getByRole('button', { name: 'New plant' }).count()).toBe(0);
    await screenshotBothWidths(page, 'plants-new');
    await page.setViewportSize(PHONE);

    // No species: the API's words beside the field, nothing made.
    const before = ((await read('/api/v1/plants?limit=200')) as unknown[]).length;
    await form.getByRole('button', { name: 'Save plant' }).click();
    const error = form.locator('#species-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/^Species: /);
    expect(await form.getByLabel('Species').getAttribute('aria-invalid')).toBe('true');
    expect(((await read('/api/v1/plants?limit=200')) as unknown[]).length).toBe(before);

    await form.getByLabel('Species').fill('Ficus elastica');
    await form.getByLabel('Name', { exact: true }).fill('Rubber plant Tineke');
    await form.getByLabel('First stage').selectOption({ label: 'Quarantine' });
    await form.getByLabel('Room').selectOption({ label: 'Growth Room A' });
    await form.getByText('Cultivar, code, notes').click();
    await form.getByLabel('Cultivar').fill('Tineke');
    await form.getByLabel('Code', { exact: true }).fill('FIC-TIN');
    await form.getByLabel('mother stock id').fill('MS-0200');
    await form.getByLabel('variegation').selectOption('high');
    // A value that is no number: the API's words beside the lab's field, in its name.
    await form.getByLabel('Leaf count').fill('many');
    await form.getByRole('button', { name: 'Save plant' }).click();
    const wrong = form.locator('[id="custom_fields.leaf_count-error"]');
    await wrong.waitFor();
    expect(await wrong.textContent()).toBe('Leaf count: must be a number');
    expect(await read('/api/v1/plants?externalId=FIC-TIN')).toEqual([]);
    await screenshotBothWidths(page, 'plants-new-error');
    await page.setViewportSize(PHONE);
    await form.getByLabel('Leaf count').fill('7');
    await screenshotBothWidths(page, 'plants-new-filled');
    await page.setViewportSize(PHONE);
    await form.getByRole('button', { name: 'Save plant' }).dblclick();
    await page.getByRole('heading', { level: 1, name: 'Rubber plant Tineke' }).waitFor();
    const [plant] = await read('/api/v1/plants?externalId=FIC-TIN');
    expect(page.url()).toBe(`${t.base}/plants/${plant.id}`);
    expect(plant).toMatchObject({
      species: 'Ficus elastica',
      common_name: 'Rubber plant Tineke',
      cultivar: 'Tineke',
      external_id: 'FIC-TIN',
      status: 'active',
      custom_fields: { mother_stock_id: 'MS-0200', variegation: 'high', leaf_count: 7 },
      current_stage: { stage: 'quarantine', room_id: roomA },
    });
    // The double press made one plant.
    expect(await read('/api/v1/plants?q=Tineke')).toHaveLength(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows a viewer no New plant button', async () => {
    const viewer = await inTransaction(t.database.db, (trx) =>
      addMember(trx, { workspaceId: demo.workspaceId, name: 'Vic Viewer', role: 'viewer' }),
    );
    const [plant] = await read('/api/v1/plants?q=thai');
    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, viewer.id);
    await page.goto(`${t.base}/plants`);
    await page.getByRole('heading', { level: 1, name: 'Plants' }).waitFor();
    await page.getByRole('button', { name: 'Download CSV' }).waitFor();
    expect(await page.getByRole('button', { name: 'New plant' }).count()).toBe(0);
    await page.goto(`${t.base}/plants/${plant.id}`);
    await page.getByRole('heading', { level: 1, name: "Monstera 'Thai Constellation'" }).waitFor();
    await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
    const offered = page.getByRole('button', { name: /New explant|Initiate explants/ });
    expect(await offered.count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('initiates 3 explants from a plant: labels -01 to -03, stage, room, counts; a double press and a retry after a dropped answer make none twice', async () => {
    const roomB = await roomId('Growth Room B');
    const plant = body(
      await api('POST', '/api/v1/plants', {
        species: 'Philodendron gloriosum',
        external_id: 'PHG',
      }),
    ).data;
    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, demo.ownerId);
    await page.goto(`${t.base}/plants/${plant.id}`);
    await page.getByRole('heading', { level: 1, name: 'Philodendron gloriosum' }).waitFor();
    await page.getByRole('button', { name: 'Initiate explants' }).click();
    const form = page.getByRole('form', { name: 'Initiate explants from this plant' });
    await form.getByLabel('How many explants').waitFor();
    // Opened to type how many: the focus is there, the labels follow.
    await expect
      .poll(() => page.evaluate<string>('document.activeElement?.id ?? ""'))
      .toBe('field-count');
    await form.getByText('Type how many to see their labels.').waitFor();
    await screenshotBothWidths(page, 'plant-initiate-open');
    await page.setViewportSize(PHONE);
    expect(await form.getByLabel('Label code').inputValue()).toBe('PHG');
    expect(await form.getByLabel('Stage', { exact: true }).inputValue()).toBe('initiation');

    // More than an initiation makes: said beside the field, nothing sent.
    await form.getByLabel('How many explants').fill('60');
    await form.getByRole('button', { name: /^Make/ }).click();
    await form.locator('#count-error').getByText('How many explants: 1 to 50.').waitFor();
    expect(await read(`/api/v1/explants?plant_id=${plant.id}`)).toEqual([]);

    await form.getByLabel('How many explants').fill('3');
    await form.locator('.batch-labels').getByText('Labels: PHG-01 to PHG-03 (3)').waitFor();
    // Put right, the field says nothing more.
    expect(await form.locator('#count-error').count()).toBe(0);
    await form.getByLabel('Stage', { exact: true }).selectOption({ label: 'Establishment' });
    await form.getByLabel('Room').selectOption({ label: 'Growth Room B' });
    await form.getByLabel('Vessels per explant').fill('4');
    await form.getByLabel('Plantlets per explant').fill('2');
    await form.getByLabel('Batch', { exact: true }).fill('B-PHG-1');
    // The demo lab keeps each explant's medium in a custom field of its own.
    await form.getByText('Notes and the lab’s own fields').click();
    await form.getByLabel('Medium', { exact: true }).selectOption('WPM');
    await screenshotBothWidths(page, 'plant-initiate');
    await page.setViewportSize(PHONE);

    // Each explant's key, by its label; the second's answer is lost on the way back.
    const keys = new Map<string, string[]>();
    let posts = 0;
    await page.route(`${t.base}/api/v1/explants`, async (route) => {
      const request = route.request();
      if (request.method() !== 'POST') return route.continue();
      posts += 1;
      const label = (request.postDataJSON() as { label: string }).label;
      keys.set(label, [...(keys.get(label) ?? []), request.headers()['idempotency-key'] ?? '']);
      if (posts !== 2) return route.continue();
      await route.fetch();
      await route.abort('aborted');
    });
    // Pressed twice before the page could answer the first press.
    await page.evaluate(`(() => {
      const make = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Make 3 explants');
      make.click();
      make.click();
    })()`);
    await form.getByText('PHG-02 was not made: The server could not be reached').waitFor();
    await form.getByRole('status').getByText('1 of 3 made').waitFor();
    const report = form.locator('.batch-report');
    await report.getByRole('link', { name: 'PHG-01' }).waitFor();
    expect(await report.textContent()).toContain('Not made yet: PHG-02, PHG-03');
    // What was sent is kept as it was: the rest go as the first did.
    expect(await form.getByLabel('Batch', { exact: true }).isDisabled()).toBe(true);
    // The one made shows on the plant already.
    const list = page.getByRole('region', { name: 'Explants from this plant' });
    await list.getByRole('link', { name: 'PHG-01' }).waitFor();
    await screenshotBothWidths(page, 'plant-initiate-stopped');
    await page.setViewportSize(PHONE);
    await form.getByRole('button', { name: 'Make the 2 not made' }).click();
    await page.getByRole('status').getByText('3 explants made: PHG-01 to PHG-03.').waitFor();

    const made = (await read(`/api/v1/explants?plant_id=${plant.id}`)) as Explant[];
    expect(made.map((e) => e.label).sort()).toEqual(['PHG-01', 'PHG-02', 'PHG-03']);
    for (const explant of made) {
      expect(explant).toMatchObject({
        plant_id: plant.id,
        initial_count: 4,
        current_count: 4,
        plantlet_count: 2,
        batch_number: 'B-PHG-1',
        custom_fields: { medium: 'WPM' },
        current_stage: { stage: 'establishment', room_id: roomB },
      });
    }
    // Each sent once, each with its own key; PHG-02 again after its lost answer, with the
    // same key (the server replayed it).
    expect(Object.fromEntries([...keys].map(([label, sent]) => [label, sent.length]))).toEqual({
      'PHG-01': 1,
      'PHG-02': 2,
      'PHG-03': 1,
    });
    expect(new Set(keys.get('PHG-02')).size).toBe(1);
    expect(new Set([...keys.values()].flat()).size).toBe(3);
    // The plant's list shows them.
    await list.getByRole('link', { name: 'PHG-03' }).waitFor();
    await page.unroute(`${t.base}/api/v1/explants`);

    // New explant: one more, numbered after them, and its page opens.
    await page.getByRole('button', { name: 'New explant' }).click();
    const one = page.getByRole('form', { name: 'New explant from this plant' });
    await one.getByLabel('Label', { exact: true }).waitFor();
    expect(await one.getByLabel('Label', { exact: true }).inputValue()).toBe('PHG-04');
    await one.getByLabel('Vessels', { exact: true }).fill('1');
    await screenshotBothWidths(page, 'plant-new-explant');
    await page.setViewportSize(PHONE);
    await one.getByRole('button', { name: 'Save explant' }).click();
    await page.getByRole('heading', { level: 1, name: 'PHG-04' }).waitFor();
    const [fourth] = (await read(`/api/v1/explants?plant_id=${plant.id}&q=PHG-04`)) as Explant[];
    expect(page.url()).toBe(`${t.base}/explants/${fourth!.id}`);
    expect(fourth).toMatchObject({
      plant_id: plant.id,
      initial_count: 1,
      current_stage: { stage: 'initiation', room_id: null },
    });
    expect(await read(`/api/v1/explants?plant_id=${plant.id}`)).toHaveLength(4);
    expect(problems).toEqual([]);
    await context.close();
  });
});
