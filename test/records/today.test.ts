import { describe, expect, it } from 'vitest';
import { body, createLab } from '../support/harness.js';
import {
  client,
  dataOf,
  expectError,
  expectSameAnswer,
  listAll,
  newExplant,
  newPlant,
  randomId,
} from '../support/helpers.js';
import { newTask, removeMemberNow } from './task-helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

/**
 * What a Today screen reads, each cheaply: tasks due or overdue, the latest
 * activity and the names of who did it; on both databases.
 */
describeOnDatabases('Today', (target) => {
  const { t, lab, owner } = labSuite(target);

  describe('tasks due', () => {
    it('lists tasks due before a time, open or done, earliest first; undated ones never', async () => {
      const overdue = await newTask(owner, { title: 'Overdue', due_date: '2026-11-20T08:00:00Z' });
      const today = await newTask(owner, { title: 'Today', due_date: '2026-11-27T15:00:00Z' });
      await newTask(owner, { title: 'Later', due_date: '2026-12-05T08:00:00Z' });
      await newTask(owner, { title: 'Undated' });
      const done = await newTask(owner, {
        title: 'Done',
        due_date: '2026-11-21T08:00:00Z',
        workflow_status: 'done',
      });
      const titles = async (query: string) =>
        (await listAll(owner, `/api/v1/tasks?${query}`)).map((task) => task.title);
      expect(await titles('due_before=2026-11-28')).toEqual(['Overdue', 'Done', 'Today']);
      expect(await titles('due_before=2026-11-28&open=true')).toEqual(['Overdue', 'Today']);
      expect(await titles('due_before=2026-11-27T15:00:00Z')).toEqual(['Overdue', 'Done']);
      expect(await titles('due_before=2026-11-27T16:00:00%2B01:00&open=true')).toEqual(['Overdue']);
      expect(await titles('open=false')).toEqual(['Done']);
      expect(await titles(`due_before=2026-11-28&status=todo&assigned_to=${randomId()}`)).toEqual(
        [],
      );
      // Pages of a filtered list follow one another.
      const paged = await listAll(owner, '/api/v1/tasks?due_before=2026-12-31&open=true', 1);
      expect(paged.map((task) => task.id)).toEqual([overdue.id, today.id, paged[2].id]);
      expect(done.status).toBe('done');
    });

    it('refuses a due_before without a zone and an open that is not a boolean (422)', async () => {
      for (const [query, error] of [
        ['due_before=2026-11-28T08:00:00', /^due_before: /],
        ['due_before=tomorrow', /^due_before: /],
        ['open=yes', /^open: /],
      ] as const) {
        expectError(await owner.get(`/api/v1/tasks?${query}`), 422, 'VALIDATION_ERROR', error);
      }
    });
  });

  describe('GET /activity', () => {
    it('lists what happened, newest first, of both kinds, one kind or one record', async () => {
      const plant = await newPlant(owner);
      const explant = await newExplant(owner, { plant_id: plant.id });
      dataOf(await owner.post('/api/v1/stages', { plant_id: plant.id, stage: 'greenhouse' }), 201);
      dataOf(await owner.patch(`/api/v1/explants/${explant.id}`, { notes: 'Browning' }), 200);
      const all = await listAll(owner, '/api/v1/activity');
      expect(all.map((e) => [e.entity_type, e.event_type])).toEqual([
        ['explant', 'updated'],
        ['plant', 'stage_change'],
        ['explant', 'created'],
        ['plant', 'created'],
      ]);
      // The same events as the sync feed, in the other order.
      const synced = [
        ...(await listAll(owner, '/api/v1/events?entity=plant')),
        ...(await listAll(owner, '/api/v1/events?entity=explant')),
      ];
      expect([...all].sort((a, b) => a.id.localeCompare(b.id))).toEqual(
        synced.sort((a, b) => a.id.localeCompare(b.id)),
      );
      expect(all[0].recorded_by).toBe(lab.owner.memberId);
      const kinds = async (query: string) =>
        (await listAll(owner, `/api/v1/activity?${query}`)).map((e) => e.event_type);
      expect(await kinds('entity=plant')).toEqual(['stage_change', 'created']);
      expect(await kinds(`entity_id=${explant.id}`)).toEqual(['updated', 'created']);
      expect(await kinds(`entity=explant&entity_id=${explant.id}`)).toEqual(['updated', 'created']);
      const paged = await listAll(owner, '/api/v1/activity', 1);
      expect(paged).toEqual(all);
    });

    it("answers a record the workspace does not have, or of the other kind, with 404; never shows another's", async () => {
      const theirs = client(t, (await createLab(t.database)).owner);
      const theirPlant = await newPlant(theirs);
      const mine = await newPlant(owner);
      const reference = await owner.get(`/api/v1/activity?entity_id=${randomId()}`);
      expect(body(reference).code).toBe('NOT_FOUND');
      expectSameAnswer(
        await owner.get(`/api/v1/activity?entity_id=${theirPlant.id}`),
        reference,
        404,
        'NOT_FOUND',
      );
      expectSameAnswer(
        await owner.get(`/api/v1/activity?entity=explant&entity_id=${mine.id}`),
        reference,
        404,
        'NOT_FOUND',
      );
      expect((await listAll(owner, '/api/v1/activity')).map((e) => e.entity_id)).toEqual([mine.id]);
      for (const [query, error] of [
        ['entity=task', /^entity: /],
        ['entity_id=nope', /^entity_id: /],
      ] as const) {
        expectError(await owner.get(`/api/v1/activity?${query}`), 422, 'VALIDATION_ERROR', error);
      }
      const narrow = client(t, await lab.actor('owner', { scopes: ['read:plants'] }));
      expectError(await narrow.get('/api/v1/activity'), 403, 'FORBIDDEN', /read:events/);
    });
  });

  describe('GET /people', () => {
    it('names every member, removed ones too, by name; any member may read it; no email', async () => {
      const viewer = await lab.actor('viewer');
      const guest = await lab.actor('guest');
      const gone = await lab.actor('member');
      await removeMemberNow(t.database, gone.memberId);
      const people = dataOf(await client(t, guest).get('/api/v1/people'), 200);
      expect(people).toEqual(
        [
          { id: lab.owner.memberId, name: 'owner member', role: 'owner', status: 'active' },
          { id: viewer.memberId, name: 'viewer member', role: 'viewer', status: 'active' },
          { id: guest.memberId, name: 'guest member', role: 'guest', status: 'active' },
          { id: gone.memberId, name: 'member member', role: 'member', status: 'removed' },
        ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1)),
      );
      const active = dataOf(await owner.get('/api/v1/people?status=active'), 200);
      expect(active.map((p: { id: string }) => p.id)).not.toContain(gone.memberId);
      expect(active).toHaveLength(3);
      const removed = dataOf(await owner.get('/api/v1/people?status=removed'), 200);
      expect(removed.map((p: { id: string }) => p.id)).toEqual([gone.memberId]);
      const paged = await listAll(owner, '/api/v1/people', 1);
      expect(paged).toEqual(people);
    });

    it("never lists another workspace's people; refuses bad filters and keys without the scope", async () => {
      const theirs = await createLab(t.database);
      await theirs.actor('manager');
      const people = dataOf(await owner.get('/api/v1/people'), 200);
      expect(people.map((p: { id: string }) => p.id)).toEqual([lab.owner.memberId]);
      expectError(
        await owner.get('/api/v1/people?status=gone'),
        422,
        'VALIDATION_ERROR',
        /^status: /,
      );
      const narrow = client(t, await lab.actor('owner', { scopes: ['read:plants'] }));
      expectError(await narrow.get('/api/v1/people'), 403, 'FORBIDDEN', /read:workspace/);
    });
  });
});
