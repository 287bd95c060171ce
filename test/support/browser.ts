import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect } from 'vitest';
import { isPostgres, poolStatsOf } from '../../src/db/database.js';
import { inTransaction } from '../../src/db/transaction.js';
import type { BlobStore } from '../../src/files/blob-store.js';
import { createBlobStore } from '../../src/files/create-blob-store.js';
import { createDemoLab, demoPhotos } from '../../src/modules/demo/index.js';
import { createRecordLookup } from '../../src/modules/index.js';
import { mintSignInLinkForMember } from '../../src/modules/sessions/index.js';
import {
  body,
  databaseTargets,
  startTestApp,
  type DatabaseTarget,
  type TestApp,
} from './harness.js';
import { CHROMIUM, launchChromium } from './chromium.js';
import { REPO_ROOT } from './node-script.js';
import { live } from './suite.js';

/**
 * What the console's browser tests share: the app listening on 127.0.0.1, Debian's
 * Chromium driven by playwright-core (one browser per test file), signing in
 * through a freshly minted link, an axe-core check, and screenshots at a phone's
 * and a desktop's size into test/.screenshots/ (ignored by git).
 */

const required = ['1', 'true'].includes(process.env.VITRO_TEST_REQUIRE_BROWSER ?? '');
const present = existsSync(CHROMIUM);

/** Whether the browser tests run here; says why not, once, when they are skipped. */
export function browserTestsRun(what: string): boolean {
  if (!present && !required) {
    console.warn(
      `\n[vitro tests] ${what} SKIPPED: ${CHROMIUM} not found ` +
        `(apt-get install chromium; VITRO_TEST_REQUIRE_BROWSER=1 makes this a failure).\n`,
    );
  }
  return present || required;
}

/** The console these tests open: built by `npm install` (or `npm run build:web`), not by the tests. */
const CONSOLE_BUILD = join(REPO_ROOT, 'dist', 'web', 'index.html');

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (!present) throw new Error(`VITRO_TEST_REQUIRE_BROWSER is set but ${CHROMIUM} is missing`);
  // Without a build every screen waits for a heading that never comes: say why at once.
  if (!existsSync(CONSOLE_BUILD)) {
    throw new Error(
      `the console is not built (${CONSOLE_BUILD} is missing): run npm run build:web`,
    );
  }
  return launchChromium(extraArgs);
}

/** The app on a real socket: `base` is the address a browser opens. */
export interface ListeningApp extends TestApp {
  readonly base: string;
  /** The requests it has not answered yet, with how long each has waited. */
  inFlight(): string[];
}

