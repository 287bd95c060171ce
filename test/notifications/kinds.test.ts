import { beforeEach, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { setPassMark } from '../../src/modules/notifications/index.js';
import { runReminders } from '../../src/modules/reminders/index.js';
import type { Actor } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  addRoom,
  client,
  type Client,
  dataOf,
  type Json,
  newExplant,
  newPlant,
} from '../support/helpers.js';
import { inboxOf } from './support.js';

const kindsOf = async (c: Client) => (await inboxOf(c)).map((n: Json) => n.kind as string);

describeOnDatabases('Notifications: tasks, contaminations, alerts and reminders', (target) => {
  const { t, lab, owner } = labSuite(target);
  let luis: Actor;
  let asLuis: Client;
  let ana: Actor;
  let asAna: Client;
  let rooms: { a: string; b: string };
  beforeEach(async () => {
    luis = await lab.actor('member');
    asLuis = client(t, luis);
    ana = await lab.actor('member');
    asAna = client(t, ana);
    rooms = {
      a: await addRoom(t.database, lab.workspaceId, 'Growth room A'),
      b: await addRoom(t.database, lab.workspaceId, 'Growth room B'),
    };
  });

  const follow = async (c: Client, roomIds: string[]) =>
    dataOf(
      await c.patch('/api/v1/notification-settings', {
        follow_all_rooms: false,
        followed_room_ids: roomIds,
      }),
      200,
    );

  it('tells a task’s assignee, when assigned and assigned again, never who assigned themselves', async () => {
    const task = dataOf(
      await owner.post('/api/v1/tasks', { title: 'Prepare MS medium', assigned_to: luis.memberId }),
      201,
    );
    const [assigned, ...more] = await inboxOf(asLuis);
    expect(more).toEqual([]);
    expect(assigned).toMatchObject({
      kind: 'task_assigned',
      record: { type: 'task', id: task.id, label: 'Prepare MS medium' },
      actor_id: lab.owner.memberId,
    });
    // Other changes tell nobody; a new assignee is told, and so is the first again.
    dataOf(await owner.patch(`/api/v1/tasks/${task.id}`, { notes: 'Two litres' }), 200);
    expect(await inboxOf(asLuis)).toHaveLength(1);
    dataOf(await owner.patch(`/api/v1/tasks/${task.id}`, { assigned_to: ana.memberId }), 200);
    expect(await kindsOf(asAna)).toEqual(['task_assigned']);
    dataOf(await owner.patch(`/api/v1/tasks/${task.id}`, { assigned_to: luis.memberId }), 200);
    expect(await kindsOf(asLuis)).toEqual(['task_assigned', 'task_assigned']);
    // Taking a task yourself tells nobody.
    dataOf(await asAna.patch(`/api/v1/tasks/${task.id}`, { assigned_to: ana.memberId }), 200);
    dataOf(await asAna.post('/api/v1/tasks', { title: 'Mine', assigned_to: ana.memberId }), 201);
    expect(await kindsOf(asAna)).toEqual(['task_assigned']);
  });

  it('tells of a contamination those who follow its room, never the one who logged it', async () => {
    await follow(asLuis, [rooms.a]);
    await follow(asAna, [rooms.b]);
    const viewer = client(t, await lab.actor('viewer'));
    const explant = await newExplant(owner, { initial_stage: 'initiation', room_id: rooms.a });
    const logged = dataOf(
      await owner.post('/api/v1/contaminations', {
        explant_id: explant.id,
        type: 'bacteria',
        issue: 'Milky halo',
      }),
      201,
    );
    expect(await inboxOf(asLuis)).toMatchObject([
      {
        kind: 'contamination',
        record: { type: 'contamination', id: logged.id, label: 'Milky halo' },
        room_id: rooms.a,
      },
    ]);
    expect(await inboxOf(asAna)).toEqual([]);
    // Everyone follows every room until they choose: the viewer is told, the owner not.
    expect(await kindsOf(viewer)).toEqual(['contamination']);
    expect(await inboxOf(owner)).toEqual([]);

    // A record in no room: those who follow every room.
    const plant = await newPlant(owner);
    dataOf(
      await asAna.post('/api/v1/contaminations', {
        plant_id: plant.id,
        type: 'fungal',
        issue: 'Spots',
      }),
      201,
    );
    expect(await inboxOf(asLuis)).toHaveLength(1);
    expect(await kindsOf(owner)).toEqual(['contamination']);
  });

  it('tells of a recall those who follow the rooms of the cultures recalled, once each, not after a dry run', async () => {
    await follow(asLuis, [rooms.a]);
    await follow(asAna, [rooms.b]);
    const viewer = client(t, await lab.actor('viewer'));
    const mother = await newExplant(owner, {
      label: 'MON-1',
      initial_count: 6,
      initial_stage: 'initiation',
      room_id: rooms.a,
    });
    const split = dataOf(
      await owner.post(`/api/v1/explants/${mother.id}/split`, {
        daughters: [
          { vessel_count: 2, room_id: rooms.a },
          { vessel_count: 2, room_id: rooms.a },
        ],
      }),
      201,
    );
    expect(split.daughters).toHaveLength(2);
    const body = { status: 'quarantined', reason: 'Virus test positive' };
    const dry = dataOf(
      await owner.post(`/api/v1/explants/${mother.id}/recall`, { ...body, dry_run: true }),
      200,
    );
    expect(dry.count).toBe(3);
    expect(await inboxOf(asLuis)).toEqual([]);
    dataOf(await owner.post(`/api/v1/explants/${mother.id}/recall`, body), 200);
    expect(await inboxOf(asLuis)).toMatchObject([
      {
        kind: 'recall',
        record: { type: 'explant', id: mother.id, label: 'MON-1' },
        room_id: rooms.a,
      },
    ]);
    expect(await inboxOf(asAna)).toEqual([]);
    expect(await kindsOf(viewer)).toEqual(['recall']);
    // Who recalled is not told of it.
    expect(await inboxOf(owner)).toEqual([]);
  });

  it('tells room followers of a sensor alert opening and resolving', async () => {
    await follow(asLuis, [rooms.a]);
    await follow(asAna, [rooms.b]);
    const device = await lab.deviceToken();
    const rule = dataOf(
      await owner.post('/api/v1/alert-rules', {
        name: 'Room A too warm',
        sensor_type: 'temperature',
        room_id: rooms.a,
        condition: 'above',
        threshold: 28,
      }),
      201,
    );
    const reading = (value: number) =>
      client(t, device).post('/api/v1/sensor-readings', {
        device_id: device.deviceId,
        room_id: rooms.a,
        type: 'temperature',
        value,
        unit: 'C',
      });
    dataOf(await reading(31), 201);
    const [alert] = dataOf(await owner.get(`/api/v1/alerts?rule_id=${rule.id}`), 200);
    expect(await inboxOf(asLuis)).toMatchObject([
      {
        kind: 'alert_opened',
        record: { type: 'sensor_alert', id: alert.id, label: 'Room A too warm' },
        room_id: rooms.a,
        actor_id: null,
      },
    ]);
    dataOf(await reading(31.5), 201);
    dataOf(await reading(20), 201);
    expect(await kindsOf(asLuis)).toEqual(['alert_resolved', 'alert_opened']);
    expect(await inboxOf(asAna)).toEqual([]);
    // Nobody did it: the owner, who made the rule, is told too.
    expect(await kindsOf(owner)).toEqual(['alert_resolved', 'alert_opened']);
  });

  it('the reminders pass tells of tasks due today, then overdue, once each', async () => {
    dataOf(await asLuis.patch('/api/v1/notification-settings', { time_zone: 'Europe/Paris' }), 200);
    const task = dataOf(
      await owner.post('/api/v1/tasks', {
        title: 'Subculture Anthurium',
        assigned_to: luis.memberId,
        due_date: '2030-03-10T15:00:00Z',
      }),
      201,
    );
    const pass = async (from: string, now: string) => {
      await inTransaction(t.database.db, (trx) => setPassMark(trx, 'reminders', from));
      return runReminders(t.database, Date.parse(now));
    };
    // Luis's day starts at 23:00 UTC in Paris (UTC+1 in March).
    await pass('2030-03-09T22:00:00Z', '2030-03-09T22:55:00Z');
    expect(await kindsOf(asLuis)).toEqual(['task_assigned']);
    await pass('2030-03-09T22:55:00Z', '2030-03-09T23:05:00Z');
    expect(await kindsOf(asLuis)).toEqual(['task_due_today', 'task_assigned']);
    await pass('2030-03-10T14:00:00Z', '2030-03-10T15:01:00Z');
    const inbox = await inboxOf(asLuis);
    expect(inbox.map((n: Json) => n.kind)).toEqual([
      'task_overdue',
      'task_due_today',
      'task_assigned',
    ]);
    expect(inbox[0].record).toEqual({ type: 'task', id: task.id, label: 'Subculture Anthurium' });
    // The same stretch again (a pass repeated after a crash) tells nobody twice.
    await pass('2030-03-09T22:00:00Z', '2030-03-10T16:00:00Z');
    expect(await inboxOf(asLuis)).toHaveLength(3);
    // A task done by then is not overdue.
    dataOf(
      await owner.patch(`/api/v1/tasks/${task.id}`, { due_date: '2030-03-12T15:00:00Z' }),
      200,
    );
    dataOf(await owner.patch(`/api/v1/tasks/${task.id}`, { workflow_status: 'done' }), 200);
    await pass('2030-03-11T00:00:00Z', '2030-03-13T00:00:00Z');
    expect(await inboxOf(asLuis)).toHaveLength(3);
  });

  it('the reminders pass tells those who follow its room that a culture is due for transfer', async () => {
    await follow(asLuis, [rooms.a]);
    await follow(asAna, [rooms.b]);
    const explant = await newExplant(owner, {
      initial_stage: 'initiation',
      room_id: rooms.a,
      label: 'AN-B07',
    });
    const dueAt = Date.parse(explant.transfer_due_at as string);
    const iso = (ms: number) => new Date(ms).toISOString();
    await inTransaction(t.database.db, (trx) => setPassMark(trx, 'reminders', iso(dueAt - 60_000)));
    await runReminders(t.database, dueAt - 1000);
    expect(await inboxOf(asLuis)).toEqual([]);
    await runReminders(t.database, dueAt + 60_000);
    expect(await inboxOf(asLuis)).toMatchObject([
      {
        kind: 'transfer_due',
        record: { type: 'explant', id: explant.id, label: 'AN-B07' },
        room_id: rooms.a,
      },
    ]);
    expect(await inboxOf(asAna)).toEqual([]);
    // The same stretch again tells nobody twice.
    await inTransaction(t.database.db, (trx) => setPassMark(trx, 'reminders', iso(dueAt - 60_000)));
    await runReminders(t.database, dueAt + 120_000);
    expect(await inboxOf(asLuis)).toHaveLength(1);
  });
});
