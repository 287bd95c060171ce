import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchChromium } from '../support/chromium.js';
import { sqliteTarget } from '../support/harness.js';
import { appSuite } from '../support/suite.js';

/** A host name that is not loopback as far as the browser knows; it resolves to 127.0.0.1. */
const HOST_NAME = 'lab-server';
const required = ['1', 'true'].includes(process.env.VITRO_TEST_REQUIRE_BROWSER ?? '');
const present = existsSync(CHROMIUM);

if (!present && !required) {
  console.warn(
    `\n[vitro tests] docs page browser test SKIPPED: ${CHROMIUM} not found ` +
      `(apt-get install chromium; VITRO_TEST_REQUIRE_BROWSER=1 makes this a failure).\n`,
  );
}

/**
 * The docs page in a real browser, opened over plain HTTP through a host name
 * that is not loopback, as a lab opens `http://lab-server:3000/docs` when the
 * server listens on 0.0.0.0. A page whose CSP upgrades requests to https renders
 * nothing there.
 */
describe.skipIf(!present && !required)('docs page in headless Chromium', () => {
  const { t } = appSuite(sqliteTarget());
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    if (!present) throw new Error(`VITRO_TEST_REQUIRE_BROWSER is set but ${CHROMIUM} is missing`);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://${HOST_NAME}:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium([`--host-resolver-rules=MAP ${HOST_NAME} 127.0.0.1`]);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('renders the operations over http on a non-loopback host name, titled Vitro', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('requestfailed', (request) =>
      problems.push(`request failed: ${request.url()} (${request.failure()?.errorText ?? '?'})`),
    );
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
    });

    const response = await page.goto(`${base}/docs`);
    expect(response?.status()).toBe(200);
    // The tags start folded (a long list renders at once); opening one shows its operations.
    await page.locator('#operations-tag-Plants').click();
    const operation = page.locator('#operations-Plants-listPlants');
    await operation.waitFor({ state: 'visible', timeout: 15_000 }).catch((error: unknown) => {
      throw new Error(
        `listPlants did not render: ${String(error)}\n${problems.join('\n') || 'no other problem seen'}`,
      );
    });
    expect(await operation.getAttribute('class')).toContain('opblock');
    // Every tag listed; the Plants tag open with its operations.
    expect(await page.locator('.opblock-tag').count()).toBeGreaterThan(20);
    expect(await page.locator('.opblock').count()).toBeGreaterThan(5);
    expect(await page.title()).toMatch(/Vitro/);
    expect(problems).toEqual([]);
    await page.close();
  });
});
