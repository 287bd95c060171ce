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

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The bell, the inbox and the notification settings in headless Chromium, on each
 * database: a member told of a mention and a task sees the count in the bar, opens the
 * inbox, follows a notification to its record (read there), marks the rest read and
 * changes what she is told of; each step checked through the API with her session.
 */
consoleSuite('notifications in Chromium', ({ browser, t, demo }) => {
  /** The API as the demo lab's owner script sees it. */
  const asOwner = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const answer = await t.request({
      method,
      url,
      headers: { authorization: `Bearer ${demo.ownerKey}` },
      ...(payload ? { payload } : {}),
    });
    expect(answer.statusCode, `${method} ${url}: ${answer.body}`).toBeLessThan(300);
    return body<{ data: Json }>(answer).data;
  };
  /** The API with the person's own console session (the page's cookies). */
  const asPerson = async (page: Page, url: string) => {
    const answer = await page.request.get(`${t.base}${url}`);
    expect(answer.status(), url).toBe(200);
    return (await answer.json()) as { data: Json; meta?: Json };
  };
  const bell = (page: Page) => page.getByRole('link', { name: /^Notifications: / });

  it('counts what is unread in the bar, leads to the record, marks read and keeps her choices', async () => {
    const nora = await inTransaction(t.database.db, (trx) =>
      addMember(trx, { workspaceId: demo.workspaceId, name: 'Nora Nuñez', role: 'member' }),
    );
    const [explant] = (await asOwner('GET', '/api/v1/explants?q=MON-TC-B01')) as Json[];
    await asOwner('POST', '/api/v1/comments', {
      entity_type: 'explant',
      entity_id: explant!.id,
      body: 'Nora, can you check the halo on this one?',
      mentioned_user_ids: [nora.id],
    });
    const task = await asOwner('POST', '/api/v1/tasks', {
      title: 'Pour 20 jars of MS',
      assigned_to: nora.id,
    });

    const { context, page, problems } = await newPage(browser, PHONE);
    await signIn(page, t, nora.id);
    await bell(page).and(page.getByLabel('Notifications: 2 unread')).waitFor();
    await bell(page).click();
    await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
    const rows = page.locator('ul.inbox > li');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);
    // Newest first, each in words with the record it is about.
    expect(await rows.nth(0).textContent()).toContain('Task assigned to you Pour 20 jars of MS');
    expect(await rows.nth(1).textContent()).toContain('Mentioned you MON-TC-B01');
    await screenshotBothWidths(page, 'notifications-inbox');
    await page.setViewportSize(PHONE);

    // Following the mention opens its explant, and reads it.
    await rows.nth(1).getByRole('link', { name: 'MON-TC-B01' }).click();
    await page.getByRole('heading', { level: 1, name: 'MON-TC-B01' }).waitFor();
    await page.getByLabel('Notifications: 1 unread').waitFor();
    const afterOpen = await asPerson(page, '/api/v1/notifications');
    expect(afterOpen.meta!.unread_count).toBe(1);
    const mention = (afterOpen.data as Json[]).find((n) => n.kind === 'mention')!;
    expect(mention.read_at).not.toBeNull();

    // Mark all as read: the task's too; the bell says none.
    await bell(page).click();
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await page.getByRole('status').getByText('1 marked as read.').waitFor();
    await page.getByLabel('Notifications: none unread').waitFor();
    const afterAll = await asPerson(page, '/api/v1/notifications');
    expect(afterAll.meta!.unread_count).toBe(0);
    expect((afterAll.data as Json[]).find((n) => n.record.id === task.id)!.read_at).not.toBeNull();
    await page.getByLabel('Show').selectOption('unread');
    await page.getByText('Nothing unread.').waitFor();

    // Her settings: replies off, one room, her time zone.
    const [room] = (await asOwner('GET', '/api/v1/rooms')) as Json[];
    await page.getByRole('link', { name: 'Notification settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Notification settings' }).waitFor();
    await page.getByLabel('Replied to your comment').uncheck();
    await page.getByLabel('Only these rooms').check();
    await page.getByLabel(room!.name as string).check();
    await page.getByLabel('Your time zone').fill('Mars/Olympus');
    await page.getByRole('button', { name: 'Save settings' }).click();
    // A time zone that is none: said at the field, nothing kept.
    await page.locator('.field-error').first().waitFor();
    expect((await asPerson(page, '/api/v1/notification-settings')).data.time_zone).toBe('UTC');
    await page.getByLabel('Your time zone').fill('Europe/Paris');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').getByText('Settings saved.').waitFor();
    const settings = (await asPerson(page, '/api/v1/notification-settings')).data;
    expect(settings).toMatchObject({
      follow_all_rooms: false,
      followed_room_ids: [room!.id],
      time_zone: 'Europe/Paris',
    });
    expect(settings.kinds).toMatchObject({ reply: false, mention: true, task_assigned: true });
    await expectAccessible(page, 'notification settings');
    await screenshotBothWidths(page, 'notification-settings');
    expect(problems).toEqual([]);
    await context.close();
  });
});
