import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { addMember } from '../../src/modules/identity/identity.service.js';
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

  const startRunAs = async (key: string, sopId: string) =>
    body(
      await t.request({
        method: 'POST',
        url: '/api/v1/sop-runs',
        headers: { authorization: `Bearer ${key}` },
        payload: { sop_id: sopId },
      }),
    ).data as { id: string };

  const stepHeading = (page: Page, n: number, of: number) =>
    page.getByText(`Step ${n} of ${of}`, { exact: true });

  it('runs a whole SOP for an explant through the runner; the API reads back every step', async () => {
    const sop = await sopTitled('Subculture of shoot clusters');
    const [explant] = (await api('/api/v1/explants?limit=1')) as { id: string; label: string }[];
    const { context, page, problems } = await newPage(browser, TABLET);
    context.setDefaultTimeout(10_000);
    await signIn(page, t, demo.ownerId);

    // From the navigation to the SOP (on a tablet the bottom bar holds SOPs, a
    // technician's daily place), then the explant found by search.
    await page
      .getByRole('navigation', { name: 'Console (bottom bar)' })
      .getByRole('link', { name: 'SOPs' })
      .click();
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

    // Out of range: a deviation to document, not a typo. It is recorded as it is,
    // marked out of range, once a note says what happened.
    const reading = page.getByLabel('Sterilizer temperature (°C)');
    await reading.fill('300');
    const outside = page.getByRole('group', { name: /300 °C is out of range/ });
    await outside.getByText('this step expects 240 to 260 °C').waitFor();
    expect(await page.getByRole('button', { name: 'Record Sterilizer temperature' }).count()).toBe(
      0,
    );
    const recordOutside = outside.getByRole('button', { name: 'Record 300 °C as out of range' });
    await recordOutside.click();
    await outside.getByRole('alert').getByText('Say what happened').waitFor();
    expect(await trail(runId)).toHaveLength(1);
    await outside.getByLabel('What happened?').fill('Sterilizer fault, cycle repeated');
    await screenshotBothWidths(page, 'sop-runner-range');
    await tabletShot(page, 'sop-runner-range');
    await recordOutside.click();
    const here = page.getByRole('region', { name: 'Recorded at this step' });
    await here
      .getByText('Sterilizer temperature: 300 °C (Sterilizer fault, cycle repeated)')
      .waitFor();
    await here.locator('.chip', { hasText: 'out of range' }).waitFor();
    expect((await trail(runId))[1]).toEqual({
      step: 'step-2',
      type: 'measured',
      payload: {
        metric: 'Sterilizer temperature',
        value: 300,
        unit: '°C',
        notes: 'Sterilizer fault, cycle repeated',
      },
    });
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
    // A skip needs its reason.
    await page.locator('summary', { hasText: 'Skip this step' }).click();
    await page.getByRole('button', { name: 'Skip this step' }).click();
    await page.getByText('Say why the step is skipped').waitFor();
    expect(await trail(runId)).toHaveLength(7);
    await page.getByLabel('Why skip this step?').fill('No fresh medium left');
    await page.getByRole('button', { name: 'Skip this step' }).click();
    await stepHeading(page, 6, 7).waitFor();
    // Skipped, never shown as done.
    await page.getByRole('button', { name: 'Step 5 of 7, skipped' }).waitFor();
    await page.getByRole('button', { name: 'Done — next step' }).click();
    await stepHeading(page, 7, 7).waitFor();
    await page.getByRole('button', { name: 'Done', exact: true }).click();
    await page.getByRole('heading', { name: 'Finish the run' }).waitFor();
    // Nothing left empty; the skip is said, with its reason, before Complete.
    await page.getByText('1 step was skipped:').waitFor();
    expect(await page.locator('.finish-skipped li').allTextContents()).toEqual([
      'Step 5: Divide into clumps of 2-3 shoots and set them upright on fresh multiplication medium, 4-5 clumps per vessel. (No fresh medium left)',
    ]);
    expect(await page.locator('.finish-missing').count()).toBe(0);
    await page.getByRole('button', { name: 'Complete the run' }).click();
    // Not a plain green "completed": its words, in amber.
    const chip = page.locator('.screen-header .chip', {
      hasText: 'completed with 1 of 7 steps skipped',
    });
    await chip.waitFor();
    expect(await chip.getAttribute('class')).toContain('chip-warn');

    const run = await api(`/api/v1/sop-runs/${runId}`);
    expect(run).toMatchObject({
      status: 'completed',
      progress: 100,
      explantId: explant!.id,
      incompleteSteps: [],
      skippedSteps: [{ id: 'step-5', reason: 'No fresh medium left' }],
      statusDetail: 'completed with 1 of 7 steps skipped',
    });
    const photo = (await trail(runId)).find((e) => e.type === 'note' && 'asset_id' in e.payload)!;
    expect(await trail(runId)).toEqual([
      { step: 'step-1', type: 'confirmed', payload: {} },
      {
        step: 'step-2',
        type: 'measured',
        payload: {
          metric: 'Sterilizer temperature',
          value: 300,
          unit: '°C',
          notes: 'Sterilizer fault, cycle repeated',
        },
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
    await recorded
      .locator('li[data-step="step-5"][data-state="skipped"] .chip', { hasText: 'skipped' })
      .waitFor();
    await recorded.locator('li[data-step="step-2"] .chip', { hasText: 'out of range' }).waitFor();
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

  it('shows the steps not done before Complete and asks, listing them; a lab that wants every step says so, and its refusal in words', async () => {
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
    const completes: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(`/sop-runs/${runId}/complete`))
        completes.push(request.postDataJSON());
    });

    await stepHeading(page, 1, 6).waitFor();
    await page.getByRole('button', { name: 'Done — next step' }).click();
    await stepHeading(page, 2, 6).waitFor();
    await page.getByRole('button', { name: 'Finish the run' }).click();
    // Before anything is pressed: which steps are empty, each a way back to it.
    await page.getByText('5 of 6 steps have nothing recorded yet:').waitFor();
    const empty = page.locator('.finish-missing li');
    expect(await empty.count()).toBe(5);
    expect(await empty.first().textContent()).toMatch(/^Step 2: /);
    await page.getByRole('button', { name: 'Complete the run' }).click();
    const confirm = page.getByRole('group', { name: 'Complete with steps not done?' });
    await confirm
      .getByText('The run’s record will say “completed with 5 of 6 steps not done”')
      .waitFor();
    expect(await confirm.locator('li').count()).toBe(5);
    await screenshotBothWidths(page, 'sop-runner-incomplete');
    await tabletShot(page, 'sop-runner-incomplete');
    await page.setViewportSize(PHONE);
    await confirm.getByRole('button', { name: 'Go back' }).click();
    expect((await api(`/api/v1/sop-runs/${runId}`)).status).toBe('in_progress');
    expect(completes).toEqual([]);
    await page.getByRole('button', { name: 'Complete the run' }).click();
    await confirm.getByRole('button', { name: 'Complete, 5 steps not done' }).click();
    const chip = page.locator('.screen-header .chip', {
      hasText: 'completed with 5 of 6 steps not done',
    });
    await chip.waitFor();
    expect(await chip.getAttribute('class')).toContain('chip-warn');
    // The spec's complete, as any client sends it: no allow_incomplete_steps.
    expect(completes).toEqual([{ outcome: 'completed' }]);
    expect(await api(`/api/v1/sop-runs/${runId}`)).toMatchObject({
      status: 'completed',
      progress: 16.67,
      incompleteSteps: ['step-2', 'step-3', 'step-4', 'step-5', 'step-6'],
      statusDetail: 'completed with 5 of 6 steps not done',
    });
    const recorded = page.getByRole('region', { name: 'What was recorded' });
    expect(
      await recorded.locator('.run-record-steps h3 .chip', { hasText: 'not done' }).count(),
    ).toBe(5);

    // The runs list, filtered to the plant, says the same in the row's chip.
    await page.goto(`${t.base}/sop-runs?plant_id=${plant!.id}`);
    await page.getByRole('link', { name: sop.title }).first().waitFor();
    await page
      .locator('.row-status .chip', { hasText: 'completed with 5 of 6 steps not done' })
      .waitFor();
    await screenshotBothWidths(page, 'sop-runs');
    await page.goto(`${t.base}/sops`);
    await page.getByRole('link', { name: sop.title }).waitFor();
    await screenshotBothWidths(page, 'sops');
    await page.setViewportSize(PHONE);

    // A lab that completes a run only with every step recorded: turned on while the
    // runner is open, its refusal is explained in words; opened again, it is said first.
    const setting = (on: boolean) =>
      t.request({
        method: 'PATCH',
        url: '/api/v1/lab-settings',
        headers: { authorization: `Bearer ${demo.ownerKey}` },
        payload: { sop_runs_require_all_steps: on },
      });
    const second = (await startRunAs(demo.ownerKey, sop.id)).id;
    try {
      await page.goto(`${t.base}/sop-runs/${second}`);
      await stepHeading(page, 1, 6).waitFor();
      await page.getByRole('button', { name: 'Finish the run' }).click();
      await page.getByRole('button', { name: 'Complete the run' }).waitFor();
      expect((await setting(true)).statusCode).toBe(200);
      await page.getByRole('button', { name: 'Complete the run' }).click();
      await page.getByRole('button', { name: 'Complete, 6 steps not done' }).click();
      await page
        .getByText('The run was not completed: this lab completes a run only when every step')
        .waitFor();
      expect((await api(`/api/v1/sop-runs/${second}`)).status).toBe('in_progress');
      await page.reload();
      await stepHeading(page, 1, 6).waitFor();
      await page.getByRole('button', { name: 'Finish the run' }).click();
      await page.getByText('This lab completes a run only when every step has something').waitFor();
      expect(await page.getByRole('button', { name: 'Complete the run' }).count()).toBe(0);
      await screenshotBothWidths(page, 'sop-runner-require-all');
    } finally {
      expect((await setting(false)).statusCode).toBe(200);
    }

    // Another member may record the steps of a run the owner started, not close it.
    const mia = await inTransaction(t.database.db, (trx) =>
      addMember(trx, { workspaceId: demo.workspaceId, name: 'Mia Moreno', role: 'member' }),
    );
    const other = await newPage(browser, PHONE);
    await signIn(other.page, t, mia.id);
    await other.page.goto(`${t.base}/sop-runs/${second}`);
    await stepHeading(other.page, 1, 6).waitFor();
    await other.page.getByRole('button', { name: 'Finish the run' }).click();
    await other.page
      .getByText(/^Only .+, who started this run, or a manager, can close it\./)
      .waitFor();
    expect(await other.page.getByRole('button', { name: 'Complete the run' }).count()).toBe(0);
    await expectAccessible(other.page, 'a run another member started');
    expect([...problems, ...other.problems]).toEqual([]);
    await other.context.close();
    await context.close();
  }, 90_000);
});
