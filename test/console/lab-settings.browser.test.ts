import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { addMember } from '../../src/modules/identity/identity.service.js';
import { body } from '../support/harness.js';
import {
  consoleSuite,
  DESKTOP,
  expectAccessible,
  newPage,
  PHONE,
  screenshotBothWidths,
  signIn,
} from '../support/browser.js';

/**
 * Lab settings in headless Chromium, on each database: a lab manager sets up the lab
 * from the console (rooms, stage lists, SOPs with versions, equipment, the general
 * settings), each change read back from the API; a member sees the same screens
 * read-only, told who may change them. axe-core and screenshots on every screen.
 */
consoleSuite('Lab settings in Chromium', ({ browser, t, demo }) => {
  const api = async (url: string) =>
    body(
      await t.request({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${demo.ownerKey}` },
      }),
    ).data;

  const manager = async () =>
    inTransaction(t.database.db, (trx) =>
      addMember(trx, {
        workspaceId: demo.workspaceId,
        name: `Mara Manager ${Math.random().toString(36).slice(2, 6)}`,
        role: 'manager',
      }),
    );

  /**
   * A form opened by a button takes the focus into its first field once it shows: wait
   * for that, so what the test types next is not cut off by it.
   */
  const opened = (page: Page, firstField: string) =>
    page.locator(`#field-${firstField}:focus`).waitFor();

  const openSection = async (page: Page, section: string) => {
    await page.goto(`${t.base}/settings`);
    await page
      .getByRole('navigation', { name: 'Lab settings' })
      .getByRole('link', { name: section, exact: true })
      .click();
    await page.getByRole('heading', { level: 1, name: section }).waitFor();
  };

  it('reaches Lab settings from the account menu; an admin changes the general settings', async () => {
    const { context, page, problems } = await newPage(browser, PHONE);
    context.setDefaultTimeout(10_000);
    await signIn(page, t, demo.ownerId);
    await page.getByRole('button', { name: /Account/ }).click();
    await page.getByRole('link', { name: 'Lab settings' }).click();
    await page.waitForURL('**/settings');
    await page.getByRole('heading', { level: 1, name: 'Lab settings' }).waitFor();
    const general = page.getByRole('form', { name: 'General' });
    await general.getByLabel('Subculture interval (days)').fill('21');
    await general.getByLabel('Time zone').fill('Europe/Nowhere');
    await general.getByRole('button', { name: 'Save settings' }).click();
    // The API's refusal, beside the field it names; nothing changed.
    await general.locator('#time_zone-error').waitFor();
    expect(((await api('/api/v1/lab-settings')) as { time_zone: string }).time_zone).toBe('UTC');
    await general.getByLabel('Time zone').fill('Europe/Berlin');
    await general.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Settings saved.').waitFor();
    expect(await api('/api/v1/lab-settings')).toMatchObject({
      subculture_interval_days: 21,
      time_zone: 'Europe/Berlin',
    });
    await screenshotBothWidths(page, 'lab-settings');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('makes, renames and archives a room; archived rooms show on request', async () => {
    const mara = await manager();
    const { context, page, problems } = await newPage(browser, PHONE);
    context.setDefaultTimeout(10_000);
    await signIn(page, t, mara.id);
    await openSection(page, 'Rooms');
    await page.getByRole('button', { name: 'New room' }).click();
    const form = page.getByRole('form', { name: 'New room' });
    // A name another room has: the API's 409, in its words, and no second room.
    await form.getByLabel('Name').fill('Growth Room A');
    await form.getByRole('button', { name: 'Add room' }).click();
    await form.locator('#name-error').waitFor();
    await form.getByLabel('Name').fill('Growth Room C');
    await form.getByRole('button', { name: 'Add room' }).click();
    await page.getByRole('status').getByText('Room “Growth Room C” added.').waitFor();
    const rooms = async () =>
      (await api('/api/v1/rooms?archived=include&limit=200')) as {
        id: string;
        name: string;
        archived_at: string | null;
      }[];
    const made = (await rooms()).filter((r) => r.name.startsWith('Growth Room C'));
    expect(made).toHaveLength(1);

    await page.getByRole('button', { name: 'Rename Growth Room C' }).click();
    const rename = page.getByRole('form', { name: 'Rename Growth Room C' });
    await opened(page, 'name');
    await expectAccessible(page, 'renaming a room');
    await rename.getByLabel('Name').fill('Growth Room C (north)');
    await rename.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('link', { name: 'Growth Room C (north)' }).waitFor();
    expect((await rooms()).find((r) => r.id === made[0]!.id)!.name).toBe('Growth Room C (north)');
    await screenshotBothWidths(page, 'lab-settings-rooms');

    await page.getByRole('button', { name: 'Archive Growth Room C (north)' }).click();
    await page.getByRole('button', { name: 'Yes, archive' }).click();
    await page.getByRole('link', { name: 'Growth Room C (north)' }).waitFor({ state: 'detached' });
    expect((await rooms()).find((r) => r.id === made[0]!.id)!.archived_at).not.toBeNull();
    await page.getByLabel('Show archived rooms').check();
    const row = page.locator('li', {
      has: page.getByRole('link', { name: 'Growth Room C (north)' }),
    });
    await row.locator('.chip', { hasText: 'archived' }).waitFor();
    await screenshotBothWidths(page, 'lab-settings-rooms-archived');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('adds, reorders by keyboard and by tap, renames and retires a stage still in use', async () => {
    const before = (await api('/api/v1/stage-lists')) as {
      explant: { key: string; name: string }[];
    };
    const [explant] = (await api('/api/v1/explants?limit=1')) as {
      current_stage: { stage: string };
    }[];
    const inUse = before.explant.find((stage) => stage.key === explant!.current_stage.stage)!;
    expect(inUse).toBeDefined();
    const mara = await manager();
    const { context, page, problems } = await newPage(browser, DESKTOP);
    context.setDefaultTimeout(10_000);
    await signIn(page, t, mara.id);
    await openSection(page, 'Stage lists');
    const explants = page.getByRole('form', { name: 'Explant stages' });
    await explants.getByLabel('New stage').fill('Hardening off');
    await explants.getByRole('button', { name: 'Add stage' }).click();
    // Up by keyboard: the focus on the button, Enter.
    await explants.getByRole('button', { name: 'Up: Hardening off' }).focus();
    await page.keyboard.press('Enter');
    const keys = [...before.explant.map((s) => s.key), 'hardening_off'];
    const moveUp = (key: string) => {
      const i = keys.indexOf(key);
      [keys[i - 1], keys[i]] = [keys[i]!, keys[i - 1]!];
    };
    moveUp('hardening_off');
    // Rename one stage (same key, new name), take out the one an explant is in.
    const renamed = before.explant.find((s) => s.key !== inUse.key)!;
    await explants
      .getByLabel(`Stage ${keys.indexOf(renamed.key) + 1}`, { exact: true })
      .fill(`${renamed.name} (new)`);
    await explants.getByRole('button', { name: `Take out: ${inUse.name}` }).click();
    keys.splice(keys.indexOf(inUse.key), 1);
    await explants.getByRole('button', { name: 'Save explant stages' }).click();
    await explants.getByRole('status').getByText('Explant stages saved.').waitFor();
    const lists = async () =>
      (await api('/api/v1/stage-lists')) as {
        explant: { key: string; name: string }[];
        retired: { explant: { key: string; name: string }[] };
      };
    const after = await lists();
    expect(after.explant.map((s) => s.key)).toEqual(keys);
    expect(after.explant.find((s) => s.key === renamed.key)!.name).toBe(`${renamed.name} (new)`);
    // Still in use: retired, kept for the explants in it and their history; said so.
    expect(after.retired.explant).toContainEqual(inUse);
    await page.getByText('retired, not deleted').waitFor();
    await page.getByRole('button', { name: `Bring back ${inUse.name}` }).waitFor();
    await screenshotBothWidths(page, 'lab-settings-stages');

    // On a phone, a tap moves it up once more.
    await page.setViewportSize(PHONE);
    await explants.getByRole('button', { name: 'Up: Hardening off' }).click();
    moveUp('hardening_off');
    await explants.getByRole('button', { name: 'Save explant stages' }).click();
    await explants.getByText('Changes not saved yet.').waitFor({ state: 'detached' });
    expect((await lists()).explant.map((s) => s.key)).toEqual(keys);
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('writes an SOP with a step, a reading and a safety note; drafts, makes effective; a new version leaves the first in history', async () => {
    const mara = await manager();
    const { context, page, problems } = await newPage(browser, PHONE);
    context.setDefaultTimeout(10_000);
    await signIn(page, t, mara.id);
    await openSection(page, 'SOPs');
    await page.getByRole('button', { name: 'New SOP' }).click();
    await page.getByRole('form', { name: 'New SOP' }).getByLabel('Title').fill('Media pH check');
    await page.getByRole('button', { name: 'Create SOP' }).click();
    await page.getByRole('heading', { level: 1, name: 'Media pH check' }).waitFor();
    const sopId = new URL(page.url()).pathname.split('/').pop()!;

    await page.getByRole('button', { name: 'New version' }).click();
    const draft = page.getByRole('form', { name: 'Draft version 1' });
    const step1 = draft.getByRole('group', { name: 'Step 1' });
    await step1.getByLabel('Instruction').fill('Measure the pH of the medium before autoclaving');
    await step1.getByLabel('Safety note').fill('Wear gloves: the KOH solution burns');
    await step1.getByRole('button', { name: 'Add a reading' }).click();
    await step1.getByLabel('What to measure').fill('pH');
    await step1.getByLabel('Unit').fill('pH');
    await step1.getByLabel('Lowest in range').fill('5.6');
    await step1.getByLabel('Highest in range').fill('5.8');
    await screenshotBothWidths(page, 'lab-settings-sop-editor');
    await draft.getByRole('button', { name: 'Add a step' }).click();
    // An empty step: the API's refusal beside it; nothing stored.
    await draft.getByRole('button', { name: 'Create draft' }).click();
    await draft.getByRole('group', { name: 'Step 2' }).getByRole('alert').waitFor();
    expect(await api(`/api/v1/sops/${sopId}/versions`)).toEqual([]);
    await draft.getByRole('button', { name: 'Remove step 2' }).click();
    await draft.getByRole('button', { name: 'Create draft' }).click();
    await page.getByRole('status').getByText('Draft saved.').waitFor();
    await screenshotBothWidths(page, 'lab-settings-sop-draft');

    const v1 = page.getByRole('listitem', { name: 'Version 1' });
    await v1.getByRole('button', { name: 'Make effective' }).click();
    await v1.getByRole('button', { name: 'Yes, make it effective' }).click();
    await page.getByRole('status').getByText('Version 1 is now in force.').waitFor();
    const sop = (await api(`/api/v1/sops/${sopId}`)) as {
      version: { version: number; steps: unknown[] };
    };
    expect(sop.version.version).toBe(1);
    expect(sop.version.steps).toEqual([
      expect.objectContaining({
        instruction: 'Measure the pH of the medium before autoclaving',
        safetyWarning: 'Wear gloves: the KOH solution burns',
        measurements: [{ metric: 'pH', unit: 'pH', min: 5.6, max: 5.8 }],
      }),
    ]);

    // Version 2 starts from version 1's steps; until it is made effective, 1 stays in force.
    await page.getByRole('button', { name: 'New version' }).click();
    const v2 = page.getByRole('form', { name: 'Draft version 2' });
    await expect(v2.getByLabel('Instruction').inputValue()).resolves.toBe(
      'Measure the pH of the medium before autoclaving',
    );
    await v2.getByLabel('Instruction').fill('Measure the pH at 25 °C before autoclaving');
    await v2.getByRole('button', { name: 'Create draft' }).click();
    await page
      .getByRole('listitem', { name: 'Version 2' })
      .locator('.chip', { hasText: 'draft' })
      .waitFor();
    const versions = (await api(`/api/v1/sops/${sopId}/versions`)) as {
      version: number;
      lifecycleStatus: string;
    }[];
    expect(versions.map((v) => [v.version, v.lifecycleStatus]).sort()).toEqual([
      [1, 'effective'],
      [2, 'draft'],
    ]);
    await page.getByText('Runs stay pinned to the version they started with').waitFor();

    // The SOP's own details: a description added, read back.
    await page.getByRole('button', { name: 'Edit details' }).click();
    const details = page.getByRole('form', { name: 'The SOP’s details' });
    await opened(page, 'title');
    await details.getByLabel('What it is for').fill('Before every media batch');
    await details.getByRole('button', { name: 'Save details' }).click();
    await page.getByText('Before every media batch').waitFor();
    expect(((await api(`/api/v1/sops/${sopId}`)) as { description: string }).description).toBe(
      'Before every media batch',
    );
    await screenshotBothWidths(page, 'lab-settings-sop');
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  it('adds, edits and retires equipment', async () => {
    const mara = await manager();
    const { context, page, problems } = await newPage(browser, PHONE);
    context.setDefaultTimeout(10_000);
    await signIn(page, t, mara.id);
    await openSection(page, 'Equipment');
    await page.getByRole('button', { name: 'New equipment' }).click();
    const form = page.getByRole('form', { name: 'New equipment' });
    await opened(page, 'name');
    await form.getByLabel('Name').fill('Hood 3');
    await form.getByLabel('Kind').selectOption('laminar_flow_hood');
    await form.getByRole('button', { name: 'Add equipment' }).click();
    await page.getByRole('status').getByText('Hood 3 added.').waitFor();
    const hood = async () =>
      (
        (await api('/api/v1/equipment?limit=200')) as {
          name: string;
          status: string;
          manufacturer: string | null;
        }[]
      ).find((e) => e.name === 'Hood 3')!;
    expect(await hood()).toMatchObject({ category: 'laminar_flow_hood', status: 'active' });

    await page.getByRole('button', { name: 'Edit Hood 3' }).click();
    const edit = page.getByRole('form', { name: 'Edit Hood 3' });
    await opened(page, 'name');
    await edit.locator('summary').click();
    await edit.getByLabel('Manufacturer').fill('Esco');
    await expectAccessible(page, 'editing equipment');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Laminar flow hood · Esco', { exact: true }).waitFor();
    expect((await hood()).manufacturer).toBe('Esco');

    await page.getByRole('button', { name: 'Retire Hood 3' }).click();
    await page.getByRole('button', { name: 'Yes, retire' }).click();
    await page.getByRole('button', { name: 'Bring back Hood 3' }).waitFor();
    expect((await hood()).status).toBe('archived');
    await screenshotBothWidths(page, 'lab-settings-equipment');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('adds a select custom field to explants and removes a text one from plants', async () => {
    const before = (await api('/api/v1/custom-fields')) as Record<
      string,
      { key: string; type: string; options: string[] | null }[]
    >;
    const dropped = before.plant!.find((f) => f.type === 'text')!;
    const mara = await manager();
    const { context, page, problems } = await newPage(browser, PHONE);
    context.setDefaultTimeout(10_000);
    await signIn(page, t, mara.id);
    await openSection(page, 'Custom fields');
    const explants = page.getByRole('form', { name: 'Explants', exact: true });
    await explants.getByRole('button', { name: 'Add field' }).click();
    const row = explants.locator('li').last();
    await row.getByLabel('Key', { exact: true }).fill('vessel_type');
    await row.getByLabel('Type', { exact: true }).selectOption('select');
    // A select field without choices: the API's refusal in its words, nothing stored.
    await explants.getByRole('button', { name: 'Save explants fields' }).click();
    await explants
      .getByRole('alert')
      .getByText(/options: required for a select field/)
      .waitFor();
    expect(await api('/api/v1/custom-fields')).toEqual(before);
    await row.getByLabel('Choices').fill('Magenta box\nJar 250 ml');
    await explants.getByRole('button', { name: 'Save explants fields' }).click();
    await explants.getByRole('status').getByText('Explants: fields saved.').waitFor();
    const plants = page.getByRole('form', { name: 'Plants', exact: true });
    await plants.getByRole('button', { name: `Remove: ${dropped.key}` }).click();
    await plants.getByRole('button', { name: 'Save plants fields' }).click();
    await plants.getByRole('status').getByText('Plants: fields saved.').waitFor();
    const after = (await api('/api/v1/custom-fields')) as typeof before;
    expect(after.explant).toEqual([
      ...before.explant!,
      { key: 'vessel_type', type: 'select', options: ['Magenta box', 'Jar 250 ml'] },
    ]);
    expect(after.plant).toEqual(before.plant!.filter((f) => f.key !== dropped.key));
    expect(after.transfer).toEqual(before.transfer);
    await screenshotBothWidths(page, 'lab-settings-custom-fields');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('adds a media recipe and edits its formulation into version 2', async () => {
    const mara = await manager();
    const { context, page, problems } = await newPage(browser, PHONE);
    context.setDefaultTimeout(10_000);
    await signIn(page, t, mara.id);
    await openSection(page, 'Media recipes');
    await page.getByRole('button', { name: 'New recipe' }).click();
    const form = page.getByRole('form', { name: 'New media recipe' });
    await opened(page, 'title');
    await form.getByLabel('Name').fill('Rooting medium');
    await form.getByLabel('Components').fill('MS salts, 2.2, g/L\nSucrose, 20, g/L');
    await form.getByLabel('Target pH').fill('5.7');
    await form.getByRole('button', { name: 'Add recipe' }).click();
    await page.getByRole('status').getByText('Rooting medium added.').waitFor();
    const recipe = async () =>
      (
        (await api('/api/v1/media-recipes?limit=200')) as {
          id: string;
          title: string;
          version: number;
          visibility: string;
          ph_target: number;
          components: { name: string; qty: string; unit: string | null }[];
        }[]
      ).find((r) => r.title === 'Rooting medium')!;
    const made = await recipe();
    expect(made).toMatchObject({
      version: 1,
      visibility: 'team',
      ph_target: 5.7,
      components: [
        expect.objectContaining({ name: 'MS salts', qty: '2.2', unit: 'g/L' }),
        expect.objectContaining({ name: 'Sucrose', qty: '20', unit: 'g/L' }),
      ],
    });
    await page.getByRole('button', { name: 'Edit Rooting medium' }).click();
    const edit = page.getByRole('form', { name: 'Edit Rooting medium' });
    await opened(page, 'title');
    await edit.getByLabel('Components').fill('MS salts, 2.2, g/L\nSucrose, 30, g/L');
    await expectAccessible(page, 'editing a media recipe');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    const row = page.locator('li', { hasText: 'Rooting medium' });
    await row.locator('.chip', { hasText: 'version 2' }).waitFor();
    const edited = (await api(`/api/v1/media-recipes/${made.id}`)) as Awaited<
      ReturnType<typeof recipe>
    >;
    expect(edited.version).toBe(2);
    expect(
      edited.components.map((c) => [c.name, c.qty, c.unit]),
      JSON.stringify(edited),
    ).toEqual([
      ['MS salts', '2.2', 'g/L'],
      ['Sucrose', '30', 'g/L'],
    ]);
    await screenshotBothWidths(page, 'lab-settings-media');
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  it('shows a member every settings screen read-only, saying who may change it', async () => {
    const mia = await inTransaction(t.database.db, (trx) =>
      addMember(trx, { workspaceId: demo.workspaceId, name: 'Mia Member', role: 'member' }),
    );
    const [sop] = (await api('/api/v1/sops?limit=1')) as { id: string }[];
    const { context, page, problems } = await newPage(browser, PHONE);
    context.setDefaultTimeout(10_000);
    await signIn(page, t, mia.id);
    await page.getByRole('button', { name: /Account/ }).click();
    await page.getByRole('link', { name: 'Lab settings' }).click();
    await page.getByText('Only admins and the owner change these.').waitFor();
    for (const path of [
      '/settings',
      '/settings/rooms',
      '/settings/stages',
      '/settings/sops',
      `/settings/sops/${sop!.id}`,
      '/settings/equipment',
      '/settings/custom-fields',
      '/settings/media-recipes',
    ]) {
      await page.goto(`${t.base}${path}`);
      await page
        .getByText('Only managers, admins and the owner change it: ask one of them.')
        .waitFor();
      await page
        .locator('[aria-busy=true]')
        .waitFor({ state: 'detached' })
        .catch(() => {});
      await page.waitForLoadState('networkidle');
      const writes = page.getByRole('button', {
        name: /new|add|rename|archive|retire|edit|save|make|move|take|bring/i,
      });
      expect(await writes.count(), path).toBe(0);
      expect(
        await page.locator('main form input, main form select, main form textarea').count(),
        path,
      ).toBe(0);
      await expectAccessible(page, `${path} for a member`);
    }
    await screenshotBothWidths(page, 'lab-settings-member');
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
