import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
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
  signInLink,
  type ListeningApp,
} from '../support/browser.js';

/**
 * The console as a person uses it, in headless Chromium, on each database: signing
 * in through a minted link, the admin screens (checked through the API
 * afterwards), what a cross-site form and a removed member get, what a viewer
 * sees, and axe on every screen. One browser for the file; a profile per person.
 */
consoleSuite('the console in Chromium', ({ browser, t, demo }) => {
  /** The API as the demo lab's owner script sees it, to check what the console did. */
  const api = (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}) =>
    t.request({ method, url, headers: { authorization: `Bearer ${demo.ownerKey}`, ...headers } });

  it('signs in through a minted link; the cookie is HttpOnly and the secret leaves the address bar', async () => {
    const { context, page, problems } = await newPage(browser);
    await signIn(page, t, demo.ownerId);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(page.url()).not.toContain('vsl_');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.evaluate('document.cookie')).toBe('');
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'vitro_session', httpOnly: true, sameSite: 'Strict' });
    await screenshotBothWidths(page, 'home');
    // Dark mode, from the system's setting: still readable.
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshotBothWidths(page, 'home-dark');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows Today: due tasks, open contaminations, transfers due, activity with names, rooms', async () => {
    const { context, page, problems } = await newPage(browser, PHONE);
    // The people directory answers late: until it does, no name at all, never "Someone".
    let release: () => void = () => undefined;
    const held = new Promise<void>((done) => (release = done));
    await page.route('**/api/v1/people?*', async (route) => {
      await held;
      await route.continue();
    });
    await signIn(page, t, demo.ownerId);
    const activityPart = page.getByRole('region', { name: 'Latest activity' });
    await activityPart.locator('li').first().waitFor();
    expect(await page.locator('main').textContent()).not.toMatch(/Someone|former member/);
    expect(await activityPart.getByText('Luis Ortega').count()).toBe(0);
    release();
    const due = page.getByRole('region', { name: 'Tasks due today or tomorrow' });
    const task = due.getByRole('link', {
      name: 'Check ANT-WAR-B01 vessels for bacterial spread',
    });
    await task.waitFor();
    const contaminations = page.getByRole('region', { name: 'Open contaminations' });
    await contaminations
      .getByRole('link', { name: 'Milky ooze spreading from the explant base' })
      .waitFor();
    const transfers = page.getByRole('region', { name: 'Cultures due for transfer this week' });
    await transfers.getByRole('link', { name: 'MON-TC-B01' }).waitFor();
    const activity = page.getByRole('region', { name: 'Latest activity' });
    await activity.getByText('contamination resolved').first().waitFor();
    await activity.getByText('Luis Ortega').first().waitFor();
    // In the order they were recorded, each labelled so; a back-dated one says when it happened.
    const feed = body(await api('GET', '/api/v1/activity?limit=10')).data as {
      created_at: string;
      event_time: string;
    }[];
    const lines = await activity.locator('li .muted').allTextContents();
    expect(lines).toHaveLength(feed.length);
    for (const [i, line] of lines.entries()) {
      expect(line).toMatch(/^Recorded /);
      const backDated = Date.parse(feed[i]!.created_at) - Date.parse(feed[i]!.event_time) > 60_000;
      expect(line.includes('happened'), line).toBe(backDated);
    }
    await activity.scrollIntoViewIfNeeded();
    await screenshotBothWidths(page, 'today-activity');
    await page.setViewportSize(PHONE);
    const rooms = page.getByRole('region', { name: 'Rooms' });
    await rooms.getByText('24.5 °C').waitFor();
    await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
    await screenshotBothWidths(page, 'today');
    // Each item leads to its record's address.
    const href = await contaminations.getByRole('link').first().getAttribute('href');
    const open = body(await api('GET', '/api/v1/contaminations?open=true')).data;
    expect(href).toBe(`/contaminations/${open[0].id}`);
    await task.click();
    await page.waitForURL(/\/tasks\/[0-9a-f-]{36}$/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('lists plants: a search finds one, a filter narrows, More loads the next page', async () => {
    // More plants than a page holds (25), so the list has a second page.
    for (let i = 1; i <= 25; i++) {
      const made = await t.request({
        method: 'POST',
        url: '/api/v1/plants',
        headers: { authorization: `Bearer ${demo.ownerKey}` },
        payload: { species: 'Nepenthes ventricosa', external_id: `NEP-${i}` },
      });
      expect(made.statusCode).toBe(201);
    }
    const { context, page, problems } = await newPage(browser);
    await signIn(page, t, demo.ownerId);
    await page.getByRole('link', { name: 'Plants' }).first().click();
    await page.getByRole('heading', { name: 'Plants', level: 1 }).waitFor();
    const rows = page.locator('.record-rows li.row');
    await page.getByRole('button', { name: 'More plants' }).waitFor();
    expect(await rows.count()).toBe(25);
    await page.getByRole('button', { name: 'More plants' }).click();
    await page.getByRole('status').getByText('30 shown').waitFor();
    expect(await page.getByRole('button', { name: 'More plants' }).count()).toBe(0);
    // The sidebar's background runs down the whole of a tall page.
    const heights = await page.evaluate<[number, number]>(
      `[document.querySelector('.sidebar').getBoundingClientRect().height, document.documentElement.scrollHeight]`,
    );
    expect(heights[1]).toBeGreaterThan(DESKTOP.height * 2);
    expect(heights[0]).toBeGreaterThanOrEqual(heights[1] - 1);

    await page.getByLabel('Search plants').fill('thai');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/\/plants\?q=thai$/);
    const monstera = page.getByRole('link', { name: "Monstera 'Thai Constellation'" });
    await monstera.waitFor();
    await page.getByRole('status').getByText('1 shown').waitFor();
    await screenshotBothWidths(page, 'plants-search');
    await page.setViewportSize(DESKTOP);
    // A room narrows the list; the filters live in the address.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Room').selectOption({ label: 'Growth Room B' });
    await page.waitForURL(/room_id=/);
    await page.getByRole('status').getByText('2 shown').waitFor();
    await page.getByRole('link', { name: "Alocasia 'Frydek'" }).waitFor();
    await screenshotBothWidths(page, 'plants');
    const plants = body(await api('GET', '/api/v1/plants?q=frydek')).data;
    await page.getByRole('link', { name: "Alocasia 'Frydek'" }).click();
    await page.waitForURL(`${t.base}/plants/${plants[0].id}`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('lists explants: search, stage filter, and the API refusal of an unknown stage', async () => {
    const { context, page, problems } = await newPage(browser, PHONE);
    context.setDefaultTimeout(10_000);
    await signIn(page, t, demo.ownerId);
    await page.goto(`${t.base}/explants`);
    await page.getByRole('link', { name: 'MON-TC-B01' }).waitFor();
    await page.getByRole('status').getByText('4 shown').waitFor();
    // On a phone the filters fold behind one button: the first record shows on the first screen.
    expect(await page.getByLabel('Room').isVisible()).toBe(false);
    const firstRow = await page.locator('.record-rows li.row').first().boundingBox();
    expect(firstRow!.y + firstRow!.height).toBeLessThan(PHONE.height - 72);
    // Record links and ticks are whole touch targets.
    for (const target of [
      page.locator('.record-rows .row-title a').first(),
      page.locator('.record-rows .row-select').first(),
    ]) {
      const box = await target.boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(44);
      expect(box!.width).toBeGreaterThanOrEqual(44);
    }
    await screenshotBothWidths(page, 'explants-phone');
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Filters' }).click();
    await page.getByLabel('Room').waitFor();
    await page.getByLabel('Search explants').fill('alo-fr');
    await page.getByLabel('Search explants').press('Enter');
    await page.getByRole('status').getByText('1 shown').waitFor();
    await page.getByRole('link', { name: 'ALO-FR-B03' }).waitFor();
    await screenshotBothWidths(page, 'explants-search');
    await page.setViewportSize(PHONE);
    await page.goto(`${t.base}/explants?stage=Root%20Induction`);
    await page.getByRole('link', { name: 'PHI-PP-B02' }).waitFor();
    await page.getByRole('status').getByText('1 shown').waitFor();
    // Folded, the button says a filter is on.
    await page.getByRole('button', { name: 'Filters (1 on)' }).click();
    expect(await page.getByLabel('Stage').inputValue()).toBe('Root Induction');
    await screenshotBothWidths(page, 'explants');
    await page.goto(`${t.base}/explants?stage=Flowering`);
    await page.locator('.notice-bad').waitFor();
    expect(await page.locator('.notice-bad').textContent()).toContain('Flowering');
    // The bottom bar: Today, Explants, Scan, Tasks, SOPs; its More leads to the others.
    await page.setViewportSize(PHONE);
    const bar = page.getByRole('navigation', { name: 'Console (bottom bar)' });
    expect(await bar.getByRole('link').allTextContents()).toEqual([
      'Today',
      'Explants',
      'Tasks',
      'SOPs',
    ]);
    await bar.getByRole('button', { name: 'More' }).click();
    const more = page.getByRole('list', { name: 'More places' });
    expect(await more.getByRole('link').allTextContents()).toEqual([
      'Plants',
      'Contaminations',
      'Media',
      'Stock',
      'Rooms',
      'Insights',
      'Members',
      'API keys',
      'Devices',
    ]);
    await screenshotBothWidths(page, 'more-menu');
    await page.setViewportSize(PHONE);
    await more.getByRole('link', { name: 'Contaminations' }).click();
    await page.getByRole('heading', { name: 'Contaminations', level: 1 }).waitFor();
    // Each log says which culture it is on, by name, linking to it.
    const [open] = body(await api('GET', '/api/v1/contaminations?open=true&limit=1')).data;
    const onExplant = body(await api('GET', `/api/v1/explants/${open.explant_ids[0]}`)).data;
    const row = page.locator('li.row', { hasText: open.issue });
    await row.getByRole('link', { name: onExplant.label }).waitFor();
    expect(await row.getByRole('link', { name: onExplant.label }).getAttribute('href')).toBe(
      `/explants/${onExplant.id}`,
    );
    await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
    await screenshotBothWidths(page, 'contaminations');
    await page.setViewportSize(PHONE);
    await bar.getByRole('button', { name: 'More' }).click();
    await more.getByRole('link', { name: 'Devices' }).click();
    await page.getByRole('heading', { name: 'Devices', level: 1 }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('takes a person opening an address signed out through sign-in and back to it', async () => {
    const device = body(await api('GET', '/api/v1/devices')).data[0];
    const { context, page, problems } = await newPage(browser, PHONE);
    await page.goto(`${t.base}/devices/${device.id}`);
    await page.waitForURL(/\/signed-out\?next=/);
    await page.getByRole('heading', { name: 'You are signed out' }).waitFor();
    await screenshotBothWidths(page, 'signed-out');
    await page.goto(await signInLink(t, demo.ownerId));
    await page.waitForURL(`${t.base}/devices/${device.id}`);
    await page.getByRole('heading', { level: 1, name: device.name }).waitFor();
    await screenshotBothWidths(page, 'device');
    // An expired or used link says so, in the API's words, with a way forward.
    const used = await signInLink(t, demo.ownerId);
    const other = await newPage(browser, PHONE);
    await other.page.goto(used);
    await other.page.waitForURL((url) => url.pathname !== '/sign-in');
    await page.goto(used);
    await page.getByRole('alert').getByText('already used').waitFor();
    await screenshotBothWidths(page, 'sign-in-failed');
    // A link cut short or changed says so at once, and what to do.
    const fresh = await newPage(browser, PHONE);
    await fresh.page.goto(`${t.base}/sign-in#vsl_garbage`);
    await fresh.page.getByRole('alert').getByText('This sign-in link is not valid').waitFor();
    await fresh.page.getByLabel('Sign-in link').waitFor();
    expect(fresh.page.url()).toBe(`${t.base}/sign-in`);
    await screenshotBothWidths(fresh.page, 'sign-in-garbage');
    expect(fresh.problems).toEqual([]);
    await fresh.context.close();
    await other.context.close();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('adds a member, changes the role, hands over a sign-in link and removes them; the API agrees', async () => {
    const { context, page, problems } = await newPage(browser);
    await signIn(page, t, demo.ownerId);
    await page.getByRole('link', { name: 'Members' }).first().click();
    await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await screenshotBothWidths(page, 'members');
    await page.setViewportSize(DESKTOP);

    // Each submission of the form carries its Idempotency-Key, the same until it succeeds.
    const keys: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url() === `${t.base}/api/v1/members`) {
        keys.push(request.headers()['idempotency-key'] ?? '');
      }
    });
    await page.getByRole('button', { name: 'Add a member' }).click();
    const form = page.getByRole('form', { name: 'New member' });
    await form.getByLabel('Name').fill('Noor Haddad');
    await form.getByText('More').click();
    await form.getByLabel('Email').fill('not-an-email');
    await form.getByRole('button', { name: 'Add member' }).click();
    // The API's own words, next to the field it names.
    const emailError = form.locator('#email-error');
    await emailError.waitFor();
    expect(await emailError.textContent()).toBe('Email: "not-an-email" is not an email address');
    expect(await form.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    await screenshotBothWidths(page, 'members-add-error');
    await page.setViewportSize(DESKTOP);
    await form.getByLabel('Email').fill('noor@greenleaf.example');
    await form.getByRole('button', { name: 'Add member' }).click();
    await page.getByRole('status').getByText('Noor Haddad was added').waitFor();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^console-[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);

    const members = body(await signedInApi(page, 'GET', '/api/v1/members?limit=200')).data;
    const noor = members.find((m: { name: string }) => m.name === 'Noor Haddad');
    expect(noor).toMatchObject({
      email: 'noor@greenleaf.example',
      role: 'member',
      status: 'active',
    });

    const row = page.locator('li.row', { hasText: 'Noor Haddad' });
    await row.getByLabel('Role').selectOption('manager');
    await row.getByRole('status').getByText('Role saved').waitFor();
    expect(body(await signedInApi(page, 'GET', '/api/v1/members?limit=200')).data).toContainEqual(
      expect.objectContaining({ id: noor.id, role: 'manager' }),
    );

    await row.getByRole('button', { name: 'Make sign-in link' }).click();
    const secret = row.locator('.secret-value');
    await secret.waitFor();
    const link = (await secret.textContent())!;
    expect(link).toMatch(new RegExp(`^${t.base}/sign-in#vsl_`));
    await screenshotBothWidths(page, 'members-link');
    await page.setViewportSize(DESKTOP);

    // Noor opens the link on her own phone and is signed in.
    const phone = await newPage(browser, PHONE);
    await phone.page.goto(link);
    await phone.page.waitForURL(`${t.base}/`);
    await phone.page.getByText('Signed in as Noor Haddad').waitFor();

    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('button', { name: 'Yes, remove' }).click();
    // The status chip: the question asked before says "listed as removed" too.
    await row.locator('.chip', { hasText: 'removed' }).waitFor();
    const after = body(await signedInApi(page, 'GET', '/api/v1/members?limit=200')).data;
    expect(after).toContainEqual(expect.objectContaining({ id: noor.id, status: 'removed' }));
    // Her session stops on its next request: the console takes her to the signed-out page.
    await phone.page.reload();
    await phone.page.waitForURL(/\/signed-out/);
    await phone.context.close();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('creates an API key shown once, which works, and revokes it', async () => {
    const { context, page, problems } = await newPage(browser);
    await signIn(page, t, demo.ownerId);
    await page.goto(`${t.base}/api-keys`);
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Create a key' }).click();
    const form = page.getByRole('form', { name: 'New API key' });
    await form.getByLabel('Name').fill('Label printer, room 2');
    // "Only these scopes" with none ticked: refused in the form, nothing sent.
    let posted = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url() === `${t.base}/api/v1/api-keys`) posted++;
    });
    await form.getByText('More', { exact: true }).click();
    await form.getByLabel('Only these scopes:').check();
    await form.getByRole('button', { name: 'Create key' }).click();
    await form
      .getByRole('alert')
      .getByText('What the key may do: tick at least one scope')
      .waitFor();
    expect(posted).toBe(0);
    await screenshotBothWidths(page, 'api-keys-no-scope');
    await page.setViewportSize(DESKTOP);
    await form.getByLabel(/^Everything the member/).check();
    await screenshotBothWidths(page, 'api-keys-create');
    await page.setViewportSize(DESKTOP);
    await form.getByRole('button', { name: 'Create key' }).click();
    const secret = page.locator('.secret-value');
    await secret.waitFor();
    expect(posted).toBe(1);
    await secret.waitFor();
    const key = (await secret.textContent())!;
    expect(key).toMatch(/^xpk_live_/);
    await screenshotBothWidths(page, 'api-keys-secret');
    await page.setViewportSize(DESKTOP);
    const withKey = await t.request({
      method: 'GET',
      url: '/api/v1/me',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(body(withKey).data.key.name).toBe('Label printer, room 2');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.locator('.secret-value').count()).toBe(0);
    expect(await page.content()).not.toContain(key);

    const row = page.locator('li.row', { hasText: 'Label printer, room 2' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Yes, revoke' }).click();
    await row.getByText('revoked').waitFor();
    const revoked = await t.request({
      method: 'GET',
      url: '/api/v1/me',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(revoked.statusCode).toBe(401);
    await screenshotBothWidths(page, 'api-keys');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('pauses a device and manages its tokens; the API agrees', async () => {
    const devices = body(await api('GET', '/api/v1/devices')).data;
    const device = devices.find((d: { status: string }) => d.status === 'active');
    const { context, page, problems } = await newPage(browser);
    await signIn(page, t, demo.ownerId);
    await page.goto(`${t.base}/devices`);
    await page.getByRole('heading', { name: 'Devices', level: 1 }).waitFor();
    await page.getByRole('link', { name: device.name }).waitFor();
    await screenshotBothWidths(page, 'devices');
    await page.setViewportSize(DESKTOP);
    await page.getByRole('link', { name: device.name }).click();
    await page.getByRole('heading', { name: device.name, level: 1 }).waitFor();

    await page.getByRole('button', { name: 'Make a token' }).click();
    await page.getByRole('button', { name: 'Make token' }).click();
    const token = (await page.locator('.secret-value').textContent())!;
    expect(token).toMatch(/^xpd_live_/);
    const heartbeat = await t.request({
      method: 'POST',
      url: `/api/v1/devices/${device.id}/heartbeat`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(heartbeat.statusCode).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Paused: its tokens were revoked').waitFor();
    const read = body(await signedInApi(page, 'GET', `/api/v1/devices/${device.id}`)).data;
    expect(read.status).toBe('paused');
    const refused = await t.request({
      method: 'POST',
      url: `/api/v1/devices/${device.id}/heartbeat`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.statusCode).toBe(401);
    await page.getByRole('button', { name: 'Make active' }).click();
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.getByText('Active: its tokens work').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('refuses a cross-site form posted with the session cookie (403) and changes nothing', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, t, demo.ownerId);
    // Another site on the same machine: the browser sends the Strict cookie along
    // (same site, another origin), as it would for a page of another port.
    const evil = await formSite(`${t.base}/api/v1/members`);
    try {
      const before = body(await api('GET', '/api/v1/plants?limit=200')).data.length;
      await page.goto(evil.url);
      const [response] = await Promise.all([
        page.waitForResponse(`${t.base}/api/v1/members`),
        page.getByRole('button', { name: 'Win a prize' }).click(),
      ]);
      expect(response.status()).toBe(403);
      expect(((await response.json()) as { code: string }).code).toBe('FORBIDDEN');
      const members = body(
        await signedInApi(page, 'GET', '/api/v1/members?limit=200', t.base),
      ).data;
      expect(members.some((m: { name: string }) => m.name === 'Mallory')).toBe(false);
      expect(body(await api('GET', '/api/v1/plants?limit=200')).data.length).toBe(before);
    } finally {
      await evil.close();
      await context.close();
    }
  });

  it('shows a viewer no write buttons, and refuses a forced write', async () => {
    const members = body(await api('GET', '/api/v1/workspaces')).data;
    expect(members[0].id).toBe(demo.workspaceId);
    const viewer = await inTransaction(t.database.db, async (trx) => {
      const { addMember } = await import('../../src/modules/identity/identity.service.js');
      return addMember(trx, { workspaceId: demo.workspaceId, name: 'Vic Viewer', role: 'viewer' });
    });
    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, viewer.id);
    expect(await page.getByRole('link', { name: 'Members' }).count()).toBe(0);
    for (const path of ['/members', '/api-keys', '/devices']) {
      await page.goto(`${t.base}${path}`);
      await page.getByText('Only admins and owners').waitFor();
      const writes = page.getByRole('button', {
        name: /add|create|make|remove|revoke|pause|retire/i,
      });
      expect(await writes.count(), path).toBe(0);
    }
    await screenshotBothWidths(page, 'viewer-members');
    const forced = await page.evaluate(`Promise.all([
        fetch('/api/v1/members', { method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Sneaky', role: 'owner' }) }).then((r) => r.status),
        fetch('/api/v1/plants', { method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ species: 'Ficus' }) }).then((r) => r.status),
      ])`);
    expect(forced).toEqual([403, 403]);
    const all = body(await signedInApiAs(t, demo.ownerId, 'GET', '/api/v1/members?limit=200')).data;
    expect(all.some((m: { name: string }) => m.name === 'Sneaky')).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('signs out, and out everywhere', async () => {
    const first = await newPage(browser);
    const second = await newPage(browser, PHONE);
    await signIn(first.page, t, demo.ownerId);
    await signIn(second.page, t, demo.ownerId);
    await first.page.getByRole('button', { name: /Account/ }).click();
    await screenshotBothWidths(first.page, 'account-menu');
    await first.page.setViewportSize(DESKTOP);
    await first.page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await first.page.waitForURL(/\/signed-out\?bye=1/);
    await second.page.reload();
    await second.page.waitForURL(/\/signed-out/);
    await first.context.close();
    await second.context.close();
  });

  it('shows the placeholder of a screen still to come, and its not-found page at a mistyped address, with the one meant', async () => {
    const { context, page, problems } = await newPage(browser);
    await signIn(page, t, demo.ownerId);
    await page.goto(`${t.base}/sensors`);
    await page.getByRole('heading', { name: 'Not in the console yet' }).waitFor();
    await screenshotBothWidths(page, 'not-built');
    for (const [typed, meant] of [
      ['/Explants', '/explants'],
      ['/explant/x1', '/explants/x1'],
      ['/nothing', null],
    ] as const) {
      const answer = await page.goto(`${t.base}${typed}`);
      // The console's page, answered 404, instead of the API's JSON to a browser.
      expect(answer!.status()).toBe(404);
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      await page.getByText(`There is no page at ${typed}.`).waitFor();
      const suggestion = page.locator('.not-found-meant a');
      if (meant === null) expect(await suggestion.count()).toBe(0);
      else expect(await suggestion.getAttribute('href')).toBe(meant);
    }
    await page.goto(`${t.base}/Explants`);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await screenshotBothWidths(page, 'not-found');
    // A JSON client at the same address keeps the API's 404.
    const json = await page.evaluate<[number, string]>(
      `fetch('/Explants', { headers: { accept: 'application/json' } }).then(async (r) => [r.status, (await r.json()).code])`,
    );
    expect(json).toEqual([404, 'NOT_FOUND']);
    await page.getByRole('link', { name: '/explants' }).click();
    await page.getByRole('heading', { level: 1, name: 'Explants' }).waitFor();
    await expectAccessible(page, 'explants from not-found');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('says the server cannot be reached when a screen not kept on the device is opened offline, and opens it once back', async () => {
    // No service worker (a plain-http lab address): the Tasks screen's code was never loaded.
    const { context, page, problems } = await newPage(browser, PHONE, { serviceWorkers: 'block' });
    context.setDefaultTimeout(10_000);
    await signIn(page, t, demo.ownerId);
    await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
    await context.setOffline(true);
    await page
      .getByRole('navigation', { name: 'Console (bottom bar)' })
      .getByRole('link', { name: 'Tasks' })
      .click();
    await page.waitForURL(`${t.base}/tasks`);
    // Not the previous screen under the new address: the reason, and a way on.
    await page.getByRole('heading', { level: 1, name: 'The server cannot be reached' }).waitFor();
    // The status line: offline, with the time of what the bar shows from the device.
    await page
      .getByRole('status')
      .getByText(/^Offline: /)
      .waitFor();
    expect(await page.getByRole('heading', { level: 1, name: 'Today' }).count()).toBe(0);
    await screenshotBothWidths(page, 'offline');
    await context.setOffline(false);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { level: 1, name: 'Tasks' }).waitFor();
    await expect.poll(() => page.getByText(/^Offline: /).count()).toBe(0);
    // What failed to load while offline is no fault of the page.
    expect(problems.filter((p) => !p.includes('ERR_INTERNET_DISCONNECTED'))).toEqual([]);
    await context.close();
  });
});

/** A request from the signed-in page itself (its cookie, its origin): what the console sees. */
async function signedInApi(page: Page, method: 'GET', url: string, base?: string) {
  const target = base === undefined ? url : `${base}${url}`;
  const result = await page.evaluate<{ status: number; text: string }>(
    `fetch(${JSON.stringify(target)}, { method: ${JSON.stringify(method)} }).then(async (r) => ({ status: r.status, text: await r.text() }))`,
  );
  return {
    statusCode: result.status,
    json: () => JSON.parse(result.text) as unknown,
    body: result.text,
  } as never;
}

/** The same, as a member signed in anew (for checks after another person's page is gone). */
async function signedInApiAs(t: ListeningApp, memberId: string, method: 'GET', url: string) {
  const { signIn: signInApi } = await import('../support/sessions.js');
  const session = await signInApi(t, memberId);
  return session.request({ method, url });
}

/** A page on another origin of this machine with a form that posts to `action`. */
async function formSite(action: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><title>Prize</title><body>
      <form method="post" action="${action}" enctype="text/plain">
        <input type="hidden" name='{"name":"Mallory","role":"owner","x":"' value='"}'>
        <button>Win a prize</button>
      </form></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
