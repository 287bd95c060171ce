import { beforeEach, expect, it } from 'vitest';
import { createLab, type Actor } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  client,
  type Client,
  dataOf,
  expectError,
  type Json,
  keysOf,
  newExplant,
  newPlant,
} from '../support/helpers.js';
import { inboxOf } from './support.js';

const NOTIFICATION_KEYS = [
  'actor_id',
  'comment_id',
  'created_at',
  'id',
  'kind',
  'read_at',
  'record',
  'room_id',
];

async function comment(c: Client, fields: Record<string, unknown>, headers = {}): Promise<Json> {
  return dataOf(await c.post('/api/v1/comments', { body: 'Please look', ...fields }, headers), 201);
}

describeOnDatabases('Notifications: the inbox and mentions', (target) => {
  const { t, lab, owner } = labSuite(target);
  let luis: Actor;
  let asLuis: Client;
  let explant: Json;
  let onExplant: { entity_type: string; entity_id: string };
  beforeEach(async () => {
    luis = await lab.actor('member');
    asLuis = client(t, luis);
    const plant = await newPlant(owner, { species: 'Anthurium andraeanum' });
    explant = await newExplant(owner, { plant_id: plant.id, label: 'AN-B01' });
    onExplant = { entity_type: 'explant', entity_id: explant.id };
  });

  it('a mention makes exactly one notification, for the mentioned member, none for the author', async () => {
    const made = await comment(owner, { ...onExplant, mentioned_user_ids: [luis.memberId] });
    const [notice, ...more] = await inboxOf(asLuis);
    expect(more).toEqual([]);
    expect(keysOf(notice)).toEqual(NOTIFICATION_KEYS);
    expect(notice).toMatchObject({
      kind: 'mention',
      record: { type: 'explant', id: explant.id, label: 'AN-B01' },
      comment_id: made.id,
      actor_id: lab.owner.memberId,
      room_id: null,
      read_at: null,
    });
    expect(await inboxOf(owner)).toEqual([]);
    // The author mentioning themselves is not told either.
    await comment(owner, { ...onExplant, mentioned_user_ids: [lab.owner.memberId] });
    expect(await inboxOf(owner)).toEqual([]);
  });

  it('replaying the comment’s Idempotency-Key makes no second notification', async () => {
    const key = { 'idempotency-key': 'mention-once-0001' };
    const first = await comment(owner, { ...onExplant, mentioned_user_ids: [luis.memberId] }, key);
    const again = await comment(owner, { ...onExplant, mentioned_user_ids: [luis.memberId] }, key);
    expect(again.id).toBe(first.id);
    expect(await inboxOf(asLuis)).toHaveLength(1);
  });

  it('a reply tells the parent’s author; a mention in it wins over the reply', async () => {
    const parent = await comment(asLuis, onExplant);
    await comment(owner, { ...onExplant, parent_id: parent.id, body: 'On it' });
    const [reply] = await inboxOf(asLuis);
    expect(reply).toMatchObject({ kind: 'reply', record: { type: 'explant', id: explant.id } });
    await comment(owner, {
      ...onExplant,
      parent_id: parent.id,
      mentioned_user_ids: [luis.memberId],
    });
    const inbox = await inboxOf(asLuis);
    expect(inbox.map((n: Json) => n.kind)).toEqual(['mention', 'reply']);
    // Replying to your own comment tells nobody.
    await comment(asLuis, { ...onExplant, parent_id: parent.id });
    expect(await inboxOf(asLuis)).toHaveLength(2);
  });

  it('names records of every kind a comment can be on', async () => {
    const plant = await newPlant(owner, {
      species: 'Monstera deliciosa',
      common_name: 'Swiss cheese',
    });
    const task = dataOf(await owner.post('/api/v1/tasks', { title: 'Prepare MS medium' }), 201);
    await comment(owner, {
      entity_type: 'plant',
      entity_id: plant.id,
      mentioned_user_ids: [luis.memberId],
    });
    await comment(owner, {
      entity_type: 'task',
      entity_id: task.id,
      mentioned_user_ids: [luis.memberId],
    });
    const labels = (await inboxOf(asLuis)).map((n: Json) => `${n.record.type}:${n.record.label}`);
    expect(labels).toEqual(['task:Prepare MS medium', 'plant:Swiss cheese']);
  });

  it('another workspace’s member is never told', async () => {
    const theirs = await createLab(t.database, { name: 'Theirs' });
    const them = client(t, theirs.owner);
    expectError(
      await owner.post('/api/v1/comments', {
        ...onExplant,
        body: 'x',
        mentioned_user_ids: [theirs.owner.memberId],
      }),
      422,
      'VALIDATION_ERROR',
    );
    await comment(owner, { ...onExplant, mentioned_user_ids: [luis.memberId] });
    expect(await inboxOf(them)).toEqual([]);
  });

  it('lists newest first, pages with a cursor, filters unread and counts them', async () => {
    for (let i = 0; i < 5; i++) {
      await comment(owner, { ...onExplant, body: `n${i}`, mentioned_user_ids: [luis.memberId] });
    }
    const first = await asLuis.get('/api/v1/notifications?limit=2');
    const page = dataOf(first, 200);
    expect(page).toHaveLength(2);
    expect(first.json().meta.unread_count).toBe(5);
    const next = first.json().meta.next_cursor as string;
    const second = dataOf(
      await asLuis.get(`/api/v1/notifications?limit=2&cursor=${encodeURIComponent(next)}`),
      200,
    );
    const all = await inboxOf(asLuis);
    expect([...page, ...second].map((n: Json) => n.id)).toEqual(
      all.slice(0, 4).map((n: Json) => n.id),
    );
    const times = all.map((n: Json) => `${n.created_at}${n.id}`);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('marks read by ids, then all; read_at stays the first', async () => {
    for (let i = 0; i < 3; i++) {
      await comment(owner, { ...onExplant, body: `n${i}`, mentioned_user_ids: [luis.memberId] });
    }
    const [a, b, c] = await inboxOf(asLuis);
    const marked = dataOf(await asLuis.post('/api/v1/notifications/read', { ids: [a.id] }), 200);
    expect(marked).toEqual({ marked: 1, unread_count: 2 });
    const unread = await inboxOf(asLuis, '?unread=true');
    expect(unread.map((n: Json) => n.id)).toEqual([b.id, c.id]);
    const readAt = (await inboxOf(asLuis))[0].read_at as string;
    expect(readAt).not.toBeNull();

    const all = dataOf(await asLuis.post('/api/v1/notifications/read', { all: true }), 200);
    expect(all).toEqual({ marked: 2, unread_count: 0 });
    const after = await inboxOf(asLuis);
    expect(after.every((n: Json) => n.read_at !== null)).toBe(true);
    expect(after[0].read_at).toBe(readAt);
    expect(await inboxOf(asLuis, '?unread=true')).toEqual([]);
  });

  it('a member reads and marks only their own', async () => {
    const ana = await lab.actor('member');
    const asAna = client(t, ana);
    await comment(owner, { ...onExplant, mentioned_user_ids: [luis.memberId] });
    await comment(owner, { ...onExplant, mentioned_user_ids: [ana.memberId] });
    const [luisOwn] = await inboxOf(asLuis);
    const [anaOwn] = await inboxOf(asAna);
    expect(luisOwn.id).not.toBe(anaOwn.id);
    expect(await inboxOf(asAna)).toHaveLength(1);

    const refused = await asAna.post('/api/v1/notifications/read', {
      ids: [anaOwn.id, luisOwn.id],
    });
    expectError(refused, 422, 'VALIDATION_ERROR', /ids\[1\]/);
    expect((await inboxOf(asAna))[0].read_at).toBeNull();
    expect((await inboxOf(asLuis))[0].read_at).toBeNull();
    // `all` is the caller's all.
    dataOf(await asAna.post('/api/v1/notifications/read', { all: true }), 200);
    expect((await inboxOf(asLuis))[0].read_at).toBeNull();
  });

  it('refuses a body with neither or both, and keys without the scopes', async () => {
    expectError(await asLuis.post('/api/v1/notifications/read', {}), 422, 'VALIDATION_ERROR');
    expectError(
      await asLuis.post('/api/v1/notifications/read', { ids: [explant.id], all: true }),
      422,
      'VALIDATION_ERROR',
    );
    expectError(
      await asLuis.post('/api/v1/notifications/read', { all: false }),
      422,
      'VALIDATION_ERROR',
    );
    const narrow = client(t, await lab.actor('member', { scopes: ['read:plants'] }));
    expectError(await narrow.get('/api/v1/notifications'), 403, 'FORBIDDEN', /read:notifications/);
    expectError(
      await narrow.post('/api/v1/notifications/read', { all: true }),
      403,
      'FORBIDDEN',
      /write:notifications/,
    );
    const guest = client(t, await lab.actor('guest'));
    dataOf(await guest.post('/api/v1/notifications/read', { all: true }), 200);
    const device = await lab.deviceToken();
    expectError(
      await client(t, device).get('/api/v1/notifications'),
      403,
      'DEVICE_TOKEN_NOT_ACCEPTED',
    );
  });
});
