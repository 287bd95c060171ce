import { describe, expect, it } from 'vitest';
import { body } from '../support/harness.js';
import { describeOnDatabases, labSuite, otherLab } from '../support/suite.js';
import {
  client,
  dataOf,
  expectError,
  expectSameAnswer,
  markDeleted,
  newExplant,
  newPlant,
  randomId,
} from '../support/helpers.js';
import { listed, newTask, removeMemberNow, tasksOf } from './task-helpers.js';

/**
 * The ids a task names: its assignee (an active member) and its plant or explant.
 * Another workspace's member or record answers exactly as an id that exists nowhere.
 */
describeOnDatabases('Task assignees and links', (target) => {
  const { t, lab, owner } = labSuite(target, {}, { name: 'Mine' });
  const { lab: theirs, owner: them } = otherLab(t);

  describe('assigned_to', () => {
    it('takes an active member of any role, and null on PATCH unassigns', async () => {
      const guest = await lab.actor('guest');
      const task = await newTask(owner, { assigned_to: guest.memberId });
      expect(task.assigned_to).toBe(guest.memberId);
      const reassigned = dataOf(
        await owner.patch(`/api/v1/tasks/${task.id}`, { assigned_to: lab.owner.memberId }),
        200,
      );
      expect(reassigned.assigned_to).toBe(lab.owner.memberId);
      const unassigned = dataOf(
        await owner.patch(`/api/v1/tasks/${task.id}`, { assigned_to: null }),
        200,
      );
      expect(unassigned.assigned_to).toBeNull();
      expect(dataOf(await owner.get(`/api/v1/tasks/${task.id}`), 200)).toEqual(unassigned);
    });

    it('refuses a removed member and another workspace’s member exactly as an unknown id (422), writing nothing', async () => {
      const leaver = await lab.actor('member');
      await removeMemberNow(t.database, leaver.memberId);
      const task = await newTask(owner);
      const unknown = randomId();
      for (const memberId of [leaver.memberId, theirs.owner.memberId]) {
        expectSameAnswer(
          await owner.post('/api/v1/tasks', { title: 'T', assigned_to: memberId }),
          await owner.post('/api/v1/tasks', { title: 'T', assigned_to: unknown }),
          422,
          'VALIDATION_ERROR',
        );
        expectSameAnswer(
          await owner.patch(`/api/v1/tasks/${task.id}`, { assigned_to: memberId, title: 'New' }),
          await owner.patch(`/api/v1/tasks/${task.id}`, { assigned_to: unknown, title: 'New' }),
          422,
          'VALIDATION_ERROR',
        );
      }
      expectError(
        await owner.post('/api/v1/tasks', { title: 'T', assigned_to: unknown }),
        422,
        'VALIDATION_ERROR',
        /^assigned_to:/,
      );
      expect(await tasksOf(owner)).toEqual([listed(task)]);
    });

    it('keeps a task assigned to a member who was removed afterwards', async () => {
      const member = await lab.actor('member');
      const task = await newTask(owner, { assigned_to: member.memberId });
      await removeMemberNow(t.database, member.memberId);
      const retitled = dataOf(
        await owner.patch(`/api/v1/tasks/${task.id}`, { title: 'Still assigned' }),
        200,
      );
      expect(retitled.assigned_to).toBe(member.memberId);
    });
  });

  describe('entity_type and entity_id', () => {
    it('link a plant or an explant of the workspace; PATCH relinks; clear_entity_link unlinks', async () => {
      const plant = await newPlant(owner);
      const explant = await newExplant(owner, { plant_id: plant.id });
      const task = await newTask(owner, { entity_type: 'plant', entity_id: plant.id });
      expect(task.entity_link).toEqual({ entity_type: 'plant', entity_id: plant.id });
      const relinked = dataOf(
        await owner.patch(`/api/v1/tasks/${task.id}`, {
          entity_type: 'explant',
          entity_id: explant.id,
        }),
        200,
      );
      expect(relinked.entity_link).toEqual({ entity_type: 'explant', entity_id: explant.id });
      expect(dataOf(await owner.get(`/api/v1/tasks/${task.id}`), 200)).toEqual(relinked);

      const kept = dataOf(
        await owner.patch(`/api/v1/tasks/${task.id}`, { clear_entity_link: false, title: 'K' }),
        200,
      );
      expect(kept.entity_link).toEqual(relinked.entity_link);
      const unlinked = dataOf(
        await owner.patch(`/api/v1/tasks/${task.id}`, { clear_entity_link: true }),
        200,
      );
      expect(unlinked.entity_link).toBeNull();
      expect(dataOf(await owner.get(`/api/v1/tasks/${task.id}`), 200).entity_link).toBeNull();
      // Lists never carry the link.
      expect((await tasksOf(owner))[0]).not.toHaveProperty('entity_link');
    });

    it('must come together (422), and not with clear_entity_link', async () => {
      const plant = await newPlant(owner);
      const task = await newTask(owner, { entity_type: 'plant', entity_id: plant.id });
      for (const half of [{ entity_type: 'plant' }, { entity_id: plant.id }]) {
        expectError(
          await owner.post('/api/v1/tasks', { title: 'T', ...half }),
          422,
          'VALIDATION_ERROR',
          /^entity_type, entity_id:/,
        );
        expectError(
          await owner.patch(`/api/v1/tasks/${task.id}`, half),
          422,
          'VALIDATION_ERROR',
          /^entity_type, entity_id:/,
        );
      }
      expectError(
        await owner.patch(`/api/v1/tasks/${task.id}`, {
          clear_entity_link: true,
          entity_type: 'plant',
          entity_id: plant.id,
        }),
        422,
        'VALIDATION_ERROR',
        /^clear_entity_link:/,
      );
      expect(dataOf(await owner.get(`/api/v1/tasks/${task.id}`), 200)).toEqual(task);
      expect(await tasksOf(owner)).toHaveLength(1);
    });

    it('refuses the wrong kind, a deleted record and another workspace’s record exactly as an unknown id', async () => {
      const plant = await newPlant(owner);
      const gone = await newExplant(owner);
      await markDeleted(t.database, 'explants', gone.id);
      const theirPlant = await newPlant(them);
      const theirExplant = await newExplant(them);
      const task = await newTask(owner);
      const unknown = randomId();
      const cases: [string, string][] = [
        ['explant', plant.id],
        ['explant', gone.id],
        ['plant', theirPlant.id],
        ['explant', theirExplant.id],
      ];
      for (const [type, id] of cases) {
        expectSameAnswer(
          await owner.post('/api/v1/tasks', { title: 'T', entity_type: type, entity_id: id }),
          await owner.post('/api/v1/tasks', { title: 'T', entity_type: type, entity_id: unknown }),
          422,
          'VALIDATION_ERROR',
        );
        expectSameAnswer(
          await owner.patch(`/api/v1/tasks/${task.id}`, { entity_type: type, entity_id: id }),
          await owner.patch(`/api/v1/tasks/${task.id}`, { entity_type: type, entity_id: unknown }),
          422,
          'VALIDATION_ERROR',
        );
      }
      expectError(
        await owner.post('/api/v1/tasks', { title: 'T', entity_type: 'plant', entity_id: unknown }),
        422,
        'VALIDATION_ERROR',
        /^entity_id: no plant/,
      );
      expect(await tasksOf(owner)).toEqual([listed(task)]);
    });
  });

  describe('another workspace', () => {
    it('GET and PATCH of their task answer as for an unknown id, changing nothing', async () => {
      const theirTask = await newTask(them, { title: 'Theirs', priority_rank: 4 });
      const unknown = randomId();
      expectSameAnswer(
        await owner.get(`/api/v1/tasks/${theirTask.id}`),
        await owner.get(`/api/v1/tasks/${unknown}`),
        404,
        'NOT_FOUND',
      );
      const patch = { title: 'Stolen', workflow_status: 'done', priority_rank: 1, release: true };
      expectSameAnswer(
        await owner.patch(`/api/v1/tasks/${theirTask.id}`, patch),
        await owner.patch(`/api/v1/tasks/${unknown}`, patch),
        404,
        'NOT_FOUND',
      );
      // A body that fails a record check still answers 404 first, not a 422 that would confirm it.
      expectSameAnswer(
        await owner.patch(`/api/v1/tasks/${theirTask.id}`, { assigned_to: randomId() }),
        await owner.patch(`/api/v1/tasks/${unknown}`, { assigned_to: randomId() }),
        404,
        'NOT_FOUND',
      );
      expect(dataOf(await them.get(`/api/v1/tasks/${theirTask.id}`), 200)).toEqual(theirTask);
    });

    it('lists only my tasks; filtering by their member finds nothing; their cursors are refused', async () => {
      await newTask(them, { assigned_to: theirs.owner.memberId });
      await newTask(them);
      const mine = await newTask(owner, { assigned_to: lab.owner.memberId });
      expect(await tasksOf(owner)).toEqual([listed(mine)]);
      expect(await tasksOf(owner, `?assigned_to=${theirs.owner.memberId}`)).toEqual([]);
      const cursor = body(await them.get('/api/v1/tasks?limit=1')).meta.next_cursor;
      expect(cursor).toEqual(expect.any(String));
      expectError(
        await owner.get(`/api/v1/tasks?limit=1&cursor=${encodeURIComponent(cursor)}`),
        422,
        'INVALID_CURSOR',
      );
    });
  });

  describe('who may write', () => {
    it('lets any member update any task of the workspace, a manager’s included', async () => {
      const manager = client(t, await lab.actor('manager'));
      const member = await lab.actor('member');
      const task = await newTask(manager, { title: 'Manager task' });
      const done = dataOf(
        await client(t, member).patch(`/api/v1/tasks/${task.id}`, {
          workflow_status: 'done',
          assigned_to: member.memberId,
        }),
        200,
      );
      expect(done).toMatchObject({ status: 'done', assigned_to: member.memberId });
    });

    it('refuses viewers and guests (403 naming the member role) and changes nothing; they may read', async () => {
      const task = await newTask(owner);
      for (const role of ['viewer', 'guest'] as const) {
        const reader = client(t, await lab.actor(role));
        expectError(await reader.post('/api/v1/tasks', { title: 'T' }), 403, 'FORBIDDEN', /member/);
        expectError(
          await reader.patch(`/api/v1/tasks/${task.id}`, { workflow_status: 'done' }),
          403,
          'FORBIDDEN',
          /member/,
        );
        expect(dataOf(await reader.get(`/api/v1/tasks/${task.id}`), 200)).toEqual(task);
        expect(dataOf(await reader.get('/api/v1/tasks'), 200)).toEqual([listed(task)]);
      }
      expect(await tasksOf(owner)).toEqual([listed(task)]);
    });

    it('refuses a key without the scope with 403 naming it', async () => {
      const task = await newTask(owner);
      const reader = client(t, await lab.actor('owner', { scopes: ['read:tasks'] }));
      expectError(
        await reader.post('/api/v1/tasks', { title: 'T' }),
        403,
        'FORBIDDEN',
        /write:tasks/,
      );
      expectError(
        await reader.patch(`/api/v1/tasks/${task.id}`, { title: 'x' }),
        403,
        'FORBIDDEN',
        /write:tasks/,
      );
      const writer = client(t, await lab.actor('owner', { scopes: ['write:tasks'] }));
      expectError(await writer.get('/api/v1/tasks'), 403, 'FORBIDDEN', /read:tasks/);
      expectError(await writer.get(`/api/v1/tasks/${task.id}`), 403, 'FORBIDDEN', /read:tasks/);
      expect(await tasksOf(owner)).toEqual([listed(task)]);
    });
  });
});
