import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { csvCell } from '../../src/kernel/routes/csv.js';
import { inTransaction } from '../../src/db/transaction.js';
import { addMember } from '../../src/modules/identity/identity.service.js';
import { body } from '../support/harness.js';
import {
  consoleSuite,
  DESKTOP,
  newPage,
  ownerApi,
  PHONE,
  screenshotBothWidths,
  signIn,
} from '../support/browser.js';
import { signIn as signInApi, type SessionClient } from '../support/sessions.js';

const rowsOf = (text: string): string[][] => parse(text);

interface Group {
  group: { id: string | null; label: string };
  exposures: number;
  contaminated: number;
  rate: number;
  ci_low: number;
  ci_high: number;
}
interface Overall {
  exposures: number;
  contaminated: number;
  rate: number | null;
}

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();
const pct = (share: number) => `${Number((share * 100).toFixed(1))} %`;

/** Highest rate first, as the screen orders its bars; ties by exposures, then by name. */
const byRate = (groups: Group[]) =>
  [...groups].sort(
    (a, b) =>
      b.rate - a.rate || b.exposures - a.exposures || a.group.label.localeCompare(b.group.label),
  );

/**
 * The Insights screen in Chromium, on each database: a line handled by two members
 * (one of whom contaminates half of what she touches) added to the demo lab through
 * the API; a manager sees the lab's contamination by person with the bars in the
 * API's order of rates and the figures of its answer, only the group whose whole
 * interval is above the lab's rate marked worse; changing the grouping changes the
 * address (and a link reproduces it); multiplication, stages, the planner; a member
 * sees her own figures and is told so. axe and screenshots at 375 and 1440 px.
 */
