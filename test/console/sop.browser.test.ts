import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { body } from '../support/harness.js';
import {
  consoleSuite,
  expectAccessible,
  newPage,
  PHONE,
  screenshotBothWidths,
  signIn,
} from '../support/browser.js';
import { REPO_ROOT } from '../support/node-script.js';

/** A tablet on a stand at the flow hood, portrait. */
const TABLET = { width: 820, height: 1180 } as const;
const PNG = readFileSync(join(REPO_ROOT, 'test', 'files', 'fixtures', 'tiny.png'));

/**
 * SOPs and the bench runner in headless Chromium, on each database: a whole run
 * done through the runner (a reading stopped before it is sent, the API's refusal
 * when one is forced past the check, a photo, a note, a skip, going back, resuming
 * after a reload) read back from the API; completing early refused, then done
 * explicitly. One browser for the file.
 */
consoleSuite('SOPs and runs in Chromium', ({ browser, t, demo }) => {
  const api = async (url: string) =>
    body(
      await t.request({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${demo.ownerKey}` },
      }),
    ).data;
  const sopTitled = async (title: string) =>
    ((await api('/api/v1/sops?limit=50')) as { id: string; title: string }[]).find(
      (s) => s.title === title,
    )!;
  const trail = async (runId: string) =>
    (
      (await api(`/api/v1/sop-runs/${runId}/events?limit=200`)) as {
        stepKey: string;
        eventType: string;
        payload: Record<string, unknown>;
      }[]
    ).map((e) => ({ step: e.stepKey, type: e.eventType, payload: e.payload }));

  async function tabletShot(page: Page, name: string) {
    const dir = join(REPO_ROOT, 'test', '.screenshots');
    mkdirSync(dir, { recursive: true });
    await page.setViewportSize(TABLET);
    await page.screenshot({ path: join(dir, `${name}-${TABLET.width}.png`) });
    await expectAccessible(page, `${name} at ${TABLET.width} px`);
  }

  const stepHeading = (page: Page, n: number, of: number) =>
    page.getByText(`Step ${n} of ${of}`, { exact: true });

  it('runs a whole SOP for an explant through the runner; the API reads back every step', async () => {
    const sop = await sopTitled('Subculture of shoot clusters');
    const [explant] = (await api('/api/v1/explants?limit=1')) as { id: string; label: string }[];
    const { context, page, problems } = await newPage(browser, TABLET);
    context.setDefaultTimeout(10_000);
    await signIn(page, t, demo.ownerId);

    // From the navigation to the SOP (on a tablet the bottom bar holds Today, Plants,
    // Explants and Tasks; the account menu the other places), then the explant found
    // by search.
    await page.getByRole('button', { name: /Account/ }).click();
    await page.locator('#account-menu').getByRole('link', { name: 'SOPs' }).click();
    await page.getByRole('link', { name: sop.title }).click();
    await page.waitForURL(`**/sops/${sop.id}`);
    const start = page.getByRole('region', { name: 'Start a run' });
    await start.getByLabel('Find the explant').fill(explant!.label);
    await start.getByRole('button', { name: 'Find', exact: true }).click();
    await start
      .getByRole('button', { name: `Choose ${explant!.label}` })
      .first()
      .click();
    await page.getByRole('button', { name: 'Start the run' }).click();
    await page.waitForURL(/\/sop-runs\/[0-9a-f-]{36}$/);
    const runId = new URL(page.url()).pathname.split('/').pop()!;

    await stepHeading(page, 1, 7).waitFor();
    await page.getByRole('button', { name: 'Done — next step' }).click();
    await stepHeading(page, 2, 7).waitFor();

    // Out of range: stopped in the page, nothing sent.
    const reading = page.getByLabel('Sterilizer temperature (°C)');
    const record = page.getByRole('button', { name: 'Record Sterilizer temperature' });
    await reading.fill('300');
    await record.click();
    await page.getByText('300 °C is out of range: this step accepts 240 to 260 °C').waitFor();
    expect(await reading.getAttribute('aria-invalid')).toBe('true');
    expect(await trail(runId)).toHaveLength(1);
    await screenshotBothWidths(page, 'sop-runner-range');
    await tabletShot(page, 'sop-runner-range');

    // Forced past the check (the request rewritten on its way): the API's own words, by the field.
    await page.route('**/measurements', (route) =>
      route.continue({
        postData: JSON.stringify({ ...route.request().postDataJSON(), value: 300 }),
      }),
    );
    await reading.fill('250');
    await record.click();
    await page
      .getByText(
        'Sterilizer temperature 300 °C is out of range: this step accepts from 240 to 260 °C',
      )
      .waitFor();
    await page.unroute('**/measurements');
    expect(await trail(runId)).toHaveLength(1);
    await reading.fill('250');
    await record.click();
    await page.getByText('Sterilizer temperature: 250 °C').first().waitFor();
    await page.getByRole('button', { name: 'Done — next step' }).click();

    // A photo from the camera input, then a note.
    await stepHeading(page, 3, 7).waitFor();
    await page
      .locator('input[type=file][capture=environment]')
      .setInputFiles({ name: 'vessel.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('region', { name: 'Recorded at this step' }).getByText('Photo').waitFor();
    await page.getByRole('button', { name: 'Done — next step' }).click();
    await stepHeading(page, 4, 7).waitFor();
    await page.locator('summary', { hasText: 'Add a note' }).click();
    await page.getByRole('textbox', { name: 'Add a note' }).fill('Two clusters browned');
    await page.getByRole('button', { name: 'Save note' }).click();
    await page.getByText('Note: Two clusters browned').first().waitFor();
    await page.getByRole('button', { name: 'Done — next step' }).click();
    await stepHeading(page, 5, 7).waitFor();

    // Resume: a reload opens the first step with nothing recorded.
    await page.reload();
    await stepHeading(page, 5, 7).waitFor();
    // Back, and on again without recording.
    await page.getByRole('button', { name: '← Back' }).click();
    await stepHeading(page, 4, 7).waitFor();
    await page.getByRole('button', { name: 'Next without recording →' }).click();
    await stepHeading(page, 5, 7).waitFor();
    await page.locator('summary', { hasText: 'Skip this step' }).click();
    await page.getByLabel('Why skip? (optional)').fill('No fresh medium left');
    await page.getByRole('button', { name: 'Skip this step' }).click();
    await stepHeading(page, 6, 7).waitFor();
    await page.getByRole('button', { name: 'Done — next step' }).click();
    await stepHeading(page, 7, 7).waitFor();
    await page.getByRole('button', { name: 'Done', exact: true }).click();
    await page.getByRole('heading', { name: 'Finish the run' }).waitFor();
    await page.getByText('Every step has something recorded.').waitFor();
    await page.getByRole('button', { name: 'Complete the run' }).click();
    await page.locator('.screen-header .chip', { hasText: 'completed' }).waitFor();

    const run = await api(`/api/v1/sop-runs/${runId}`);
    expect(run).toMatchObject({ status: 'completed', progress: 100, explantId: explant!.id });
    const photo = (await trail(runId)).find((e) => e.type === 'note' && 'asset_id' in e.payload)!;
    expect(await trail(runId)).toEqual([
      { step: 'step-1', type: 'confirmed', payload: {} },
      {
        step: 'step-2',
        type: 'measured',
        payload: { metric: 'Sterilizer temperature', value: 250, unit: '°C' },
      },
      { step: 'step-2', type: 'confirmed', payload: {} },
      {
        step: 'step-3',
        type: 'note',
        payload: { asset_id: photo.payload.asset_id, kind: 'photo' },
      },
      { step: 'step-3', type: 'confirmed', payload: {} },
      { step: 'step-4', type: 'note', payload: { text: 'Two clusters browned' } },
      { step: 'step-4', type: 'confirmed', payload: {} },
      { step: 'step-5', type: 'skipped', payload: { reason: 'No fresh medium left' } },
      { step: 'step-6', type: 'confirmed', payload: {} },
      { step: 'step-7', type: 'confirmed', payload: {} },
    ]);
    const asset = await api(`/api/v1/assets/${String(photo.payload.asset_id)}`);
    expect(asset).toMatchObject({ target: 'explant', target_id: explant!.id });

    // The run's page afterwards: its record, step by step, as the API has it.
    const recorded = page.getByRole('region', { name: 'What was recorded' });
    await recorded.locator('img').waitFor();
    // A string, evaluated in the page (the tests' own TypeScript knows no DOM).
    const shown = await page.evaluate<[string, string[]][]>(
      `Array.from(document.querySelectorAll('.run-record li[data-step]')).map((li) => [
          li.getAttribute('data-step'),
          Array.from(li.querySelectorAll('li[data-event-type]')).map((e) => e.getAttribute('data-event-type')),
        ])`,
    );
    const byStep = new Map<string, string[]>();
    for (const e of await trail(runId)) byStep.set(e.step, [...(byStep.get(e.step) ?? []), e.type]);
    expect(shown).toEqual([...byStep.entries()]);
    await expect(recorded.getByText('Skipped: No fresh medium left').count()).resolves.toBe(1);
    // Each piece says who recorded it: the owner, by name from the people directory.
    const people = (await api('/api/v1/people?limit=200')) as { id: string; name: string }[];
    const owner = people.find((p) => p.id === demo.ownerId)!.name;
    const pieces = recorded.locator('li[data-event-type]');
    await pieces.first().getByText(`by ${owner}`).waitFor();
    const sayWho = await pieces.allTextContents();
    expect(sayWho).toHaveLength(10);
    for (const text of sayWho) expect(text).toContain(`by ${owner}`);
    expect(await page.getByRole('button', { name: 'Done — next step' }).count()).toBe(0);
    await screenshotBothWidths(page, 'sop-run-record');
    await tabletShot(page, 'sop-run-record');
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);

  it('refuses to complete a run with steps not done, then completes it when asked explicitly', async () => {
    const sop = await sopTitled('MS medium with BAP (1 L)');
    const [plant] = (await api('/api/v1/plants?limit=1')) as { id: string; name: string }[];
    const { context, page, problems } = await newPage(browser, PHONE);
    context.setDefaultTimeout(10_000);
    await signIn(page, t, demo.ownerId);
    // Arriving from a plant's page: the plant is already chosen.
    await page.goto(`${t.base}/sops/${sop.id}?plant_id=${plant!.id}`);
    const picked = page.getByRole('region', { name: 'Start a run' }).locator('.picked strong');
    await expect.poll(() => picked.textContent()).toBe(plant!.name);
    await screenshotBothWidths(page, 'sop');
    await tabletShot(page, 'sop');
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Start the run' }).click();
    await page.waitForURL(/\/sop-runs\/[0-9a-f-]{36}$/);
    const runId = new URL(page.url()).pathname.split('/').pop()!;
    expect(await api(`/api/v1/sop-runs/${runId}`)).toMatchObject({ plantId: plant!.id });

    await stepHeading(page, 1, 6).waitFor();
    await page.getByRole('button', { name: 'Done — next step' }).click();
    await stepHeading(page, 2, 6).waitFor();
    await page.getByRole('button', { name: 'Finish the run' }).click();
    await page.getByText('5 of 6 steps have nothing recorded yet: 2, 3, 4, 5, 6.').waitFor();
    await page.getByRole('button', { name: 'Complete the run' }).click();
    // The API's refusal, in its words, and the explicit way on.
    await page.getByText('5 of 6 steps have no evidence (step-2, step-3').waitFor();
    expect((await api(`/api/v1/sop-runs/${runId}`)).status).toBe('in_progress');
    await screenshotBothWidths(page, 'sop-runner-incomplete');
    await tabletShot(page, 'sop-runner-incomplete');
    await page.getByRole('button', { name: 'Complete anyway, with 5 steps not done' }).click();
    await page.locator('.screen-header .chip', { hasText: 'completed' }).waitFor();
    expect(await api(`/api/v1/sop-runs/${runId}`)).toMatchObject({
      status: 'completed',
      progress: 16.67,
    });

    // The runs list, filtered to the plant, leads back to it.
    await page.goto(`${t.base}/sop-runs?plant_id=${plant!.id}`);
    await page.getByRole('link', { name: sop.title }).first().waitFor();
    await screenshotBothWidths(page, 'sop-runs');
    await page.goto(`${t.base}/sops`);
    await page.getByRole('link', { name: sop.title }).waitFor();
    await screenshotBothWidths(page, 'sops');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);
});
