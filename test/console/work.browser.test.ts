import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { SCOPES } from '../../src/kernel/access.js';
import { inTransaction } from '../../src/db/transaction.js';
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

type Row = Record<string, string>;

/**
 * The console's work screens in headless Chromium, on each database: the task
 * board with the store's demand (create a task linked to a plant, complete it),
 * the contaminations (resolve one, who and when shown after), "Download CSV" on
 * every list parsed back and compared with the API's JSON list under the same
 * filters, what a viewer sees, and the API keys screen offering exactly the
 * API's scopes. Each action is checked through the API afterwards; axe on every
 * screen.
 */
consoleSuite('the work screens in Chromium', ({ browser, t, demo }, target) => {
  /** The API as the demo lab's owner script sees it, to check what the console did. */
  const api = async (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.request({
      method,
      url,
      headers: { authorization: `Bearer ${demo.ownerKey}` },
      ...(payload ? { payload } : {}),
    });
  /** Every item of a JSON list, page by page. */
  const everything = async (url: string): Promise<Row[]> => {
    const items: Row[] = [];
    let cursor: string | null = null;
    do {
      const separator = url.includes('?') ? '&' : '?';
      const answer = await api(
        'GET',
        `${url}${separator}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
      const page: { data: Row[]; meta?: { next_cursor?: string | null } } = body(answer);
      items.push(...page.data);
      cursor = page.meta?.next_cursor ?? null;
    } while (cursor !== null);
    return items;
  };

  const ownerName = async () =>
    (await everything('/api/v1/people')).find((p) => p.id === demo.ownerId)!.name!;

  it('shows the board with demand, creates a task linked to a plant and completes it; the API agrees', async () => {
    const { context, page, problems } = await newPage(browser, DESKTOP);
    await signIn(page, t, demo.ownerId);
    await page.getByRole('link', { name: 'Tasks' }).first().click();
    await page.getByRole('heading', { name: 'Tasks', level: 1 }).waitFor();
    // The store's demand: Monstera's latest score (86), on the panel and on its card.
    const demand = page.getByRole('region', { name: 'Demand by genus' });
    await demand.getByText('Monstera').waitFor();
    await demand.getByText('86').waitFor();
    const todo = page.getByRole('region', { name: /^To do/ });
    const monsteraCard = todo.locator('li.card', {
      hasText: 'Subculture MON-TC-B01 onto fresh MS + BAP',
    });
    await monsteraCard.getByText('demand 86').waitFor();

    const title = `Pour 40 jars of MS medium (${target.name})`;
    await page.getByRole('button', { name: 'New task' }).click();
    await page.getByLabel('What needs doing').fill(title);
    await page.getByLabel('Due').fill('2030-06-01');
    await page.getByLabel('Plant or explant (optional)').fill('thai');
    const form = page.getByRole('form', { name: 'New task' });
    await form.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('button', { name: /Thai Constellation.*· plant$/ }).click();
    await page.getByText('Linked to plant').waitFor();
    await page.getByRole('button', { name: 'Create task' }).click();
    await page.getByRole('status').getByText(`Task “${title}” created.`).waitFor();
    const card = todo.locator('li.card', { hasText: title });
    await card.waitFor();
    await screenshotBothWidths(page, 'tasks');
    await page.setViewportSize(DESKTOP);

    const made = (await everything('/api/v1/tasks?status=todo')).find((x) => x.title === title)!;
    expect(made).toBeDefined();
    const plant = (await everything('/api/v1/plants?q=thai'))[0]!;
    const read = body(await api('GET', `/api/v1/tasks/${made.id}`)).data;
    expect(read).toMatchObject({
      status: 'todo',
      entity_link: { entity_type: 'plant', entity_id: plant.id },
    });
    expect(read.due_date.slice(0, 4)).toBe('2030');

    // Complete it from the board: it moves to Done.
    await card.getByRole('button', { name: `Complete: ${title}` }).click();
    const done = page.getByRole('region', { name: /^Done/ });
    await done.locator('li.card', { hasText: title }).waitFor();
    expect(await todo.locator('li.card', { hasText: title }).count()).toBe(0);
    const completed = body(await api('GET', `/api/v1/tasks/${made.id}`)).data;
    expect(completed).toMatchObject({ status: 'done', completed_by: demo.ownerId });
    expect(completed.completed_at).not.toBeNull();

    // Its page: the facts, the linked plant, and reopening it.
    await done.getByRole('link', { name: title }).click();
    await page.waitForURL(`${t.base}/tasks/${made.id}`);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    const linked = page.getByRole('region', { name: 'Linked record' });
    const plantLink = linked.getByRole('link', { name: /Thai Constellation/ });
    await plantLink.waitFor();
    expect(await plantLink.getAttribute('href')).toBe(`/plants/${plant.id}`);
    await page.getByText(`by ${await ownerName()}`).waitFor();
    await screenshotBothWidths(page, 'task');
    await page.getByRole('button', { name: 'Reopen' }).click();
    await page.getByRole('status').getByText('Moved to To do.').waitFor();
    expect(body(await api('GET', `/api/v1/tasks/${made.id}`)).data).toMatchObject({
      status: 'todo',
      completed_at: null,
    });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('lists contaminations open first, resolves one and shows who and when; the API agrees', async () => {
    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, demo.ownerId);
    await page.goto(`${t.base}/contaminations`);
    await page.getByRole('heading', { name: 'Contaminations', level: 1 }).waitFor();
    const open = page.getByRole('region', { name: 'Open' });
    const issue = 'Milky ooze spreading from the explant base';
    await open.getByRole('link', { name: issue }).waitFor();
    expect(await open.getByText('Grey fuzz on the medium surface').count()).toBe(0);
    // All: the open ones first, then the resolved.
    await page.getByLabel('Show').selectOption('all');
    await page.waitForURL(/show=all$/);
    const closed = page.getByRole('region', { name: 'Resolved and closed' });
    await closed.getByRole('link', { name: 'Grey fuzz on the medium surface' }).waitFor();
    const headings = await page.locator('main h2').allTextContents();
    expect(headings.indexOf('Open')).toBeLessThan(headings.indexOf('Resolved and closed'));
    await screenshotBothWidths(page, 'contaminations');

    await open.getByRole('link', { name: issue }).click();
    await page.waitForURL(/\/contaminations\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: issue, level: 1 }).waitFor();
    const explant = page.getByRole('link', { name: 'ANT-WAR-B01' });
    await explant.waitFor();
    const log = body(await api('GET', `/api/v1/contaminations/${id}`)).data;
    expect(await explant.getAttribute('href')).toBe(`/explants/${log.explant_ids[0]}`);
    await screenshotBothWidths(page, 'contamination-open');

    await page.getByLabel('Outcome').selectOption('treated');
    await page
      .getByLabel('Notes (optional)')
      .fill('Rest of the batch dipped in PPM; watched daily.');
    await page.getByRole('button', { name: 'Resolve contamination' }).click();
    await page.getByRole('status').getByText('Resolved.').waitFor();
    const resolution = page.getByRole('region', { name: 'Resolution' });
    await resolution.getByText('Treated').waitFor();
    await resolution.getByText('just now').waitFor();
    await resolution.getByText(await ownerName()).waitFor();
    expect(await page.getByRole('button', { name: 'Resolve contamination' }).count()).toBe(0);
    expect(body(await api('GET', `/api/v1/contaminations/${id}`)).data).toMatchObject({
      status: 'resolved',
      resolution_outcome: 'treated',
      resolution_notes: 'Rest of the batch dipped in PPM; watched daily.',
      resolved_by: demo.ownerId,
    });
    await screenshotBothWidths(page, 'contamination-resolved');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('downloads every list as CSV with its filters, each the same rows as the API’s JSON list', async () => {
    const { context, page, problems } = await newPage(browser, DESKTOP);
    await signIn(page, t, demo.ownerId);
    const rooms = await everything('/api/v1/rooms');
    const roomB = rooms.find((r) => r.name === 'Growth Room B')!;
    const cases: readonly [screen: string, list: string][] = [
      ['/plants', '/api/v1/plants'],
      [`/plants?room_id=${roomB.id}`, `/api/v1/plants?room_id=${roomB.id}`],
      ['/explants?q=b0', '/api/v1/explants?q=b0'],
      ['/explants?status=active', '/api/v1/explants?status=active'],
      ['/tasks', '/api/v1/tasks'],
      [`/tasks?assigned_to=${demo.ownerId}`, `/api/v1/tasks?assigned_to=${demo.ownerId}`],
      ['/contaminations', '/api/v1/contaminations?open=true'],
      ['/contaminations?show=resolved', '/api/v1/contaminations?open=false'],
      ['/contaminations?show=all', '/api/v1/contaminations'],
      ['/rooms', '/api/v1/rooms'],
      ['/sop-runs', '/api/v1/sop-runs'],
      ['/sop-runs?status=completed', '/api/v1/sop-runs?status=completed'],
      ['/sops', '/api/v1/sops'],
      ['/devices', '/api/v1/devices'],
    ];
    for (const [screen, list] of cases) {
      await page.goto(`${t.base}${screen}`);
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
      const rows = await downloadCsv(page);
      const json = await everything(list);
      expect(
        rows.map((r) => r.id),
        screen,
      ).toEqual(json.map((r) => r.id));
      // The cells are the records' fields, as the API gives them.
      for (const [i, row] of rows.entries()) {
        for (const field of ['name', 'title', 'issue', 'status'] as const) {
          if (field in row)
            expect(row[field], `${screen} ${field}`).toBe(String(json[i]![field] ?? ''));
        }
      }
    }
    // Members and API keys answer sessions of admins only: compared with the JSON the
    // console itself reads.
    for (const [screen, list] of [
      ['/members', '/api/v1/members'],
      ['/api-keys', '/api/v1/api-keys'],
    ] as const) {
      await page.goto(`${t.base}${screen}`);
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
      const rows = await downloadCsv(page);
      const json = await page.evaluate<Row[]>(
        `fetch('${list}?limit=100').then((r) => r.json()).then((b) => b.data)`,
      );
      expect(json.length, screen).toBeGreaterThan(0);
      expect(
        rows.map((r) => r.id),
        screen,
      ).toEqual(json.map((r) => r.id));
    }
    // The filters narrowed something: Growth Room B holds some plants, not all.
    const all = await everything('/api/v1/plants');
    const inRoomB = await everything(`/api/v1/plants?room_id=${roomB.id}`);
    expect(inRoomB.length).toBeGreaterThan(0);
    expect(inRoomB.length).toBeLessThan(all.length);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows a viewer the board, a task and a contamination without a write button', async () => {
    const viewer = await inTransaction(t.database.db, async (trx) => {
      const { addMember } = await import('../../src/modules/identity/identity.service.js');
      return addMember(trx, { workspaceId: demo.workspaceId, name: 'Val Viewer', role: 'viewer' });
    });
    const plant = (await everything('/api/v1/plants?q=thai'))[0]!;
    const logged = await api('POST', '/api/v1/contaminations', {
      plant_id: plant.id,
      type: 'mold',
      issue: 'White mycelium on two jars',
    });
    expect(logged.statusCode).toBe(201);
    const contaminationId = body(logged).data.id as string;
    const task = (await everything('/api/v1/tasks?status=todo'))[0]!;

    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, viewer.id);
    const writes = /new task|complete|mark as done|reopen|resolve/i;
    await page.goto(`${t.base}/tasks`);
    await page
      .getByRole('region', { name: /^To do/ })
      .getByRole('link')
      .first()
      .waitFor();
    await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: writes }).count()).toBe(0);
    await page.getByRole('button', { name: 'Download CSV' }).waitFor();
    await screenshotBothWidths(page, 'viewer-tasks');

    await page.goto(`${t.base}/tasks/${task.id}`);
    await page.getByRole('heading', { name: task.title, level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: writes }).count()).toBe(0);
    expect(await page.getByLabel('Move to').count()).toBe(0);
    await expectAccessible(page, 'a task, as a viewer');

    await page.goto(`${t.base}/contaminations/${contaminationId}`);
    await page.getByRole('heading', { name: 'White mycelium on two jars', level: 1 }).waitFor();
    await page.getByRole('link', { name: /Thai Constellation/ }).waitFor();
    expect(await page.getByRole('button', { name: writes }).count()).toBe(0);
    expect(await page.getByLabel('Outcome').count()).toBe(0);
    await expectAccessible(page, 'a contamination, as a viewer');
    // Forced, the resolve is refused and changes nothing.
    const forced = await page.evaluate(`fetch('/api/v1/contaminations/${contaminationId}/resolve', {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ outcome: 'discarded' }) }).then((r) => r.status)`);
    expect(forced).toBe(403);
    expect(body(await api('GET', `/api/v1/contaminations/${contaminationId}`)).data.status).toBe(
      'active',
    );
    expect(problems).toEqual([]);
    await context.close();
  });

  it('offers exactly the API’s scopes when an API key is limited', async () => {
    const { context, page, problems } = await newPage(browser, DESKTOP);
    await signIn(page, t, demo.ownerId);
    await page.goto(`${t.base}/api-keys`);
    await page.getByRole('button', { name: 'Create a key' }).click();
    await page
      .getByRole('form', { name: 'New API key' })
      .getByText('More', { exact: true })
      .click();
    await page
      .getByText(`Everything the member’s role allows (all ${SCOPES.length} scopes)`)
      .waitFor();
    await page.getByLabel('Only these scopes:').check();
    const offered = await page.locator('.scope-grid label').allTextContents();
    expect(offered.map((s) => s.trim())).toEqual([...SCOPES]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

/** Clicks "Download CSV" and its raw form, waits for the file the browser saves, and parses it. */
async function downloadCsv(page: Page): Promise<Row[]> {
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /^Raw data/ }).click(),
  ]);
  const file = await download.path();
  return parse<Row>(readFileSync(file), { columns: true, bom: true });
}
