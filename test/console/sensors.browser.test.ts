import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { body } from '../support/harness.js';
import { consoleSuite, newPage, PHONE, screenshotBothWidths, signIn } from '../support/browser.js';

interface Bucket {
  start: string;
  type: string;
  unit: string;
  count: number;
  min: number;
  max: number;
  avg: number;
  last: number;
}

/**
 * The console's sensor screens in headless Chromium, on each database: the Rooms
 * list with each room's latest values, its devices (a silent one shown as not
 * reporting) and open alerts; a room's and a device's charts drawn from the
 * summary operation with the values it returns; the ranges; the raw readings.
 */
consoleSuite('sensor screens in Chromium', ({ browser, t, demo }) => {
  const api = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.request({
      method,
      url,
      headers: { authorization: `Bearer ${demo.ownerKey}` },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const roomNamed = async (name: string) =>
    (body(await api('GET', '/api/v1/rooms')).data as { id: string; name: string }[]).find(
      (room) => room.name === name,
    )!;
  const deviceNamed = async (name: string) =>
    (body(await api('GET', '/api/v1/devices')).data as { id: string; name: string }[]).find(
      (device) => device.name === name,
    )!;

  /** The chart's values as the page's tables show them, per type. */
  async function tableValues(page: Page): Promise<Record<string, string[][]>> {
    const figures = page.locator('figure.chart');
    const found: Record<string, string[][]> = {};
    for (let i = 0; i < (await figures.count()); i++) {
      const figure = figures.nth(i);
      const details = figure.locator('details.values-table');
      if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
      const type = (await figure.getAttribute('data-type'))!;
      found[type] = await figure
        .locator('.values-table tbody tr')
        .evaluateAll((rows) =>
          rows.map((row) => [
            row.getAttribute('data-start') ?? '',
            ...[...row.querySelectorAll('td')].map((cell) => cell.textContent ?? ''),
          ]),
        );
    }
    return found;
  }

  /** The same buckets as the API gave them to the page's own request, in the table's columns. */
  function apiValues(buckets: Bucket[]): Record<string, string[][]> {
    const found: Record<string, string[][]> = {};
    for (const b of buckets) {
      (found[b.type] ??= []).push([
        b.start,
        String(b.count),
        String(b.min),
        String(b.avg),
        String(b.max),
        String(b.last),
      ]);
    }
    return found;
  }

  /** Waits for the page's summary request and asks the API the same question with the key. */
  async function summaryOf(page: Page, act: () => Promise<unknown>) {
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/v1/sensor-readings/summary')),
      act(),
    ]);
    const url = new URL(response.url());
    const again = body(await api('GET', `${url.pathname}${url.search}`)).data as Bucket[];
    return { query: url.searchParams, buckets: again };
  }

  it('lists rooms with their latest values, a silent device as not reporting, and an open alert', async () => {
    const roomA = await roomNamed('Growth Room A');
    const roomB = await roomNamed('Growth Room B');
    // A sensor in room A that reported once, three hours ago, and then fell silent.
    const silent = body(
      await api('POST', '/api/v1/devices', { name: 'Shelf 3 probe', room_id: roomA.id }),
    ).data as { id: string };
    expect((await api('POST', `/api/v1/devices/${silent.id}/heartbeat`, {})).statusCode).toBe(200);
    await t.database.db
      .updateTable('devices')
      .set({ last_seen_at: new Date(Date.now() - 3 * 3_600_000).toISOString() })
      .where('id', '=', silent.id)
      .execute();
    // Room B is too warm: a rule and a reading above it open an alert.
    expect(
      (
        await api('POST', '/api/v1/alert-rules', {
          name: 'Room B too warm',
          sensor_type: 'temperature',
          room_id: roomB.id,
          condition: 'above',
          threshold: 27,
        })
      ).statusCode,
    ).toBe(201);
    const sensorB = await deviceNamed('Growth room B climate');
    expect(
      (
        await api('POST', '/api/v1/sensor-readings', {
          device_id: sensorB.id,
          type: 'temperature',
          value: 28.9,
          unit: '°C',
        })
      ).statusCode,
    ).toBe(201);
    expect(body(await api('GET', '/api/v1/alerts?status=open')).data).toHaveLength(1);

    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, demo.ownerId);
    await page.goto(`${t.base}/rooms`);
    await page.getByRole('heading', { name: 'Rooms', level: 1 }).waitFor();
    const rooms = body(await api('GET', '/api/v1/rooms')).data as {
      id: string;
      latest_readings: { type: string; value: number; unit: string }[];
    }[];
    for (const room of rooms) {
      const row = page.locator(`[data-room="${room.id}"]`);
      for (const reading of room.latest_readings) {
        await row
          .locator(`.readings [data-type="${reading.type}"]`)
          .getByText(`${reading.value} ${reading.unit}`)
          .waitFor();
      }
    }
    const rowA = page.locator(`[data-room="${roomA.id}"]`);
    const silentRow = rowA.locator(`[data-device="${silent.id}"]`);
    await silentRow.getByText('not reporting').waitFor();
    expect(await silentRow.getAttribute('data-stale')).toBe('true');
    await silentRow.getByText('3 h ago').waitFor();
    const sensorA = await deviceNamed('Growth room A climate');
    await rowA.locator(`[data-device="${sensorA.id}"]`).getByText('reporting').waitFor();
    expect(await rowA.locator(`[data-device="${sensorA.id}"]`).getAttribute('data-stale')).toBe(
      'false',
    );
    await page.locator(`[data-room="${roomB.id}"]`).getByText('Temperature above 27 °C').waitFor();
    // The paused logger is paused, not silent.
    await page.getByText('paused').first().waitFor();
    await screenshotBothWidths(page, 'rooms');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("draws a room's chart with the values the summary returns, and lists its raw readings; a value no sensor can report is kept and flagged", async () => {
    const roomB = await roomNamed('Growth Room B');
    // A broken humidity sensor: 250 % is stored as sent, and flagged wherever it shows.
    const sensorB = await deviceNamed('Growth room B climate');
    const sent = await api('POST', '/api/v1/sensor-readings', {
      device_id: sensorB.id,
      type: 'humidity',
      value: 250,
      unit: '%',
    });
    expect(sent.statusCode).toBe(201);
    expect(body(sent).data).toMatchObject({ type: 'humidity', value: 250, unit: '%' });
    const latest = (await roomNamed('Growth Room B')) as unknown as {
      latest_readings: { type: string; out_of_range: boolean }[];
    };
    expect(latest.latest_readings.find((r) => r.type === 'humidity')!.out_of_range).toBe(true);
    const { context, page, problems } = await newPage(browser);
    await signIn(page, t, demo.ownerId);
    await page.goto(`${t.base}/rooms`);
    const roomRow = page.locator(`[data-room="${roomB.id}"]`);
    const humidity = roomRow.locator('.readings [data-type="humidity"]');
    await humidity.getByText('250 %').waitFor();
    await humidity.locator('.chip', { hasText: 'out of range' }).waitFor();
    await humidity.getByText('a sensor reads 0 to 100 %').waitFor();
    // The other values of the room are not flagged.
    expect(await roomRow.locator('.readings .chip').count()).toBe(1);
    const { query, buckets } = await summaryOf(page, () =>
      page.getByRole('link', { name: 'Growth Room B' }).first().click(),
    );
    expect(query.get('room_id')).toBe(roomB.id);
    expect(query.get('bucket')).toBe('5m');
    await page.locator('.charts[data-drawn="true"]').waitFor();
    // One chart per type (temperature and CO₂), each a canvas uPlot drew.
    expect(await page.locator('figure.chart').count()).toBe(
      new Set(buckets.map((b) => b.type)).size,
    );
    expect(await page.locator('figure.chart canvas').count()).toBeGreaterThan(0);
    // The answer arrives before the page draws it: wait for its values, not a flag.
    await expect.poll(() => tableValues(page), { timeout: 10_000 }).toEqual(apiValues(buckets));
    // Raw readings of the range below, newest first: the API's first page.
    const raw = body(
      await api(
        'GET',
        `/api/v1/sensor-readings?room_id=${roomB.id}&since=${encodeURIComponent(query.get('since')!)}&until=${encodeURIComponent(query.get('until')!)}&limit=50`,
      ),
    ).data as { value: number; unit: string }[];
    const rawRows = page.locator('.raw-table tbody tr');
    await rawRows.first().waitFor();
    expect(await rawRows.count()).toBe(raw.length);
    expect(await rawRows.first().locator('td').nth(2).textContent()).toMatch(
      new RegExp(`^${raw[0]!.value} ${raw[0]!.unit}`),
    );
    // The 250 % is in the chart's buckets as stored, flagged under its chart and in the tables.
    const humid = buckets.filter((b) => b.type === 'humidity');
    expect(humid.some((b) => b.max === 250 && (b as { out_of_range?: boolean }).out_of_range)).toBe(
      true,
    );
    const humidFigure = page.locator('figure.chart[data-type="humidity"]');
    await humidFigure.getByText('Some readings here are out of range').waitFor();
    expect(
      await humidFigure.locator('.values-table tbody tr.row-out-of-range').count(),
    ).toBeGreaterThan(0);
    const flagged = page.locator('.raw-table tbody tr', { hasText: '250 %' });
    await flagged.locator('.chip', { hasText: 'out of range' }).waitFor();
    expect(
      await page.locator('.raw-table tbody tr .chip', { hasText: 'out of range' }).count(),
    ).toBe(1);
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshotBothWidths(page, 'room');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows a viewer a device's readings and whether it reports, with no way to change it", async () => {
    const workspaceId = body(await api('GET', '/api/v1/workspaces')).data[0].id as string;
    const viewer = await inTransaction(t.database.db, async (trx) => {
      const { addMember } = await import('../../src/modules/identity/identity.service.js');
      return addMember(trx, { workspaceId, name: 'Vera Viewer', role: 'viewer' });
    });
    const sensorB = await deviceNamed('Growth room B climate');
    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, viewer.id);
    const { query, buckets } = await summaryOf(page, () =>
      page.goto(`${t.base}/devices/${sensorB.id}`),
    );
    expect(query.get('device_id')).toBe(sensorB.id);
    await page.getByRole('heading', { name: 'Growth room B climate', level: 1 }).waitFor();
    await page.locator('.charts[data-drawn="true"]').waitFor();
    // The answer arrives before the page draws it: wait for its values, not a flag.
    await expect.poll(() => tableValues(page), { timeout: 10_000 }).toEqual(apiValues(buckets));
    // The room it is in, by name; no status or token controls.
    await page.getByRole('link', { name: 'Growth Room B' }).waitFor();
    const writes = page.getByRole('button', { name: /pause|retire|make|revoke/i });
    expect(await writes.count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("draws a device's 7 and 30 days, hovers to a value and time, and takes a picked range", async () => {
    const sensorA = await deviceNamed('Growth room A climate');
    const { context, page, problems } = await newPage(browser);
    await signIn(page, t, demo.ownerId);
    await page.goto(`${t.base}/devices/${sensorA.id}`);
    await page.locator('.charts[data-drawn="true"]').waitFor();

    const week = await summaryOf(page, () => page.getByRole('button', { name: '7 days' }).click());
    expect(week.query.get('bucket')).toBe('1h');
    expect(week.query.get('device_id')).toBe(sensorA.id);
    await page.waitForURL(/\?range=7d$/);
    await page.locator('.charts[data-drawn="true"][data-bucket="1h"]').waitFor();
    // The answer arrives before the page draws it: wait for its values, not a flag.
    await expect
      .poll(() => tableValues(page), { timeout: 10_000 })
      .toEqual(apiValues(week.buckets));
    // Hovering the chart: the legend shows the time and the value under the cursor.
    // Hovering the chart at the last hour with readings: the legend shows its time and mean.
    const temperatures = week.buckets.filter((b) => b.type === 'temperature');
    const last = temperatures.at(-1)!;
    const hour = 3_600_000;
    const first = Math.floor(Date.parse(week.query.get('since')!) / hour) * hour;
    const end = Math.floor(Date.parse(week.query.get('until')!) / hour) * hour;
    const over = page.locator('figure.chart[data-type="temperature"] .u-over');
    const box = (await over.boundingBox())!;
    const x = box.x + (box.width * (Date.parse(last.start) - first)) / (end - first);
    await page.mouse.move(x, box.y + box.height / 2);
    const legend = page.locator('figure.chart[data-type="temperature"] .u-legend');
    const shown = await legend.locator('.u-value').allTextContents();
    expect(shown[0]).toBe(
      await page.evaluate<string>(`new Date(${JSON.stringify(last.start)}).toLocaleString()`),
    );
    expect(shown[1]).toBe(`${Number(last.avg.toFixed(2))} °C`);
    expect(shown[2]).toBe(`${Number(last.min.toFixed(2))} °C`);
    expect(shown[3]).toBe(`${Number(last.max.toFixed(2))} °C`);

    const month = await summaryOf(page, () =>
      page.getByRole('button', { name: '30 days' }).click(),
    );
    expect(month.query.get('bucket')).toBe('1h');
    await page.locator('.charts[data-drawn="true"]').waitFor();
    // The time from the tap to the drawn chart, as the page measured it.
    const measured = await page.evaluate<number>(
      "performance.getEntriesByName('vitro-chart').at(-1).duration",
    );
    expect(measured).toBeGreaterThan(0);
    // The answer arrives before the page draws it: wait for its values, not a flag.
    await expect
      .poll(() => tableValues(page), { timeout: 10_000 })
      .toEqual(apiValues(month.buckets));

    // A picked range of two days: whole days, its own address, a finer bucket.
    await page.getByRole('button', { name: 'Pick dates' }).click();
    const day = (offset: number) => {
      const at = new Date(Date.now() + offset * 86_400_000);
      return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
    };
    await page.getByLabel('From', { exact: true }).fill(day(-1));
    await page.getByLabel('To', { exact: true }).fill(day(0));
    const picked = await summaryOf(page, () => page.getByRole('button', { name: 'Show' }).click());
    expect(picked.query.get('bucket')).toBe('5m');
    await page.waitForURL(new RegExp(`from=${day(-1)}&to=${day(0)}$`));
    await page.locator('.charts[data-drawn="true"][data-bucket="5m"]').waitFor();
    // The answer arrives before the page draws it: wait for its values, not a flag.
    await expect
      .poll(() => tableValues(page), { timeout: 10_000 })
      .toEqual(apiValues(picked.buckets));
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshotBothWidths(page, 'device-chart');
    expect(problems).toEqual([]);
    await context.close();
  });
});