export async function listeningApp(
  target: DatabaseTarget = databaseTargets()[0]!,
  env: Record<string, string> = {},
): Promise<ListeningApp> {
  const t = await startTestApp(target, {
    env: {
      VITRO_RATE_LIMIT_KEY_PER_MIN: '100000',
      VITRO_RATE_LIMIT_WORKSPACE_PER_MIN: '100000',
      ...env,
    },
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const open = new Map<object, { what: string; at: number }>();
  t.app.server.on('request', (request, response) => {
    open.set(response, { what: `${request.method} ${request.url}`, at: Date.now() });
    response.on('close', () => open.delete(response));
  });
  const inFlight = () =>
    [...open.values()].map(({ what, at }) => `${what} (${Date.now() - at} ms)`);
  return { ...t, base, inFlight };
}

/** Each open page's address and the start of its text, to read beside a failed step. */
async function whatThePagesShow(browser: Browser): Promise<string> {
  const lines: string[] = [];
  for (const context of browser.contexts()) {
    for (const page of context.pages()) {
      const text = await page
        .locator('body')
        .innerText({ timeout: 2000 })
        .catch((error: Error) => `(unreadable: ${error.message.split('\n')[0]})`);
      lines.push(`page ${page.url()}:\n  ${text.slice(0, 1500).replace(/\n+/g, '\n  ')}`);
    }
  }
  return lines.join('\n');
}

/**
 * What the server was doing when a browser test failed: its unanswered requests, its
 * PostgreSQL pool, and that database's busy sessions (what each waits for, and on whom).
 * A step that timed out says only what it waited for; this says why.
 */
export async function whatTheServerWasDoing(t: ListeningApp): Promise<string> {
  const lines = [`requests in flight: ${JSON.stringify(t.inFlight())}`];
  const db = t.database.db;
  if (isPostgres(db)) {
    lines.push(`pool: ${JSON.stringify(poolStatsOf(db))}`);
    const busy = await sql<Record<string, unknown>>`
      select pid, state, wait_event_type, wait_event, pg_blocking_pids(pid) as blocked_by,
        round(extract(epoch from now() - xact_start)::numeric, 1) as xact_s,
        left(query, 300) as query
      from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'
      order by xact_start`.execute(db);
    for (const row of busy.rows) lines.push(`session: ${JSON.stringify(row)}`);
  }
  return lines.join('\n');
}

/** What a console test file's tests share: live views, set by the suite's hooks. */
export interface ConsoleSuite {
  /** The file's one Chromium (a profile per person: `newPage`). */
  readonly browser: Browser;
  /** The app listening on this database, with the demo lab in it. */
  readonly t: ListeningApp;
  /** The demo lab: its workspace, its owner, and the owner's API key to check what the console did. */
  readonly demo: {
    readonly workspaceId: string;
    readonly ownerId: string;
    readonly ownerKey: string;
  };
}

/**
 * A console browser test file's prelude: skipped (saying why) without Chromium; one
 * browser for the file; on each database (`on sqlite`, `on postgres`) the app
 * listening with the demo lab in it. `tests` declares the tests; hooks it adds run
 * after the lab exists.
 */
export function consoleSuite(
  title: string,
  tests: (suite: ConsoleSuite, target: DatabaseTarget) => void,
  options: {
    /** Chromium's extra flags, worked out when it starts (a fake camera's video). */
    browserArgs?: () => string[];
    /** The demo lab with its photos, in the app's blob store. */
    photos?: boolean;
  } = {},
): void {
  describe.skipIf(!browserTestsRun(title))(title, () => {
    let browser: Browser | undefined;
    beforeAll(async () => {
      browser = await launchBrowser(options.browserArgs?.() ?? []);
    });
    afterAll(async () => {
      await browser?.close();
    });

    describe.each(databaseTargets())('on $name', (target) => {
      let t: ListeningApp | undefined;
      let store: BlobStore | undefined;
      let demo: ConsoleSuite['demo'] | undefined;
      beforeAll(async () => {
        const app = await listeningApp(target);
        t = app;
        if (options.photos) store = await createBlobStore(app.config);
        const photos = store ? demoPhotos(store) : null;
        const lab = await inTransaction(app.database.db, (trx) =>
          createDemoLab(trx, createRecordLookup(), new Date(), photos),
        );
        const me = await app.request({
          method: 'GET',
          url: '/api/v1/me',
          headers: { authorization: `Bearer ${lab.key}` },
        });
        demo = {
          workspaceId: lab.workspace_id,
          ownerKey: lab.key,
          ownerId: body<{ data: { user: { id: string } } }>(me).data.user.id,
        };
      });
      afterAll(async () => {
        store?.close();
        await t?.close();
      });
      beforeEach((context) => {
        context.onTestFailed(async () => {
          if (t === undefined) return;
          const pages = browser === undefined ? '' : await whatThePagesShow(browser);
          console.error(`${context.task.name}:\n${await whatTheServerWasDoing(t)}\n${pages}`);
        });
      });
      tests(
        {
          browser: live('browser', () => browser),
          t: live('t', () => t),
          demo: live('demo', () => demo),
        },
        target,
      );
    });
  });
}

/**
 * The demo lab's owner's API key, to set up what a test needs and check what the
 * console did: `api` answers as sent, `read` gives the data of a 200 (else fails),
 * `roomId` a room of the lab by its name.
 */
export function ownerApi(suite: Pick<ConsoleSuite, 't' | 'demo'>) {
  const { t, demo } = suite;
  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    t.request({
      method,
      url,
      headers: { authorization: `Bearer ${demo.ownerKey}` },
      ...(payload === undefined ? {} : { payload }),
    });
  const read = async (url: string) => {
    const res = await api('GET', url);
    expect(res.statusCode, url).toBe(200);
    return body(res).data;
  };
  const roomId = async (name: string): Promise<string> =>
    ((await read('/api/v1/rooms')) as { id: string; name: string }[]).find((r) => r.name === name)!
      .id;
  return { api, read, roomId };
}

/** A sign-in link for a member at this app's address, as `vitro member link` makes one. */
export async function signInLink(t: ListeningApp, memberId: string): Promise<string> {
  const link = await inTransaction(t.database.db, (trx) =>
    mintSignInLinkForMember(trx, memberId, t.base, new Date().toISOString()),
  );
  return link.url;
}

export const PHONE = { width: 375, height: 800 } as const;
export const DESKTOP = { width: 1440, height: 900 } as const;

/**
 * A fresh browser profile (its own cookies) at a size, the console's service worker
 * allowed unless `serviceWorkers: 'block'` (a browser that keeps no page offline), collecting what a person
 * would not see: console errors (a Content-Security-Policy refusal among them)
 * and failed requests.
 */
export async function newPage(
  browser: Browser,
  viewport: { width: number; height: number } = DESKTOP,
  options: { serviceWorkers?: 'allow' | 'block' } = {},
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    // A 401 while signed out, a 422 shown next to its field: the API's answers, not faults.
    if (message.type() === 'error' && !/responded with a status of 4\d\d/.test(message.text())) {
      problems.push(`console: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '?';
    // A load cut short by the next navigation is not a fault of the page.
    if (reason !== 'net::ERR_ABORTED')
      problems.push(`request failed: ${request.url()} (${reason})`);
  });
  return { context, page, problems };
}

/** Opens a minted sign-in link and waits until the console has left the sign-in page. */
export async function signIn(page: Page, t: ListeningApp, memberId: string): Promise<void> {
  await page.goto(await signInLink(t, memberId));
  await page.waitForURL((url) => url.pathname !== '/sign-in', { timeout: 15_000 });
}

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * axe-core on the page as it is: fails on any serious or critical violation,
 * naming each with the elements concerned. Injected through the DevTools
 * protocol, which the page's CSP does not govern.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  // A string, evaluated in the page (the tests' own TypeScript knows no DOM).
  const violations = await page.evaluate<AxeViolation[]>(`axe.run(document).then((result) =>
    result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    })))`);
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`,
    );
  expect(serious, `accessibility of ${screen}`).toEqual([]);
}

const SHOTS = join(REPO_ROOT, 'test', '.screenshots');

/**
 * The page at a phone's width and a desktop's, each screenshot into
 * test/.screenshots/<name>-375.png and -1440.png, each checked with axe.
 */
export async function screenshotBothWidths(page: Page, name: string): Promise<string[]> {
  mkdirSync(SHOTS, { recursive: true });
  const files: string[] = [];
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    const file = join(SHOTS, `${name}-${size.width}.png`);
    await page.screenshot({ path: file, fullPage: false });
    await expectAccessible(page, `${name} at ${size.width} px`);
    files.push(file);
  }
  return files;
}
