import { describe, expect, it } from 'vitest';
import { body } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { dataOf, keysOf, tick } from '../support/helpers.js';
import { newTask, placeByHand, TASK_KEYS } from './task-helpers.js';

/**
 * The order of a task (`priority`, `priority_rank`) and who set it
 * (`priority_source`): orders written through the API are automatic; a placement
 * made by hand is kept against them until a PATCH sends `release: true`.
 */
describeOnDatabases('Task order and priority_write', (target) => {
  const { t, lab, owner } = labSuite(target);

  const patch = (id: string, payload: Record<string, unknown>) =>
    owner.patch(`/api/v1/tasks/${id}`, payload);
  const get = async (id: string) => dataOf(await owner.get(`/api/v1/tasks/${id}`), 200);
  const byHand = (id: string, priority: string | null, rank: number | null) =>
    placeByHand(t.database, lab.workspaceId, id, { priority, priority_rank: rank });

  it('counts an order set on create as auto; without one the source is default', async () => {
    expect(await newTask(owner, { priority: 'high' })).toMatchObject({
      priority: 'high',
      priority_rank: null,
      priority_source: 'auto',
    });
    expect(await newTask(owner, { priority_rank: 3 })).toMatchObject({
      priority: null,
      priority_rank: 3,
      priority_source: 'auto',
    });
    expect((await newTask(owner, { priority_rank: null })).priority_source).toBe('default');
    expect((await newTask(owner)).priority_source).toBe('default');
  });

  it('applies an order sent with PATCH as auto and answers meta.priority_write', async () => {
    const task = await newTask(owner);
    const res = await patch(task.id, { priority: 'urgent', priority_rank: 1.5 });
    expect(body(res).meta).toEqual({
      priority_write: {
        applied: true,
        priority_source: 'auto',
        message: expect.stringMatching(/applied/),
      },
      skipped: [],
    });
    const ordered = body(res).data;
    expect(ordered).toMatchObject({
      priority: 'urgent',
      priority_rank: 1.5,
      priority_source: 'auto',
    });
    expect(await get(task.id)).toEqual(ordered);

    const cleared = body(await patch(task.id, { priority: null, priority_rank: null }));
    expect(cleared.data).toMatchObject({
      priority: null,
      priority_rank: null,
      priority_source: 'default',
    });
    expect(cleared.meta.priority_write).toMatchObject({
      applied: true,
      priority_source: 'default',
    });
  });

  it('answers no meta when no order change was requested', async () => {
    const task = await newTask(owner, { priority_rank: 2 });
    const res = body(await patch(task.id, { title: 'Renamed', release: false }));
    expect(res).not.toHaveProperty('meta');
    expect(res.data).toMatchObject({ title: 'Renamed', priority_rank: 2, priority_source: 'auto' });
  });

  describe('a task placed by hand', () => {
    it('keeps its order against an API order write, applies the other fields and names what it skipped', async () => {
      const task = await newTask(owner, { priority: 'low', priority_rank: 5 });
      const placed = await byHand(task.id, 'high', 1);
      expect(placed).toMatchObject({
        priority: 'high',
        priority_rank: 1,
        priority_source: 'manual',
      });
      expect(await get(task.id)).toEqual(placed);

      await tick();
      const res = body(await patch(task.id, { priority_rank: 9, title: 'Pour plates' }));
      expect(res.meta).toEqual({
        priority_write: {
          applied: false,
          reason: 'manual_override',
          priority_source: 'manual',
          message: expect.stringMatching(/release: true/),
        },
        skipped: ['priority_rank'],
      });
      expect(res.data).toMatchObject({
        title: 'Pour plates',
        priority: 'high',
        priority_rank: 1,
        priority_source: 'manual',
      });
      expect(res.data.updated_at > placed.updated_at).toBe(true);
      expect(await get(task.id)).toEqual(res.data);

      // Only an order write, and refused: nothing written at all.
      const refused = body(
        await patch(task.id, { priority: 'low', priority_rank: 2, release: false }),
      );
      expect(refused.meta.priority_write).toMatchObject({
        applied: false,
        reason: 'manual_override',
      });
      expect(refused.meta.skipped).toEqual(['priority', 'priority_rank']);
      expect(refused.data).toEqual(res.data);
      expect(await get(task.id)).toEqual(res.data);

      // Other edits keep the placement.
      const edited = dataOf(await patch(task.id, { workflow_status: 'in_progress' }), 200);
      expect(edited.priority_source).toBe('manual');
    });

    it('hands the placement back with release: true and applies the order sent with it', async () => {
      const task = await newTask(owner);
      await byHand(task.id, 'high', 1);
      const res = body(await patch(task.id, { release: true, priority_rank: 7 }));
      expect(res.meta).toEqual({
        priority_write: {
          applied: true,
          priority_source: 'auto',
          message: expect.stringMatching(/released/),
        },
        skipped: [],
      });
      expect(res.data).toMatchObject({
        priority: 'high',
        priority_rank: 7,
        priority_source: 'auto',
      });
      // Released: the next order write applies without release.
      const next = body(await patch(task.id, { priority: 'low' }));
      expect(next.meta.priority_write.applied).toBe(true);
      expect(next.data).toMatchObject({ priority: 'low', priority_rank: 7 });
    });

    it('on release alone keeps the values, now automatic (default when the placement set none)', async () => {
      const task = await newTask(owner);
      await byHand(task.id, 'medium', 4);
      const released = body(await patch(task.id, { release: true }));
      expect(released.meta).toEqual({
        priority_write: {
          applied: true,
          priority_source: 'auto',
          message: expect.stringMatching(/released/),
        },
        skipped: [],
      });
      expect(released.data).toMatchObject({
        priority: 'medium',
        priority_rank: 4,
        priority_source: 'auto',
      });

      const bare = await newTask(owner);
      await byHand(bare.id, null, null);
      const releasedBare = body(await patch(bare.id, { release: true }));
      expect(releasedBare.data.priority_source).toBe('default');
      expect(releasedBare.meta.priority_write.priority_source).toBe('default');
    });
  });

  it('answers release on a task not placed by hand without writing', async () => {
    const task = await newTask(owner, { priority_rank: 3 });
    await tick();
    const res = body(await patch(task.id, { release: true }));
    expect(res).toEqual({
      ok: true,
      data: task,
      meta: {
        priority_write: {
          applied: true,
          priority_source: 'auto',
          message: expect.stringMatching(/Nothing to release/),
        },
        skipped: [],
      },
    });
  });

  it('works as the SDK calls it: tasks.update(id, {...}) answers {data: Task, meta: {priority_write}}', async () => {
    const sdk = {
      tasks: {
        update: async (id: string, fields: Record<string, unknown>) => {
          const res = await t.request({
            method: 'PATCH',
            url: `/api/v1/tasks/${id}`,
            headers: { ...lab.owner.headers, 'content-type': 'application/json' },
            payload: JSON.stringify(fields),
          });
          return { status: res.statusCode, ...body(res) };
        },
      },
    };
    const task = await newTask(owner, { category: 'other', category_label: 'Visit' });
    await byHand(task.id, 'high', 1);
    const skipped = await sdk.tasks.update(task.id, { priority_rank: 3, workflow_status: 'done' });
    expect(skipped.status).toBe(200);
    expect(skipped.ok).toBe(true);
    expect(keysOf(skipped.data)).toEqual(TASK_KEYS);
    expect(skipped.data).toMatchObject({
      status: 'done',
      category_label: 'Visit',
      priority_rank: 1,
    });
    expect(keysOf(skipped.meta.priority_write)).toEqual([
      'applied',
      'message',
      'priority_source',
      'reason',
    ]);
    const applied = await sdk.tasks.update(task.id, { priority_rank: 3, release: true });
    expect(keysOf(applied.meta.priority_write)).toEqual(['applied', 'message', 'priority_source']);
    expect(applied.data.priority_rank).toBe(3);
  });
});
