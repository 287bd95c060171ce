import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { addMember } from '../../src/modules/identity/identity.service.js';
import { demoPng } from '../../src/modules/demo/demo.photos.js';
import { body } from '../support/harness.js';
import {
  consoleSuite,
  DESKTOP,
  newPage,
  ownerApi,
  PHONE,
  screenshotBothWidths,
  signIn,
  signInLink,
} from '../support/browser.js';

/**
 * The record pages of plants and explants in headless Chromium, on each database:
 * the demo lab's records with their timeline, transfers, contaminations, photos,
 * comments and custom fields; each bench action done in the page and checked
 * through the API; a double submission that makes one record; the API's refusal
 * beside its field; what a viewer sees; axe and screenshots at 375 and 1440 px.
 */
consoleSuite(
  'record pages in Chromium',
  ({ browser, t, demo }) => {
    let people: { id: string; name: string }[];
    const { api, read, roomId } = ownerApi({ t, demo });
    const personId = (name: string) => people.find((p) => p.name === name)!.id;

    beforeAll(async () => {
      people = await read('/api/v1/people');
    });

    /** The page's own picture of a photo has loaded (its bytes came through). */
    const imageLoaded = async (page: Page, alt: string) => {
      await page.getByRole('img', { name: alt }).waitFor();
      // Photos load lazily: one far down a phone's page loads once scrolled near.
      await page.getByRole('img', { name: alt }).scrollIntoViewIfNeeded();
      // Polled from here: a predicate polled in the page would need eval, which its CSP refuses.
      const loaded = `[...document.images].some((i) => i.alt === ${JSON.stringify(alt)} && i.complete && i.naturalWidth > 0)`;
      await expect.poll(() => page.evaluate<boolean>(loaded), { timeout: 10_000 }).toBe(true);
    };

    it('opens a plant of the demo lab: its stage, timeline, explants, photo and custom fields', async () => {
      const [monstera] = await read('/api/v1/plants?q=thai');
      const { context, page, problems } = await newPage(browser, PHONE);
      await signIn(page, t, demo.ownerId);
      await page.goto(`${t.base}/plants/${monstera.id}`);
      await page
        .getByRole('heading', { level: 1, name: "Monstera 'Thai Constellation'" })
        .waitFor();
      const timeline = page.getByRole('region', { name: 'Stage timeline' });
      await timeline.getByText('Quarantine', { exact: true }).waitFor();
      const entries = timeline.locator('li');
      expect(await entries.count()).toBe(3);
      expect(await entries.first().textContent()).toContain('Propagation');
      expect(await entries.first().textContent()).toContain('current');
      // The room's name comes with the lab's rooms, which may load after the stages.
      await expect.poll(() => entries.first().textContent()).toContain('Growth Room A');
      const explants = page.getByRole('region', { name: 'Explants from this plant' });
      await explants.getByRole('link', { name: 'MON-TC-B01' }).waitFor();
      const fields = page.getByRole('region', { name: 'Custom fields' });
      await fields.getByText('MS-0142').waitFor();
      expect(await fields.textContent()).toContain('mother stock id');
      await imageLoaded(page, 'Mother plant before the spring harvest of nodes');
      await page.getByRole('region', { name: 'Transfers' }).getByText('No transfer').waitFor();
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
      await screenshotBothWidths(page, 'plant');
      // Its explants lead to their pages, and back to the plant.
      await explants.getByRole('link', { name: 'MON-TC-B01' }).click();
      await page.getByRole('heading', { level: 1, name: 'MON-TC-B01' }).waitFor();
      await page.getByRole('link', { name: "Monstera 'Thai Constellation'" }).click();
      await page.waitForURL(`${t.base}/plants/${monstera.id}`);
      expect(problems).toEqual([]);
      await context.close();
    });

    it('opens an explant of the demo lab: counts, transfers, photo, comments with mentions, contaminations', async () => {
      const [explant] = await read('/api/v1/explants?q=MON-TC-B01');
      const { context, page, problems } = await newPage(browser);
      await signIn(page, t, demo.ownerId);
      await page.goto(`${t.base}/explants/${explant.id}`);
      await page.getByRole('heading', { level: 1, name: 'MON-TC-B01' }).waitFor();
      await page.getByText('24 now (10 at the start)').waitFor();
      const transfers = page.getByRole('region', { name: 'Transfers' });
      await transfers.getByText('Transfer 3 · 24 vessels · 96 plantlets').waitFor();
      expect(await transfers.locator('li').count()).toBe(3);
      const timeline = page.getByRole('region', { name: 'Stage timeline' });
      await timeline.getByText('Multiplication').waitFor();
      const comments = page.getByRole('region', { name: 'Comments' });
      await comments.getByText('Clusters are dense again').waitFor();
      await page
        .getByRole('region', { name: 'Custom fields' })
        .getByText('MS + BAP 2 mg/L')
        .waitFor();
      await imageLoaded(page, 'MON-TC-B01, vessel 3: shoots after the second transfer');
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
      await screenshotBothWidths(page, 'explant');

      // The contaminated Anthurium batch: its log links to its page, the thread names Luis.
      const [anthurium] = await read('/api/v1/explants?q=ANT-WAR-B01');
      const [log] = await read(`/api/v1/contaminations?explant_id=${anthurium.id}`);
      await page.goto(`${t.base}/explants/${anthurium.id}`);
      const logs = page.getByRole('region', { name: 'Contaminations' });
      const link = logs.getByRole('link', { name: log.issue });
      await link.waitFor();
      expect(await link.getAttribute('href')).toBe(`/contaminations/${log.id}`);
      // Open, so the header says so beside the status.
      await page.getByRole('link', { name: 'open contamination' }).waitFor();
      const mention = page.getByRole('region', { name: 'Comments' }).locator('.mention');
      await mention.first().waitFor();
      expect(await mention.first().textContent()).toBe('@Luis Ortega');
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
      await screenshotBothWidths(page, 'explant-contaminated');
      expect(problems).toEqual([]);
      await context.close();
    });

    /** The element that has the focus: its id, or its text when it has none. */
    const focused = (page: Page) =>
      page.evaluate<string>(
        `document.activeElement ? (document.activeElement.id || document.activeElement.textContent || '') : ''`,
      );

    it('sets the first stage of an explant with none, and records a transfer with counts; focus stays with the work; a double click records one transfer', async () => {
      const roomB = await roomId('Growth Room B');
      // Made by a client as the spec has it: no stage until one is posted.
      const made = await api('POST', '/api/v1/explants', { label: 'TEST-B1', initial_count: 4 });
      const explant = body(made).data;
      expect(explant.current_stage).toBeNull();
      const { context, page, problems } = await newPage(browser, PHONE);
      await signIn(page, t, demo.ownerId);
      await page.goto(`${t.base}/explants/${explant.id}`);
      await page.getByRole('heading', { level: 1, name: 'TEST-B1' }).waitFor();
      // No stage yet: said in the header and the facts, with the way to set one.
      await page.locator('.screen-header .chip', { hasText: 'No stage yet' }).waitFor();
      await page.locator('.record-facts').getByText('No stage yet').waitFor();
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
      await screenshotBothWidths(page, 'explant-no-stage');
      await page.setViewportSize(PHONE);
      await page.getByRole('button', { name: 'Set its stage' }).click();
      const move = page.getByRole('form', { name: 'Set the first stage' });
      // The form takes the focus into its first field; the lab's first stage is offered.
      await expect.poll(() => focused(page)).toBe('field-stage');
      const first = await move
        .getByLabel('New stage')
        .locator('option')
        .first()
        .getAttribute('value');
      expect(await move.getByLabel('New stage').inputValue()).toBe(first);
      await move.getByLabel('New stage').selectOption({ label: 'Multiplication' });
      await move.getByLabel('Room').selectOption({ label: 'Growth Room B' });
      await screenshotBothWidths(page, 'explant-move-stage');
      await page.setViewportSize(PHONE);
      // Another form asked for while this one holds a choice: asked first, nothing lost.
      await page.getByRole('button', { name: 'Record transfer' }).click();
      const replace = page.getByRole('group', { name: 'Discard the open form?' });
      await replace.waitFor();
      await expect.poll(() => focused(page)).toBe('Keep typing');
      await replace.getByRole('button', { name: 'Keep typing' }).click();
      expect(await move.getByLabel('New stage').inputValue()).toBe('multiplication');
      await move.getByRole('button', { name: 'Move' }).click();
      await page.getByRole('status').getByText('Moved to Multiplication.').waitFor();
      // After the save the focus is back on the action, not at the top of the page.
      await expect.poll(() => focused(page)).toBe('Move stage');
      const moved = await read(`/api/v1/explants/${explant.id}`);
      expect(moved.current_stage).toMatchObject({ stage: 'multiplication', room_id: roomB });
      expect(await read(`/api/v1/stages?explant_id=${explant.id}`)).toHaveLength(1);
      const timeline = page.getByRole('region', { name: 'Stage timeline' });
      await timeline.locator('li').first().waitFor();
      await expect
        .poll(() => timeline.locator('li').first().textContent())
        .toContain('Multiplication');
      expect(await page.locator('.screen-header .chip', { hasText: 'No stage yet' }).count()).toBe(
        0,
      );

      const keys: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && request.url() === `${t.base}/api/v1/transfers`) {
          keys.push(request.headers()['idempotency-key'] ?? '');
        }
      });
      await page.getByRole('button', { name: 'Record transfer' }).click();
      const transfer = page.getByRole('form', { name: 'Record a transfer onto fresh medium' });
      // Digits typed at once land in the first field.
      await expect.poll(() => focused(page)).toBe('field-vessel_count');
      await page.keyboard.type('9');
      expect(await transfer.getByLabel('Vessels now').inputValue()).toBe('9');
      await transfer.getByLabel('Plantlets now').fill('31');
      await screenshotBothWidths(page, 'explant-transfer');
      await page.setViewportSize(PHONE);
      await transfer.getByRole('button', { name: 'Record transfer' }).dblclick();
      await page.getByRole('status').getByText('Transfer 1 recorded.').waitFor();
      const transfers = await read(`/api/v1/transfers?explant_id=${explant.id}`);
      expect(transfers).toHaveLength(1);
      expect(transfers[0]).toMatchObject({
        vessel_count: 9,
        plantlet_count: 31,
        transfer_cycle: 1,
      });
      expect(await read(`/api/v1/explants/${explant.id}`)).toMatchObject({
        current_count: 9,
        plantlet_count: 31,
      });
      expect(keys.length).toBeGreaterThanOrEqual(1);
      expect(new Set(keys).size).toBe(1);
      await page
        .getByRole('region', { name: 'Transfers' })
        .getByText('Transfer 1 · 9 vessels · 31 plantlets')
        .waitFor();
      await page.getByText('9 now (4 at the start)').waitFor();
      await expect.poll(() => focused(page)).toBe('Record transfer');

      // A transfer without counts is asked about first; so is one down to 0 vessels.
      await page.getByRole('button', { name: 'Record transfer' }).click();
      await transfer.getByRole('button', { name: 'Record transfer' }).click();
      const ask = transfer.getByRole('group', { name: 'Before sending' });
      await ask.getByText('No counts given').waitFor();
      await ask.getByRole('button', { name: 'Go back to the counts' }).click();
      await expect.poll(() => focused(page)).toBe('field-vessel_count');
      await transfer.getByLabel('Vessels now').fill('0');
      await transfer.getByRole('button', { name: 'Record transfer' }).click();
      await ask.getByText('0 vessels: nothing of this culture is left').waitFor();
      await screenshotBothWidths(page, 'explant-transfer-zero');
      await page.setViewportSize(PHONE);
      expect(await read(`/api/v1/transfers?explant_id=${explant.id}`)).toHaveLength(1);
      await ask.getByRole('button', { name: 'Record 0 vessels' }).click();
      await page.getByRole('status').getByText('Transfer 2 recorded.').waitFor();
      // At 0 vessels it reads as such, and is offered to be marked lost or discarded.
      await page.locator('.screen-header .chip', { hasText: 'no vessels left' }).waitFor();
      const empty = page.getByRole('region', { name: 'No vessels left' });
      await empty.getByText('yet it still reads as active').waitFor();
      await screenshotBothWidths(page, 'explant-empty');
      await page.setViewportSize(PHONE);
      await empty.getByRole('button', { name: 'Mark as lost' }).click();
      await page.getByRole('status').getByText('Marked as lost.').waitFor();
      expect(await read(`/api/v1/explants/${explant.id}`)).toMatchObject({
        current_count: 0,
        status: 'lost',
      });
      await expect
        .poll(() => page.getByRole('region', { name: 'No vessels left' }).count())
        .toBe(0);
      expect(problems).toEqual([]);
      await context.close();
    });

    it("reports a contamination (the API's refusal beside its field) and comments with a mention, once after a dropped answer", async () => {
      const explant = body(await api('POST', '/api/v1/explants', { label: 'TEST-C1' })).data;
      const { context, page, problems } = await newPage(browser);
      await signIn(page, t, demo.ownerId);
      await page.goto(`${t.base}/explants/${explant.id}`);
      await page.getByRole('button', { name: 'Report contamination' }).click();
      const report = page.getByRole('form', { name: 'Report a contamination' });
      await report.getByLabel('What do you see?').fill('Pink film on the medium surface');
      await report.getByLabel('What kind').selectOption('other');
      await report.getByLabel('Vessels affected').fill('2');
      await report.getByRole('button', { name: 'Report' }).click();
      // The API's own words, next to the field it names, which they call by its label.
      const error = report.locator('#type_other-error');
      await error.waitFor();
      expect(await error.textContent()).toBe('Describe the kind: required when type is other');
      // The limits stand in the fields up front.
      expect(await report.getByLabel('What do you see?').getAttribute('maxlength')).toBe('300');
      expect(await report.getByLabel('Describe the kind').getAttribute('aria-invalid')).toBe(
        'true',
      );
      expect(await read(`/api/v1/contaminations?explant_id=${explant.id}`)).toEqual([]);
      await screenshotBothWidths(page, 'explant-contamination-error');
      await page.setViewportSize(DESKTOP);
      await report.getByLabel('Describe the kind').fill('Pink slime');
      await report.getByRole('button', { name: 'Report' }).click();
      await page.getByRole('status').getByText('Contamination reported.').waitFor();
      const [log] = await read(`/api/v1/contaminations?explant_id=${explant.id}`);
      expect(log).toMatchObject({
        type: 'other',
        type_other: 'Pink slime',
        issue: 'Pink film on the medium surface',
        vessels_affected: 2,
        status: 'active',
        explant_ids: [explant.id],
      });
      const link = page
        .getByRole('region', { name: 'Contaminations' })
        .getByRole('link', { name: 'Pink film on the medium surface' });
      expect(await link.getAttribute('href')).toBe(`/contaminations/${log.id}`);

      // A comment of only spaces is refused, in words naming the field as the form does.
      const box = page.getByLabel('Comment', { exact: true });
      await box.fill('   ');
      await page.getByRole('button', { name: 'Comment', exact: true }).click();
      await page.locator('#body-error').getByText('Comment: must not be blank').waitFor();
      expect(await read(`/api/v1/comments?entity_type=explant&entity_id=${explant.id}`)).toEqual(
        [],
      );

      // The first answer is lost on the way back: the comment was saved, the page did not hear.
      let dropped = false;
      await page.route(`${t.base}/api/v1/comments`, async (route) => {
        if (route.request().method() !== 'POST' || dropped) return route.continue();
        dropped = true;
        await route.fetch();
        await route.abort('aborted');
      });
      await box.fill('Moved the two vessels out. @Lu');
      await page.getByRole('button', { name: 'Mention Luis Ortega' }).click();
      // The caret is placed after the name on the next frame: type after it.
      await page.evaluate('new Promise((done) => requestAnimationFrame(() => done(null)))');
      await box.press('End');
      await box.type('please check the hood');
      await screenshotBothWidths(page, 'explant-comment');
      await page.setViewportSize(DESKTOP);
      await page.getByRole('button', { name: 'Comment', exact: true }).click();
      // No answer: the comment is kept on the device, and sent again at once with its
      // one Idempotency-Key (the browser is online): the same submission, made once.
      await page.getByRole('status').getByText('Saved on this device: waiting to send.').waitFor();
      await expect
        .poll(() => read(`/api/v1/comments?entity_type=explant&entity_id=${explant.id}`))
        .toHaveLength(1);
      await page.reload();
      const comments = await read(`/api/v1/comments?entity_type=explant&entity_id=${explant.id}`);
      expect(comments).toHaveLength(1);
      expect(comments[0]).toMatchObject({
        body: 'Moved the two vessels out. @Luis Ortega please check the hood',
        mentioned_user_ids: [personId('Luis Ortega')],
        author: { id: demo.ownerId },
      });
      const shown = page.getByRole('region', { name: 'Comments' }).locator('.mention');
      expect(await shown.textContent()).toBe('@Luis Ortega');
      expect(problems).toEqual([]);
      await context.close();
    });

    it('takes a photo that lands on the plant, then archives the plant made by mistake and restores it', async () => {
      const plant = body(
        await api('POST', '/api/v1/plants', {
          species: 'Ficus lyrata',
          common_name: 'Fiddle leaf, by mistake',
        }),
      ).data;
      const photo = demoPng([200, 230, 200], [30, 90, 40]);
      const { context, page, problems } = await newPage(browser, PHONE);
      await signIn(page, t, demo.ownerId);
      await page.goto(`${t.base}/plants/${plant.id}`);
      await page.getByRole('heading', { level: 1, name: 'Fiddle leaf, by mistake' }).waitFor();
      // The camera input a phone opens from "Take a photo".
      const input = page.locator('input[type=file]');
      expect(await input.getAttribute('accept')).toBe('image/*');
      expect(await input.getAttribute('capture')).toBe('environment');
      expect(
        await page.locator('label[for="field-photo"]', { hasText: 'Take a photo' }).count(),
      ).toBe(1);
      await input.setInputFiles({ name: 'leaf.png', mimeType: 'image/png', buffer: photo });
      await page.getByLabel('Caption').fill('New leaf, day one');
      await page.getByRole('button', { name: 'Add photo' }).click();
      await page.getByRole('status').getByText('Photo added.').waitFor();
      await imageLoaded(page, 'New leaf, day one');
      const [asset] = await read(`/api/v1/assets?target=plant&target_id=${plant.id}`);
      expect(asset).toMatchObject({
        target: 'plant',
        target_id: plant.id,
        file_name: 'leaf.png',
        content_type: 'image/png',
        caption: 'New leaf, day one',
        uploaded_by: demo.ownerId,
      });
      const link = new URL(asset.view_url);
      const bytes = await t.request({ method: 'GET', url: link.pathname + link.search });
      expect(bytes.statusCode).toBe(200);
      expect(Buffer.compare(bytes.rawPayload, photo)).toBe(0);
      await screenshotBothWidths(page, 'plant-photo');
      await page.setViewportSize(PHONE);

      await page.getByRole('button', { name: 'Archive' }).click();
      const confirm = page.getByRole('form', { name: 'Archive Fiddle leaf, by mistake?' });
      await confirm.getByLabel('Why (optional)').fill('Entered twice');
      await screenshotBothWidths(page, 'plant-archive');
      await confirm.getByRole('button', { name: 'Yes, archive' }).click();
      await page.getByRole('status').getByText('Archived.').waitFor();
      expect((await read(`/api/v1/plants/${plant.id}`)).archived_at).not.toBeNull();
      const listed = (await read('/api/v1/plants?q=fiddle')) as { id: string }[];
      expect(listed.map((p) => p.id)).not.toContain(plant.id);
      // An archived record takes no bench work; it can be restored.
      await page.getByRole('button', { name: 'Restore' }).waitFor();
      await page.getByText('It is left out of lists').waitFor();
      expect(await page.getByRole('button', { name: 'Move stage' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Restore' }).click();
      await page.getByRole('status').getByText('Restored from the archive.').waitFor();
      expect((await read(`/api/v1/plants/${plant.id}`)).archived_at).toBeNull();
      expect(problems).toEqual([]);
      await context.close();
    });

    it('takes a person opening a plant or explant signed out through sign-in and back to it', async () => {
      const [explant] = await read('/api/v1/explants?q=ALO-FR-B03');
      const { context, page, problems } = await newPage(browser, PHONE);
      await page.goto(`${t.base}/explants/${explant.id}`);
      await page.waitForURL(/\/signed-out\?next=/);
      await page.goto(await signInLink(t, demo.ownerId));
      await page.waitForURL(`${t.base}/explants/${explant.id}`);
      await page.getByRole('heading', { level: 1, name: 'ALO-FR-B03' }).waitFor();
      const [plant] = await read('/api/v1/plants?q=frydek');
      const other = await newPage(browser, PHONE);
      await other.page.goto(`${t.base}/plants/${plant.id}`);
      await other.page.waitForURL(/\/signed-out\?next=/);
      await other.page.goto(await signInLink(t, demo.ownerId));
      await other.page.waitForURL(`${t.base}/plants/${plant.id}`);
      await other.page.getByRole('heading', { level: 1, name: "Alocasia 'Frydek'" }).waitFor();
      expect([...problems, ...other.problems]).toEqual([]);
      await other.context.close();
      await context.close();
    });

    it("offers a member Move stage and Archive on their own cultures only, saying why on another's; the API's rule stays", async () => {
      const mia = await inTransaction(t.database.db, (trx) =>
        addMember(trx, { workspaceId: demo.workspaceId, name: 'Mia Moreno', role: 'member' }),
      );
      const [theirs] = await read('/api/v1/explants?q=MON-TC-B01');
      const { context, page, problems } = await newPage(browser, PHONE);
      await signIn(page, t, mia.id);
      await page.goto(`${t.base}/explants/${theirs.id}`);
      await page.getByRole('heading', { level: 1, name: 'MON-TC-B01' }).waitFor();
      // Before any form: what she may not do here, and who may.
      const rule = page.locator('#record-rule');
      await rule.waitFor();
      expect(await rule.textContent()).toMatch(
        /^Moving this explant to another stage or archiving it is for .+, who created it, or a manager\./,
      );
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
      expect(await page.getByRole('button', { name: 'Move stage' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Archive' }).count()).toBe(0);
      // Bench work on anyone's culture stays hers to record.
      await page.getByRole('button', { name: 'Record transfer' }).waitFor();
      await page.getByRole('button', { name: 'Report contamination' }).waitFor();
      await screenshotBothWidths(page, 'explant-member-others');
      // The API refuses her as before: the console only stopped offering it.
      const forced = await page.evaluate(`fetch('/api/v1/stages', { method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ explant_id: ${JSON.stringify(theirs.id)}, stage: 'elongation' }) })
        .then(async (r) => [r.status, (await r.json()).code])`);
      expect(forced).toEqual([403, 'STAGE_WRITE_FORBIDDEN']);

      // Her own culture: both are hers.
      const made = await page.evaluate<{ id: string }>(`fetch('/api/v1/explants', { method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ label: 'MIA-1', initial_stage: 'initiation' }) })
        .then(async (r) => (await r.json()).data)`);
      expect((await read(`/api/v1/explants/${made.id}`)).created_by).toBe(mia.id);
      await page.goto(`${t.base}/explants/${made.id}`);
      await page.getByRole('heading', { level: 1, name: 'MIA-1' }).waitFor();
      await page.getByRole('button', { name: 'Move stage' }).waitFor();
      await page.getByRole('button', { name: 'Archive' }).waitFor();
      expect(await page.locator('#record-rule').count()).toBe(0);
      await page.getByRole('button', { name: 'Move stage' }).click();
      const move = page.getByRole('form', { name: 'Move to another stage' });
      await move.getByRole('button', { name: 'Move' }).click();
      await page
        .getByRole('status')
        .getByText(/^Moved to /)
        .waitFor();
      expect(await read(`/api/v1/stages?explant_id=${made.id}`)).toHaveLength(2);
      expect(problems).toEqual([]);
      await context.close();
    });

    it('shows a viewer the record with no write buttons, and refuses a forced write', async () => {
      const viewer = await inTransaction(t.database.db, (trx) =>
        addMember(trx, { workspaceId: demo.workspaceId, name: 'Vera Viewer', role: 'viewer' }),
      );
      const [explant] = await read('/api/v1/explants?q=MON-TC-B01');
      const before = await read(`/api/v1/explants/${explant.id}`);
      const { context, page, problems } = await newPage(browser, PHONE);
      await signIn(page, t, viewer.id);
      await page.goto(`${t.base}/explants/${explant.id}`);
      await page.getByRole('heading', { level: 1, name: 'MON-TC-B01' }).waitFor();
      await page
        .getByRole('region', { name: 'Comments' })
        .getByText('Clusters are dense')
        .waitFor();
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
      const writes = page.getByRole('button', {
        name: /move|record|report|photo|archive|restore|comment|mention/i,
      });
      expect(await writes.count()).toBe(0);
      expect(
        await page.locator('input[type=file], textarea, form:not([role=search])').count(),
      ).toBe(0);
      await screenshotBothWidths(page, 'explant-viewer');
      const forced = await page.evaluate(`Promise.all([
        fetch('/api/v1/stages', { method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ explant_id: ${JSON.stringify(explant.id)}, stage: 'elongation' }) }).then((r) => r.status),
        fetch('/api/v1/comments', { method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ entity_type: 'explant', entity_id: ${JSON.stringify(explant.id)}, body: 'sneaky' }) }).then((r) => r.status),
      ])`);
      expect(forced).toEqual([403, 403]);
      const after = await read(`/api/v1/explants/${explant.id}`);
      expect(after.current_stage).toEqual(before.current_stage);
      const comments = (await read(
        `/api/v1/comments?entity_type=explant&entity_id=${explant.id}`,
      )) as { body: string }[];
      expect(comments.some((c) => c.body === 'sneaky')).toBe(false);
      expect(problems).toEqual([]);
      await context.close();
    });
  },
  { photos: true },
);
