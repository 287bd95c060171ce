import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsqr, { type QRCode } from 'jsqr';
import type { Locator, Page } from 'playwright-core';
import qrcode from 'qrcode-generator';
import { beforeAll, expect, it } from 'vitest';
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
 * Labels in headless Chromium, on each database: ticking explants in their list
 * and printing their labels (each QR code, read back from a screenshot with jsQR,
 * is the code the API gives), the printed PDF's sizes, and Scan: a photo of a
 * rendered label, the camera (Chromium's fake camera showing a label) and a typed
 * code each open their record and record a label scan.
 */

/** jsQR is CommonJS: its function is the module, or its `default` after interop. */
type JsQr = (data: Uint8ClampedArray, width: number, height: number) => QRCode | null;
const jsQR: JsQr = (jsqr as unknown as { default?: JsQr }).default ?? (jsqr as unknown as JsQr);

/** The code Chromium's fake camera shows: a plant of each test lab carries it. */
const CAMERA_CODE = 'VT-CAM-0001';
const MM = 96 / 25.4; // CSS pixels in a millimetre
const PT = 72 / 25.4; // PDF points in a millimetre

/** A Y4M video of one frame: the QR code of `code`, black on white, centred. */
function qrVideo(code: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(code, 'Byte');
  qr.make();
  const [width, height, cell] = [640, 480, 8];
  const side = qr.getModuleCount() * cell;
  const [left, top] = [(width - side) / 2, (height - side) / 2];
  const luma = Buffer.alloc(width * height, 235);
  for (let y = 0; y < side; y += 1) {
    for (let x = 0; x < side; x += 1) {
      if (qr.isDark(Math.floor(y / cell), Math.floor(x / cell))) {
        luma[(top + y) * width + left + x] = 16;
      }
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const file = join(tmpdir(), `vitro-label-camera-${process.pid}.y4m`);
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\nFRAME\n`),
      luma,
      chroma,
    ]),
  );
  return file;
}

/** Reads the QR code in a screenshot: the PNG's pixels through a canvas, decoded by jsQR. */
async function decodeShot(reader: Page, png: Buffer): Promise<string | null> {
  const { width, height, pixels } = await reader.evaluate<{
    width: number;
    height: number;
    pixels: number[];
  }>(
    `(async () => {
      const image = new Image();
      image.src = 'data:image/png;base64,${png.toString('base64')}';
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      const data = context.getImageData(0, 0, image.width, image.height).data;
      return { width: image.width, height: image.height, pixels: Array.from(data) };
    })()`,
  );
  return jsQR(Uint8ClampedArray.from(pixels), width, height)?.data ?? null;
}

/** The page sizes of a PDF, in millimetres, from each page's MediaBox. */
function pdfPages(pdf: Buffer): { width: number; height: number }[] {
  const boxes = [...pdf.toString('latin1').matchAll(/\/MediaBox\s*\[([^\]]+)\]/g)];
  return boxes.map((match) => {
    const [x0, y0, x1, y1] = match[1]!.trim().split(/\s+/).map(Number) as [
      number,
      number,
      number,
      number,
    ];
    return { width: (x1 - x0) / PT, height: (y1 - y0) / PT };
  });
}

consoleSuite(
  'labels in Chromium',
  ({ browser, t, demo }, target) => {
    const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.request({
        method,
        url,
        headers: {
          authorization: `Bearer ${demo.ownerKey}`,
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
        ...(payload ? { payload: JSON.stringify(payload) } : {}),
      });
    const codesOf = async (kind: 'plant' | 'explant', ids: readonly string[]) =>
      body(await api('GET', `/api/v1/labels/codes?${kind}_ids=${ids.join(',')}`)).data as {
        record_id: string;
        code: string;
      }[];
    const scansOf = (barcode: string) =>
      t.database.db
        .selectFrom('label_scans')
        .select(['barcode', 'plant_id', 'explant_id', 'context'])
        .where('barcode', '=', barcode)
        .execute();

    let jars: { id: string; label: string }[];
    let cameraPlant: string;

    beforeAll(async () => {
      jars = [];
      for (const n of [1, 2, 3, 4, 5]) {
        const explant = body(
          await api('POST', '/api/v1/explants', {
            label: `LBL-JAR-${n}`,
            batch_number: 'LBL-BATCH',
            ...(n === 2 ? { external_id: 'LBL-EXT-2' } : {}),
          }),
        ).data as { id: string; label: string };
        jars.push(explant);
      }
      cameraPlant = body(
        await api('POST', '/api/v1/plants', { species: 'Ficus lyrata', external_id: CAMERA_CODE }),
      ).data.id as string;
    });

    it('ticks explants in the list and prints their labels: each QR code decodes to its label code', async () => {
      const { context, page, problems } = await newPage(browser, DESKTOP);
      await signIn(page, t, demo.ownerId);
      await page.goto(`${t.base}/explants?q=LBL-JAR`);
      for (const jar of jars) {
        await page.getByRole('checkbox', { name: `Select ${jar.label}` }).check();
      }
      await page.getByRole('status').filter({ hasText: '5 selected' }).waitFor();
      await screenshotBothWidths(page, 'labels-select');
      await page.getByRole('link', { name: 'Print labels' }).click();
      await page.waitForURL((url) => url.pathname === '/labels/print');
      const labels = page.locator('article.label');
      await expect.poll(() => labels.count()).toBe(jars.length);
      // The print sheet is reached from a list, not from Scan: the sidebar does not light Scan.
      const scan = page
        .getByRole('navigation', { name: 'Console', exact: true })
        .getByRole('link', { name: 'Scan' });
      expect(await scan.getAttribute('aria-current')).toBeNull();

      const expected = await codesOf(
        'explant',
        jars.map((jar) => jar.id),
      );
      // The selection's order is the sheet's; one jar has its own external id.
      expect(expected.map((label) => label.record_id).sort()).toEqual(
        jars.map((jar) => jar.id).sort(),
      );
      expect(expected.map((label) => label.code)).toContain('LBL-EXT-2');

      const reader = await context.newPage();
      const decoded: string[] = [];
      for (let i = 0; i < jars.length; i += 1) {
        const shot = await labels.nth(i).locator('svg.label-qr').screenshot();
        decoded.push((await decodeShot(reader, shot)) ?? 'unreadable');
      }
      expect(decoded).toEqual(expected.map((label) => label.code));
      await reader.close();
      await expect.poll(() => labels.nth(0).textContent()).toContain(expected[0]!.code);

      await screenshotBothWidths(page, 'labels-print');
      expect(problems).toEqual([]);
      await context.close();
    });

    it('prints to PDF at the stated sizes: 50 × 25 mm roll pages, A4 and Letter sheets with their grid pitch', async () => {
      const { context, page, problems } = await newPage(browser, DESKTOP);
      await signIn(page, t, demo.ownerId);
      const ids = jars.map((jar) => jar.id).join(',');

      await page.goto(`${t.base}/labels/print?explant_ids=${ids}&layout=roll`);
      await expect.poll(() => page.locator('svg.label-qr').count()).toBe(jars.length);
      const roll = pdfPages(await page.pdf({ preferCSSPageSize: true, printBackground: true }));
      expect(roll).toHaveLength(jars.length);
      for (const size of roll) {
        expect(Math.abs(size.width - 50)).toBeLessThan(1);
        expect(Math.abs(size.height - 25)).toBeLessThan(1);
      }

      for (const sheet of [
        { layout: 'a4', page: [210, 297], pitch: [70, 37] },
        { layout: 'letter', page: [215.9, 279.4], pitch: [69.85, 25.4] },
      ] as const) {
        await page.goto(`${t.base}/labels/print?explant_ids=${ids}&layout=${sheet.layout}`);
        await expect.poll(() => page.locator('svg.label-qr').count()).toBe(jars.length);
        const pages = pdfPages(await page.pdf({ preferCSSPageSize: true }));
        expect(pages).toHaveLength(1);
        expect(Math.abs(pages[0]!.width - sheet.page[0])).toBeLessThan(1);
        expect(Math.abs(pages[0]!.height - sheet.page[1])).toBeLessThan(1);
        // The grid as printed: from the first label to the next across and the one below.
        await page.emulateMedia({ media: 'print' });
        const box = async (label: Locator) => (await label.boundingBox())!;
        const labels = page.locator('article.label');
        const [first, across, below] = [
          await box(labels.nth(0)),
          await box(labels.nth(1)),
          await box(labels.nth(3)),
        ];
        expect(Math.abs((across.x - first.x) / MM - sheet.pitch[0])).toBeLessThan(1);
        expect(Math.abs((below.y - first.y) / MM - sheet.pitch[1])).toBeLessThan(1);
        expect(Math.abs(first.width / MM - (sheet.layout === 'a4' ? 70 : 66.675))).toBeLessThan(1);
        await page.emulateMedia({ media: null });
      }
      expect(problems).toEqual([]);
      await context.close();
    });

    it('renders a sheet of 240 labels, each with the code the API gives', async () => {
      const ids: string[] = [];
      for (let n = 0; n < 240; n += 1) {
        ids.push(
          body(await api('POST', '/api/v1/explants', { label: `BULK-${n}` })).data.id as string,
        );
      }
      const { context, page, problems } = await newPage(browser, DESKTOP);
      await signIn(page, t, demo.ownerId);
      const started = Date.now();
      const answered = page
        .waitForResponse((response) => response.url().includes('/api/v1/labels/codes'))
        .then(() => Date.now());
      await page.goto(`${t.base}/labels/print?explant_ids=${ids.join(',')}`);
      await page.locator('svg.label-qr').nth(239).waitFor({ state: 'attached', timeout: 30_000 });
      const drawn = Date.now();
      console.log(
        `[labels] ${target.name}: 240 labels: ${drawn - started} ms from opening the address, ` +
          `${drawn - (await answered)} ms to draw them once the codes arrived`,
      );
      const shown = await page
        .locator('article.label')
        .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-code')));
      const asked = Date.now();
      const expected = await codesOf('explant', ids);
      console.log(
        `[labels] ${target.name}: GET /labels/codes for 240 explants in ${Date.now() - asked} ms`,
      );
      expect(shown).toEqual(expected.map((label) => label.code));
      await page.getByRole('status').filter({ hasText: '240 labels on 10 sheets' }).waitFor();
      expect(problems).toEqual([]);
      await context.close();
    });

    it('scans a photo of a printed label, the camera and a typed code: each opens its record and records a scan', async () => {
      const { context, page, problems } = await newPage(browser, PHONE);
      await signIn(page, t, demo.ownerId);
      const jar = jars[2]!;
      const [code] = (await codesOf('explant', [jar.id])).map((label) => label.code);

      // A photo of the label as the sheet renders it.
      await page.goto(`${t.base}/labels/print?explant_ids=${jar.id}`);
      const photo = await page.locator('article.label').screenshot();
      await page
        .getByRole('link', { name: 'Scan' })
        .or(page.getByRole('button', { name: 'Scan' }))
        .first()
        .click();
      await page.waitForURL((url) => url.pathname === '/labels');
      await screenshotBothWidths(page, 'labels-scan');
      await page.setViewportSize(PHONE);
      const recorded = page.waitForResponse(
        (response) => response.url().endsWith('/api/v1/label-scans') && response.status() === 201,
      );
      await page
        .locator('input[type=file]')
        .setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: photo });
      const scan = ((await (await recorded).json()) as { data: Record<string, unknown> }).data;
      expect(scan).toMatchObject({ barcode: code, resolved: true, explantId: jar.id });
      await page.waitForURL((url) => url.pathname === `/explants/${jar.id}`);

      // The camera: Chromium's fake camera films the label of CAMERA_CODE.
      await page.goto(`${t.base}/labels/scan`);
      await page.getByRole('button', { name: 'Scan with the camera' }).click();
      await page.waitForURL((url) => url.pathname === `/plants/${cameraPlant}`, {
        timeout: 15_000,
      });

      // A USB scanner types the code and presses Enter.
      await page.goto(`${t.base}/labels`);
      await page.getByLabel('Label code').fill(jars[1]!.label.toLowerCase());
      await page.getByLabel('Label code').press('Enter');
      await page.waitForURL((url) => url.pathname === `/explants/${jars[1]!.id}`);

      // An unknown code: the API's words, and the scan kept unresolved.
      await page.goto(`${t.base}/labels`);
      await page.getByLabel('Label code').fill('NO-SUCH-LABEL');
      await page.getByRole('button', { name: 'Open' }).click();
      await page.getByRole('alert').waitFor();
      await expectAccessible(page, 'scan with an unknown code');

      expect(await scansOf(code!)).toEqual([
        { barcode: code, plant_id: null, explant_id: jar.id, context: 'console' },
      ]);
      expect(await scansOf(CAMERA_CODE)).toEqual([
        { barcode: CAMERA_CODE, plant_id: cameraPlant, explant_id: null, context: 'console' },
      ]);
      expect(await scansOf(jars[1]!.label.toLowerCase())).toEqual([
        {
          barcode: jars[1]!.label.toLowerCase(),
          plant_id: null,
          explant_id: jars[1]!.id,
          context: 'console',
        },
      ]);
      expect(await scansOf('NO-SUCH-LABEL')).toEqual([
        { barcode: 'NO-SUCH-LABEL', plant_id: null, explant_id: null, context: 'console' },
      ]);
      expect(problems.filter((problem) => !problem.includes('404'))).toEqual([]);
      await context.close();
    });
  },
  {
    // Chromium's fake camera films a label of CAMERA_CODE.
    browserArgs: () => {
      mkdirSync(tmpdir(), { recursive: true });
      return [
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${qrVideo(CAMERA_CODE)}`,
      ];
    },
  },
);
