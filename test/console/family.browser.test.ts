import { beforeAll, expect, it } from 'vitest';
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
} from '../support/browser.js';

interface Explant {
  id: string;
  label: string;
  status: string;
  current_count: number | null;
  plantlet_count: number | null;
  parent_explant_ids: string[];
}

/**
 * A culture's family in headless Chromium, on each database: a split into three
 * daughters in two taps (the vessels shared out evenly), checked through the API;
 * the family on the explant and plant pages, rows on a phone and a graph on a desk,
 * each explant a link; a recall's dry run, then the recall, checked through the API;
 * a member offered Split but not Recall. axe and screenshots at 375 and 1440 px.
 */
consoleSuite('families in Chromium', ({ browser, t, demo }) => {
  const api = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await t.request({
      method,
      url,
      headers: { authorization: `Bearer ${demo.ownerKey}` },
      ...(payload === undefined ? {} : { payload }),
    });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return body(res).data;
  };

  let plant: { id: string; name: string };
  let parent: Explant;
  beforeAll(async () => {
    plant = await api('POST', '/api/v1/plants', {
      species: 'Alocasia macrorrhizos',
      common_name: 'Mother AM-3',
    });
    parent = await api('POST', '/api/v1/explants', {
      label: 'AM-3-B1',
      plant_id: plant.id,
      initial_stage: 'multiplication',
      initial_count: 24,
    });
    await api('POST', '/api/v1/transfers', {
      explant_id: parent.id,
      vessel_count: 24,
      plantlet_count: 96,
    });
  });

  it('splits an explant into 3 daughters of 8 vessels in two taps; the API agrees; the family links both ways', async () => {
    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, demo.ownerId);
    await page.goto(`${t.base}/explants/${parent.id}`);
    await page.getByRole('heading', { level: 1, name: 'AM-3-B1' }).waitFor();
    const family = page.getByRole('region', { name: 'Family' });
    await family.getByText('No family recorded').waitFor();

    const keys: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/explants/${parent.id}/split`)) {
        keys.push(request.headers()['idempotency-key'] ?? '');
      }
    });
    await page.getByRole('button', { name: 'Split', exact: true }).click();
    const split = page.getByRole('form', { name: 'Split into daughter cultures' });
    await split.getByText('AM-3-B1 has 24 vessels.').waitFor();
    // Tap one: how many. The vessels and plantlets are shared out, each labelled after the parent.
    await split.getByRole('radio', { name: '3', exact: true }).click();
    await split
      .getByText('3 daughters of 8 vessels each: AM-3-B1.1 to AM-3-B1.3. All vessels leave AM-3-B1')
      .waitFor();
    await screenshotBothWidths(page, 'explant-split');
    await page.setViewportSize(PHONE);
    // Each daughter stays editable, behind one more tap.
    await split.getByText('Change labels and counts').click();
    for (const n of [1, 2, 3]) {
      const daughter = split.getByRole('group', { name: `Daughter ${n}` });
      expect(await daughter.getByLabel('Label').inputValue()).toBe(`AM-3-B1.${n}`);
      expect(await daughter.getByLabel('Vessels').inputValue()).toBe('8');
      expect(await daughter.getByLabel('Plantlets').inputValue()).toBe('32');
    }
    // Tap two (twice, by an impatient thumb): one split.
    await split.getByRole('button', { name: 'Split into 3' }).dblclick();
    await page
      .getByRole('status')
      .getByText('Split into 3: AM-3-B1.1, AM-3-B1.2, AM-3-B1.3.')
      .waitFor();
    expect(new Set(keys).size).toBe(1);
    // All its vessels went on in the daughters: it is offered retirement, not loss.
    const empty = page.getByRole('region', { name: 'No vessels left' });
    await empty.getByText('All its vessels went to its daughter cultures').waitFor();
    expect(await empty.getByRole('button', { name: 'Mark as lost' }).count()).toBe(0);

    const after: Explant = await api('GET', `/api/v1/explants/${parent.id}`);
    expect(after).toMatchObject({ current_count: 0, plantlet_count: 0 });
    const lineage = await api('GET', `/api/v1/explants/${parent.id}/lineage?depth=1`);
    const daughterIds: string[] = lineage.nodes
      .filter((n: { generation: number }) => n.generation === 1)
      .map((n: { id: string }) => n.id);
    expect(daughterIds).toHaveLength(3);
    const daughters: Explant[] = await Promise.all(
      daughterIds.map((id) => api('GET', `/api/v1/explants/${id}`)),
    );
    expect(daughters.map((d) => d.label).sort()).toEqual(['AM-3-B1.1', 'AM-3-B1.2', 'AM-3-B1.3']);
    for (const daughter of daughters) {
      expect(daughter).toMatchObject({
        current_count: 8,
        plantlet_count: 32,
        parent_explant_ids: [parent.id],
      });
    }

    // The family now shows them, each a link; a daughter's family shows its parent.
    const rows = family.getByRole('list', { name: 'The family as a list' });
    await rows.getByRole('link', { name: 'AM-3-B1.2' }).waitFor();
    expect(await rows.getByText('Daughter', { exact: true }).count()).toBe(3);
    await family.getByText('3 cultures came from it, over 1 generation.').waitFor();
    await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
    await family.scrollIntoViewIfNeeded();
    await screenshotBothWidths(page, 'explant-family');
    await page.setViewportSize(PHONE);
    await rows.getByRole('link', { name: 'AM-3-B1.2' }).click();
    await page.getByRole('heading', { level: 1, name: 'AM-3-B1.2' }).waitFor();
    const second = daughters.find((d) => d.label === 'AM-3-B1.2')!;
    expect(new URL(page.url()).pathname).toBe(`/explants/${second.id}`);
    await family.getByText('Parent', { exact: true }).waitFor();
    await family.getByRole('link', { name: 'AM-3-B1', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'AM-3-B1' }).waitFor();

    // On a desk: the graph, its boxes links to the daughters.
    await page.setViewportSize(DESKTOP);
    const graph = family.locator('.family-graph svg');
    await graph.waitFor();
    expect(await graph.locator('a').count()).toBe(3);
    await graph.locator('a', { hasText: 'AM-3-B1.3' }).click();
    await page.getByRole('heading', { level: 1, name: 'AM-3-B1.3' }).waitFor();

    // The plant's page: its explant, and the daughters under it.
    await page.goto(`${t.base}/plants/${plant.id}`);
    await page.getByRole('heading', { level: 1, name: 'Mother AM-3' }).waitFor();
    const plantRows = family.getByRole('list', { name: 'The family as a list' });
    await plantRows.getByRole('link', { name: 'AM-3-B1.1' }).waitFor({ state: 'attached' });
    expect(await plantRows.getByText('Started from the plant').count()).toBe(1);
    await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
    await family.scrollIntoViewIfNeeded();
    await screenshotBothWidths(page, 'plant-family');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('recalls a family: the dry run names how many and which first, then the recall; the API agrees', async () => {
    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, demo.ownerId);
    await page.goto(`${t.base}/explants/${parent.id}`);
    await page.getByRole('heading', { level: 1, name: 'AM-3-B1' }).waitFor();
    const recall = page.getByRole('region', { name: 'Recall' });
    expect(await recall.getByLabel('Set them to').inputValue()).toBe('quarantined');
    // No reason: the API's refusal beside the field, nothing changed.
    await recall.getByRole('button', { name: 'Check what it would change' }).click();
    await recall
      .locator('#recall-reason-error')
      .getByText(/^Why: /)
      .waitFor();
    await recall.getByLabel('Why').fill('CMV positive in lot 12');
    await recall.getByRole('button', { name: 'Check what it would change' }).click();
    const confirm = recall.getByRole('group', { name: 'Recall' });
    await confirm.getByText('4 cultures would be set to “quarantined”:').waitFor();
    await confirm.getByRole('link', { name: 'AM-3-B1.3' }).waitFor();
    // Nothing changed by the dry run.
    const before: Explant[] = await api('GET', '/api/v1/explants?q=AM-3-B1');
    expect(before.map((e) => e.status)).toEqual(['active', 'active', 'active', 'active']);
    await confirm.scrollIntoViewIfNeeded();
    await screenshotBothWidths(page, 'explant-recall-dry-run');
    await page.setViewportSize(PHONE);
    await confirm.getByRole('button', { name: 'Recall 4 cultures' }).click();
    await page.getByRole('status').getByText('4 cultures set to “quarantined”.').waitFor();
    const recalled: Explant[] = await api('GET', '/api/v1/explants?q=AM-3-B1');
    expect(recalled).toHaveLength(4);
    expect(recalled.every((e) => e.status === 'quarantined')).toBe(true);
    const events = await api('GET', `/api/v1/activity?entity=explant&entity_id=${parent.id}`);
    expect(JSON.stringify(events)).toContain('CMV positive in lot 12');
    // Asked again, nothing is left to recall.
    await recall.getByLabel('Why').fill('Again');
    await recall.getByRole('button', { name: 'Check what it would change' }).click();
    await recall.getByText('Nothing would change').waitFor();
    await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
    await recall.scrollIntoViewIfNeeded();
    await screenshotBothWidths(page, 'explant-recall-done');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('offers a member Split but not Recall, saying who may recall', async () => {
    const mia = await inTransaction(t.database.db, (trx) =>
      addMember(trx, { workspaceId: demo.workspaceId, name: 'Mia Moreno', role: 'member' }),
    );
    const daughters: Explant[] = await api('GET', '/api/v1/explants?q=AM-3-B1.');
    const daughter = daughters.find((d) => d.label === 'AM-3-B1.1');
    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, mia.id);
    await page.goto(`${t.base}/explants/${daughter!.id}`);
    await page.getByRole('heading', { level: 1, name: 'AM-3-B1.1' }).waitFor();
    await page.getByRole('button', { name: 'Split', exact: true }).waitFor();
    await page.getByText('is for a manager or above').waitFor();
    expect(await page.getByRole('region', { name: 'Recall' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /recall|check what/i }).count()).toBe(0);
    await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
    await page.getByText('is for a manager or above').scrollIntoViewIfNeeded();
    await screenshotBothWidths(page, 'explant-family-member');
    // The API refuses her a recall as before: the console only stopped offering it.
    const forced = await page.evaluate(`fetch('/api/v1/explants/${daughter!.id}/recall', {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reason: 'x', dry_run: true }) }).then((r) => r.status)`);
    expect(forced).toBe(403);
    expect(problems).toEqual([]);
    await context.close();
  });
});
