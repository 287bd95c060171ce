import { beforeEach, expect, it } from 'vitest';
import { createLab, type Actor } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  addRoom,
  client,
  type Client,
  dataOf,
  expectError,
  type Json,
  newPlant,
} from '../support/helpers.js';
import { inboxOf } from './support.js';

const KINDS = [
  'mention',
  'reply',
  'task_assigned',
  'task_due_today',
  'task_overdue',
  'transfer_due',
  'alert_opened',
  'alert_resolved',
  'contamination',
  'recall',
];

describeOnDatabases('Notifications: settings', (target) => {
  const { t, lab, owner } = labSuite(target);
  let luis: Actor;
  let asLuis: Client;
  let plant: Json;
  beforeEach(async () => {
    luis = await lab.actor('member');
    asLuis = client(t, luis);
    plant = await newPlant(owner);
  });

  const settingsOf = async (c: Client) => dataOf(await c.get('/api/v1/notification-settings'), 200);

  it('starts with every kind, every room, email on and UTC', async () => {
    expect(await settingsOf(asLuis)).toEqual({
      kinds: Object.fromEntries(KINDS.map((kind) => [kind, true])),
      follow_all_rooms: true,
      followed_room_ids: [],
      email: true,
      email_address: null,
      email_available: false,
      time_zone: 'UTC',
    });
  });

  it('switches kinds off: a mention is then not delivered, a reply still is', async () => {
    const changed = dataOf(
      await asLuis.patch('/api/v1/notification-settings', { kinds: { mention: false } }),
      200,
    );
    expect(changed.kinds).toMatchObject({ mention: false, reply: true });
    const on = { entity_type: 'plant', entity_id: plant.id };
    const parent = dataOf(await asLuis.post('/api/v1/comments', { ...on, body: 'Mine' }), 201);
    dataOf(
      await owner.post('/api/v1/comments', {
        ...on,
        body: 'A mention alone',
        mentioned_user_ids: [luis.memberId],
      }),
      201,
    );
    expect(await inboxOf(asLuis)).toEqual([]);
    dataOf(
      await owner.post('/api/v1/comments', {
        ...on,
        body: 'A reply that mentions',
        parent_id: parent.id,
        mentioned_user_ids: [luis.memberId],
      }),
      201,
    );
    expect((await inboxOf(asLuis)).map((n: Json) => n.kind)).toEqual(['reply']);
    // Back on, and only that kind changed; another member's settings never moved.
    const back = dataOf(
      await asLuis.patch('/api/v1/notification-settings', { kinds: { mention: true } }),
      200,
    );
    expect(Object.values(back.kinds as Record<string, boolean>).every(Boolean)).toBe(true);
    expect((await settingsOf(owner)).kinds.mention).toBe(true);
  });

  it('follows rooms of the workspace, in a time zone it knows; else 422 and nothing changes', async () => {
    const room = await addRoom(t.database, lab.workspaceId);
    const theirs = await createLab(t.database, { name: 'Theirs' });
    const theirRoom = await addRoom(t.database, theirs.workspaceId);
    const changed = dataOf(
      await asLuis.patch('/api/v1/notification-settings', {
        follow_all_rooms: false,
        followed_room_ids: [room],
        email: false,
        time_zone: 'America/Bogota',
      }),
      200,
    );
    expect(changed).toMatchObject({
      follow_all_rooms: false,
      followed_room_ids: [room],
      email: false,
      time_zone: 'America/Bogota',
    });
    expectError(
      await asLuis.patch('/api/v1/notification-settings', { followed_room_ids: [room, theirRoom] }),
      422,
      'VALIDATION_ERROR',
      /followed_room_ids\[1\]/,
    );
    expectError(
      await asLuis.patch('/api/v1/notification-settings', {
        email: true,
        time_zone: 'Mars/Olympus_Mons',
      }),
      422,
      'VALIDATION_ERROR',
      /time_zone/,
    );
    expectError(await asLuis.patch('/api/v1/notification-settings', {}), 422, 'VALIDATION_ERROR');
    expectError(
      await asLuis.patch('/api/v1/notification-settings', { kinds: { gossip: true } }),
      422,
      'VALIDATION_ERROR',
    );
    expect(await settingsOf(asLuis)).toEqual(changed);
    expect((await settingsOf(owner)).follow_all_rooms).toBe(true);
  });
});