consoleSuite('insights screen in Chromium', ({ browser, t, demo }) => {
  let ana: { id: string; client: SessionClient };
  let managerId: string;
  let lineId: string;

  beforeAll(async () => {
    const { api } = ownerApi({ t, demo });
    const member = async (name: string, role: 'member' | 'manager') => {
      const added = await inTransaction(t.database.db, (trx) =>
        addMember(trx, { workspaceId: demo.workspaceId, name, role }),
      );
      return { id: added.id, client: await signInApi(t, added.id) };
    };
    ana = await member('Ana Ruiz', 'member');
    const ben = await member('Ben Okafor', 'member');
    // Cleo handles little: her rate is the highest, but her interval reaches the lab's.
    const cleo = await member('Cleo Park', 'member');
    managerId = (await member('Mara Lind', 'manager')).id;
    const plant = await api('POST', '/api/v1/plants', {
      species: 'Ficus insightii',
      common_name: 'Insight line',
    });
    expect(plant.statusCode).toBe(201);
    lineId = body<{ data: { id: string } }>(plant).data.id;
    for (let i = 0; i < 12; i++) {
      const made = await api('POST', '/api/v1/explants', {
        plant_id: lineId,
        label: `IL-${i + 1}`,
        initial_count: 4,
        initial_stage: 'multiplication',
      });
      expect(made.statusCode).toBe(201);
      const explantId = body<{ data: { id: string } }>(made).data.id;
      const by = i < 6 ? ana.client : ben.client;
      const transfer = (at: number, hood: string, vessels: number, plantlets?: number) =>
        by.post('/api/v1/transfers', {
          explant_id: explantId,
          transfer_date: daysAgo(at),
          from_location: hood,
          vessel_count: vessels,
          ...(plantlets === undefined ? {} : { plantlet_count: plantlets }),
        });
      expect((await transfer(40, i < 6 ? 'Hood 1' : 'Hood 2', 8, 24)).statusCode).toBe(201);
      expect((await transfer(12, 'Hood 3', 16)).statusCode).toBe(201);
      // Ana's first five: a contamination five days after her first transfer.
      if (i < 5) {
        const contaminated = await api('POST', '/api/v1/contaminations', {
          explant_id: explantId,
          type: 'mold',
          issue: 'Mold on the medium',
          observed_at: daysAgo(35),
        });
        expect(contaminated.statusCode).toBe(201);
      }
    }
    const other = await api('POST', '/api/v1/plants', { species: 'Ficus alia' });
    const few = await api('POST', '/api/v1/explants', {
      plant_id: body<{ data: { id: string } }>(other).data.id,
      label: 'IL-few',
      initial_count: 2,
      initial_stage: 'multiplication',
    });
    const fewId = body<{ data: { id: string } }>(few).data.id;
    for (const [at, vessels] of [
      [30, 4],
      [10, 8],
    ] as const) {
      const moved = await cleo.client.post('/api/v1/transfers', {
        explant_id: fewId,
        transfer_date: daysAgo(at),
        from_location: 'Hood 2',
        vessel_count: vessels,
      });
      expect(moved.statusCode).toBe(201);
    }
    const mold = await api('POST', '/api/v1/contaminations', {
      explant_id: fewId,
      type: 'mold',
      issue: 'Mold on the medium',
      observed_at: daysAgo(25),
    });
    expect(mold.statusCode).toBe(201);
  });

  /** Waits for the page's contamination answer and asks the API the same question as `as`. */
  async function contaminationOf(page: Page, act: () => Promise<unknown>, as?: SessionClient) {
    const [response] = await Promise.all([
      page.waitForResponse(
        (r) => r.url().includes('/api/v1/insights/contamination') && !r.url().includes('by=week'),
      ),
      act(),
    ]);
    const url = new URL(response.url());
    const asked = `${url.pathname}${url.search}`;
    const res = as ? await as.get(asked) : await ownerApi({ t, demo }).api('GET', asked);
    expect(res.statusCode).toBe(200);
    const answer = body<{ data: Group[]; meta: { overall: Overall } }>(res);
    return { query: url.searchParams, groups: answer.data, overall: answer.meta.overall };
  }

  /** The contamination table as the page shows it: label, figures and whether marked worse. */
  async function tableRows(page: Page) {
    const table = page.getByRole('region', { name: /^Contamination by .*, as a table$/ });
    await table.waitFor();
    return table.locator('tbody tr').evaluateAll((rows) =>
      rows.map((row) => ({
        label: row.getAttribute('data-group'),
        worse: row.getAttribute('data-worse') === 'true',
        cells: [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? ''),
      })),
    );
  }

  /** What the table must hold for an answer: its groups by rate, worse only above overall. */
  const expected = (groups: Group[], overall: number | null) =>
    byRate(groups).map((g) => ({
      label: g.group.label,
      worse: overall !== null && g.ci_low > overall,
      cells: [
        pct(g.rate),
        String(g.contaminated),
        String(g.exposures),
        `${pct(g.ci_low)} – ${pct(g.ci_high)}`,
        'Handlings',
      ],
    }));

  it('shows a manager the lab’s contamination by person, in the API’s order and figures, only a group wholly above the lab’s rate marked worse', async () => {
    const { context, page, problems } = await newPage(browser, DESKTOP);
    await signIn(page, t, managerId);
    const first = await contaminationOf(page, () => page.goto(`${t.base}/insights`));
    expect(first.query.get('by')).toBe('operator');
    await page.getByRole('heading', { name: 'Insights', level: 1 }).waitFor();
    await page.getByText('You see the whole lab’s figures.').waitFor();

    const rows = await tableRows(page);
    expect(rows).toEqual(expected(first.groups, first.overall.rate));
    // Ana's interval lies above the lab's rate: marked worse, in words too; Ben's is not.
    const anaRow = rows.find((row) => row.label === 'Ana Ruiz')!;
    expect(anaRow.worse).toBe(true);
    expect(rows.find((row) => row.label === 'Ben Okafor')!.worse).toBe(false);
    // A group whose interval overlaps the lab's rate is not marked, whatever its rate:
    // Cleo's 1 in 2 is the highest rate, her bar the first, and not worse.
    const overlapping = first.groups.filter(
      (g) => g.rate > first.overall.rate! && g.ci_low <= first.overall.rate!,
    );
    expect(overlapping.map((g) => g.group.label)).toContain('Cleo Park');
    expect(rows[0]).toMatchObject({ label: 'Cleo Park', worse: false });
    for (const g of overlapping) {
      expect(rows.find((row) => row.label === g.group.label)!.worse).toBe(false);
    }
    await page.locator('tr[data-group="Ana Ruiz"]').getByText('worse than overall').waitFor();
    await page
      .getByText(
        `Overall: ${pct(first.overall.rate!)} (${first.overall.contaminated} of ${first.overall.exposures} handlings)`,
      )
      .waitFor();
    await page.locator('figure[data-chart="contamination"][data-drawn="true"]').waitFor();
    await page.locator('figure[data-chart="trend"][data-drawn="true"]').waitFor();
    // The weekly trend's table holds the API's weeks.
    const weeks = body<{ data: Group[] }>(
      await ownerApi({ t, demo }).api('GET', '/api/v1/insights/contamination?by=week'),
    ).data;
    const shownWeeks = await page
      .locator('figure[data-chart="trend"] .insight-table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-week')));
    expect(shownWeeks).toEqual(weeks.map((w) => w.group.label));
    await screenshotBothWidths(page, 'insights-contamination');
    await page.locator('figure[data-chart="contamination"]').scrollIntoViewIfNeeded();
    await screenshotBothWidths(page, 'insights-contamination-chart');

    // The drill-down: the handlings behind Ana's bar, as the exposures operation lists them.
    const anaGroup = first.groups.find((g) => g.group.label === 'Ana Ruiz')!;
    expect(anaGroup.group.id).toBe(ana.id);
    const [listed] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/v1/insights/exposures')),
      page.getByRole('link', { name: 'The handlings behind Ana Ruiz' }).click(),
    ]);
    expect(new URL(listed.url()).searchParams.get('group')).toBe(ana.id);
    expect(new URL(page.url()).searchParams.get('group')).toBe(ana.id);
    const behind = page.getByRole('region', { name: 'The handlings behind Ana Ruiz' });
    await behind.waitFor();
    const exposures = body<{ data: { explant_id: string; contaminated: boolean }[] }>(
      await ownerApi({ t, demo }).api(
        'GET',
        `/api/v1/insights/exposures?by=operator&group=${ana.id}`,
      ),
    ).data;
    expect(exposures).toHaveLength(anaGroup.exposures);
    const shownRows = () =>
      behind
        .locator('tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) => [tr.getAttribute('data-explant'), tr.getAttribute('data-contaminated')]),
        );
    expect(await shownRows()).toEqual(exposures.map((e) => [e.explant_id, String(e.contaminated)]));
    await page.getByRole('button', { name: 'Contaminated', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('contaminated') === 'true');
    await expect.poll(async () => (await shownRows()).length).toBe(anaGroup.contaminated);
    expect((await shownRows()).every(([, contaminated]) => contaminated === 'true')).toBe(true);
    await screenshotBothWidths(page, 'insights-exposures');
    // A bar tapped opens its handlings too: the second bar is Ana's.
    await page.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL((url) => !url.searchParams.has('group'));
    await page.setViewportSize(DESKTOP);
    const over = page.locator('figure[data-chart="contamination"] .u-over');
    // The chart is drawn again for the new width: its box exists once it is shown.
    await over.waitFor({ state: 'visible' });
    await expect.poll(async () => (await over.boundingBox())?.height ?? 0).toBeGreaterThan(0);
    const box = (await over.boundingBox())!;
    await over.click({ position: { x: 20, y: (box.height / first.groups.length) * 1.5 } });
    await page.waitForURL((url) => url.searchParams.get('group') === ana.id);
    await page.getByRole('region', { name: 'The handlings behind Ana Ruiz' }).waitFor();

    // Another grouping: the address says so, and the table follows the API.
    // On a phone the filters fold behind one button that says what they are.
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Filters: Person · last year' }).click();
    const byHood = await contaminationOf(page, () =>
      page.getByLabel('Group by').selectOption('location'),
    );
    expect(byHood.query.get('by')).toBe('location');
    await page.waitForURL((url) => url.searchParams.get('by') === 'location');
    expect(await tableRows(page)).toEqual(expected(byHood.groups, byHood.overall.rate));
    expect(byHood.groups.map((g) => g.group.label)).toEqual(
      expect.arrayContaining(['Hood 1', 'Hood 2', 'Hood 3']),
    );

    // The period and window in the address: a link opens the same view.
    const since = daysAgo(60).slice(0, 10);
    // A choice applied folds the filters again, so the chart shows.
    await page.getByRole('button', { name: 'Filters: Hood or place · last year' }).click();
    await page.getByLabel('From', { exact: true }).fill(since);
    await page.getByLabel('Days a contamination counts').fill('10');
    const narrowed = await contaminationOf(page, () =>
      page.getByRole('button', { name: 'Show' }).click(),
    );
    expect(narrowed.query.get('since')).toBe(since);
    expect(narrowed.query.get('window_days')).toBe('10');
    const url = new URL(page.url());
    expect(url.searchParams.get('window')).toBe('10');
    expect(url.searchParams.get('since')).toBe(since);
    expect(await tableRows(page)).toEqual(expected(narrowed.groups, narrowed.overall.rate));
    const again = await newPage(browser, PHONE);
    await signIn(again.page, t, managerId);
    const reopened = await contaminationOf(again.page, () => again.page.goto(page.url()));
    expect(reopened.query.toString()).toBe(narrowed.query.toString());
    await again.page
      .getByRole('button', { name: `Filters: Hood or place · ${since} – …` })
      .waitFor();
    expect(await again.page.getByLabel('Group by').inputValue()).toBe('location');
    await again.context.close();

    expect(problems).toEqual([]);
    await context.close();
  });

  it('downloads each figure table as CSV through its link, as the API answers it; the drill-down names stages as the lab does', async () => {
    const { api, read } = ownerApi({ t, demo });
    // A stage the lab's handlings were in, named by the lab in its own words (not the key's).
    type Stage = { key: string; name: string };
    const byStage = (await read('/api/v1/insights/contamination?by=stage')) as Group[];
    const staged = byStage.find((g) => g.group.id !== null && g.exposures > 0)!;
    const key = staged.group.id!;
    const lists = (await read('/api/v1/stage-lists')) as { explant: Stage[] };
    expect(lists.explant.map((stage) => stage.key)).toContain(key);
    const rename = (name: (stage: Stage) => string) =>
      api('PATCH', '/api/v1/stage-lists', {
        explant: lists.explant.map((stage) => ({ key: stage.key, name: name(stage) })),
      });
    const named = 'Shoots (stage II)';
    expect((await rename((s) => (s.key === key ? named : s.name))).statusCode).toBe(200);
    try {
      const { context, page, problems } = await newPage(browser, DESKTOP);
      await signIn(page, t, managerId);
      const shown = await contaminationOf(page, () => page.goto(`${t.base}/insights`));
      await page.locator('figure[data-chart="contamination"][data-drawn="true"]').waitFor();
      await page.locator('figure[data-chart="trend"][data-drawn="true"]').waitFor();
      // Every figures table has its link.
      const links = page.getByRole('link', { name: /^Download CSV/ });
      expect(await links.count()).toBe(await page.locator('.insight-table').count());
      expect(await links.count()).toBe(2);

      /** The CSV the link downloads, in rows (the header first). */
      const download = async (figure: string) => {
        const [file] = await Promise.all([
          page.waitForEvent('download'),
          page.locator(`figure[data-chart="${figure}"]`).getByRole('link').last().click(),
        ]);
        expect(file.suggestedFilename()).toMatch(/\.csv$/);
        return rowsOf(await readFile(await file.path(), 'utf8'));
      };
      const [header, ...rows] = await download('contamination');
      expect(header).toEqual([
        'group_id',
        'group_label',
        'exposures',
        'contaminated',
        'rate',
        'ci_low',
        'ci_high',
      ]);
      expect(rows).toHaveLength(shown.groups.length);
      const anaGroup = shown.groups.find((g) => g.group.label === 'Ana Ruiz')!;
      const anaRow = rows.find((row) => row[1] === 'Ana Ruiz')!;
      expect(anaRow).toEqual([
        anaGroup.group.id,
        anaGroup.group.label,
        ...[anaGroup.exposures, anaGroup.contaminated, anaGroup.rate]
          .concat([anaGroup.ci_low, anaGroup.ci_high])
          .map(csvCell),
      ]);
      const [, ...weekRows] = await download('trend');
      const weeks = (await read('/api/v1/insights/contamination?by=week')) as Group[];
      expect(weekRows.map((row) => row[1])).toEqual(weeks.map((w) => w.group.label));

      // The drill-down of a stage: its stage column in the lab's words, its CSV every exposure.
      await page.goto(`${t.base}/insights?by=stage&group=${key}`);
      const behind = page.getByRole('region', { name: /^The handlings behind/ });
      await behind.locator('tbody tr').first().waitFor();
      const stagesShown = await behind.locator('tbody tr td:nth-child(6)').allTextContents();
      expect(stagesShown.length).toBeGreaterThan(0);
      expect(new Set(stagesShown)).toEqual(new Set([named]));
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        page
          .locator('#exposures')
          .getByRole('link', { name: /^Download CSV/ })
          .click(),
      ]);
      const [exposureHeader, ...exposureRows] = rowsOf(await readFile(await file.path(), 'utf8'));
      const exposures = (await read(
        `/api/v1/insights/exposures?by=stage&group=${key}&limit=100`,
      )) as { explant_id: string; stage: string }[];
      const column = (name: string) => exposureHeader!.indexOf(name);
      expect(exposureRows).toHaveLength(staged.exposures);
      expect(
        exposureRows.slice(0, exposures.length).map((row) => row[column('explant_id')]),
      ).toEqual(exposures.map((e) => e.explant_id));
      expect(new Set(exposureRows.map((row) => row[column('stage')]))).toEqual(new Set([key]));
      await screenshotBothWidths(page, 'insights-csv');
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      expect((await rename((s) => s.name)).statusCode).toBe(200);
    }
  });

  it('shows multiplication by line and the stage funnel with the API’s figures', async () => {
    const { context, page, problems } = await newPage(browser, DESKTOP);
    await signIn(page, t, managerId);
    await page.goto(`${t.base}/insights?view=multiplication`);
    await page.getByRole('heading', { name: 'Multiplication by line' }).waitFor();
    const lines = body<{
      data: {
        group: { id: string; label: string };
        handlings: number;
        handlings_4w: number;
        rate_4w: number | null;
      }[];
    }>(await ownerApi({ t, demo }).api('GET', '/api/v1/insights/multiplication?by=plant')).data;
    const line = lines.find((l) => l.group.id === lineId)!;
    // Each explant's two transfers have a rate; the second only a 4-week rate (the first came
    // at its making's very time).
    expect(line.handlings).toBe(24);
    expect(line.handlings_4w).toBe(12);
    const row = page.locator(`tr[data-group="${line.group.label}"]`);
    await row.waitFor();
    expect(await row.locator('td').first().textContent()).toBe('24');
    await expect
      .poll(() => row.locator('td').nth(2).textContent())
      .toContain(`×${Number(line.rate_4w!.toFixed(2))}`);
    const order = await page
      .locator('figure[data-chart="multiplication"] .insight-table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-group')));
    const fastest = [...lines].sort((a, b) => (b.rate_4w ?? -1) - (a.rate_4w ?? -1));
    expect(order[0]).toBe(fastest[0]!.group.label);
    await page.locator('figure[data-chart="multiplication"][data-drawn="true"]').waitFor();
    await screenshotBothWidths(page, 'insights-multiplication');

    await page.getByRole('link', { name: 'Stages' }).click();
    await page.getByRole('heading', { name: 'Where cultures are lost' }).waitFor();
    const stages = body<{ data: { stage: { key: string }; entered: number; moved_on: number }[] }>(
      await ownerApi({ t, demo }).api('GET', '/api/v1/insights/stages'),
    ).data;
    await page.locator('figure[data-chart="stages"][data-drawn="true"]').waitFor();
    const shown = await page
      .locator('figure[data-chart="stages"] .insight-table tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [
          tr.getAttribute('data-stage'),
          ...[...tr.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent),
        ]),
      );
    expect(shown).toEqual(stages.map((s) => [s.stage.key, String(s.entered), String(s.moved_on)]));
    expect(new URL(page.url()).searchParams.get('view')).toBe('stages');
    await screenshotBothWidths(page, 'insights-stages');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('makes a plan for a line, a target and a date, as the forecast answers it', async () => {
    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, managerId);
    await page.goto(`${t.base}/insights?view=plan`);
    await page.getByRole('heading', { name: 'Planner' }).waitFor();
    const by = new Date(Date.now() + 60 * DAY).toISOString().slice(0, 10);
    const form = page.getByRole('form', { name: 'Planner' });
    await form.getByLabel('Line (plant)').fill('Insight line');
    await form.getByRole('button', { name: 'Find' }).click();
    await form.getByRole('button', { name: /Insight line/ }).click();
    await form.getByLabel('Plantlets needed').fill('5000');
    await form.getByLabel('Needed by').fill(by);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/v1/insights/forecast')),
      form.getByRole('button', { name: 'Make the plan' }).click(),
    ]);
    const asked = new URL(response.url());
    expect(asked.searchParams.get('plant_id')).toBe(lineId);
    expect(asked.searchParams.get('target_plantlets')).toBe('5000');
    expect(asked.searchParams.get('by')).toBe(by);
    const forecast = body<{
      data: {
        rates: { source: string; handlings: number };
        plan: { vessels_to_start: number; vessels_needed: number };
        weeks: { week: number; vessels: number }[];
      };
    }>(await ownerApi({ t, demo }).api('GET', `${asked.pathname}${asked.search}`)).data;
    expect(forecast.rates.source).toBe('line');
    const sheet = page.locator('.plan-sheet');
    await sheet.waitFor();
    expect(await sheet.locator('.plan-to-start strong').textContent()).toBe(
      forecast.plan.vessels_to_start.toLocaleString('en-US'),
    );
    await sheet.getByText(`the line’s own, from ${forecast.rates.handlings} transfers`).waitFor();
    const weekRows = await sheet
      .locator('figure[data-chart="forecast"] .insight-table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-week')));
    expect(weekRows).toEqual(forecast.weeks.map((w) => String(w.week)));
    await page.locator('figure[data-chart="forecast"][data-drawn="true"]').waitFor();
    // The plan is in the address: a link opens it with the line named.
    const url = new URL(page.url());
    expect(url.searchParams.get('plant')).toBe(lineId);
    expect(url.searchParams.get('target')).toBe('5000');
    expect(url.searchParams.get('date')).toBe(by);
    await page.reload();
    await page.locator('.plan-sheet .plan-to-start').waitFor();
    await page.getByText('Insight line', { exact: true }).first().waitFor();
    await page.locator('.plan-sheet').scrollIntoViewIfNeeded();
    await screenshotBothWidths(page, 'insights-plan');
    // Printed, the plan stands alone: no navigation, no form.
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.planner-form').isVisible()).toBe(false);
    expect(await page.locator('.insight-views').isVisible()).toBe(false);
    expect(await page.locator('.plan-sheet').isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows a member her own figures and says so', async () => {
    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, ana.id);
    const own = await contaminationOf(page, () => page.goto(`${t.base}/insights`), ana.client);
    await page.getByText('You see your own figures').waitFor();
    expect(own.groups.map((g) => g.group.label)).toEqual(['Ana Ruiz']);
    expect(own.overall.exposures).toBe(12);
    expect(await tableRows(page)).toEqual(expected(own.groups, own.overall.rate));
    await page.getByText(`Overall: ${pct(own.overall.rate!)} (5 of 12 handlings)`).waitFor();
    await page.locator('figure[data-chart="contamination"][data-drawn="true"]').waitFor();
    await page.locator('figure[data-chart="contamination"]').scrollIntoViewIfNeeded();
    await screenshotBothWidths(page, 'insights-member');
    expect(problems).toEqual([]);
    await context.close();
  });
});
