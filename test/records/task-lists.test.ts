import { expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { body } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { dataOf, expectError, listAll } from '../support/helpers.js';
import { newTask, tasksOf } from './task-helpers.js';

type Item = { id: string };
const ids = (items: Item[]) => items.map((i) => i.id);

describeOnDatabases('Task list', (target) => {
  const { t, lab, owner } = labSuite(target);

  /** Tasks due out of order, two on the same moment, two undated; ids in the list's order. */
  const fill = async () => {
    const due = (day: number) => `2026-12-${String(day).padStart(2, '0')}T08:00:00Z`;
    const undatedA = await newTask(owner, { title: 'undated A' });
    const late = await newTask(owner, { title: 'late', due_date: due(20) });
    const tieA = await newTask(owner, { title: 'tie A', due_date: due(10) });
    const early = await newTask(owner, { title: 'early', due_date: '2026-12-01T23:00:00+01:00' });
    const tieB = await newTask(owner, { title: 'tie B', due_date: '2026-12-10T10:00:00+02:00' });
    const undatedB = await newTask(owner, { title: 'undated B' });
    const soon = await newTask(owner, { title: 'soon', due_date: due(5) });
    return ids([early, soon, tieA, tieB, late, undatedA, undatedB]);
  };

  it('orders earliest due first, equal due dates in creation order, undated tasks last', async () => {
    const expected = await fill();
    expect(ids(await tasksOf(owner))).toEqual(expected);
    for (const limit of [1, 2, 3]) {
      expect(ids(await listAll(owner, '/api/v1/tasks', limit))).toEqual(expected);
    }
  });

  it('pages with offset and limit in the same order', async () => {
    const expected = await fill();
    const pages: string[] = [];
    for (let offset = 0; offset < expected.length; offset += 3) {
      const res = await owner.get(`/api/v1/tasks?limit=3&offset=${offset}`);
      pages.push(...ids(dataOf(res, 200)));
    }
    expect(pages).toEqual(expected);
    const last = await owner.get('/api/v1/tasks?limit=3&offset=6');
    expect(body(last).meta.next_cursor).toBeNull();
    expect(body(await owner.get('/api/v1/tasks?limit=3&offset=3')).meta.next_cursor).toEqual(
      expect.any(String),
    );
  });

  it('follows a changed due date', async () => {
    const [early, soon, ...rest] = await fill();
    await owner.patch(`/api/v1/tasks/${early}`, { due_date: null });
    await owner.patch(`/api/v1/tasks/${rest.at(-1)}`, { due_date: '2020-01-01T00:00:00Z' });
    expect(ids(await tasksOf(owner))).toEqual([rest.at(-1), soon, ...rest.slice(0, -1), early]);
  });

  it('neither skips nor repeats a task when tasks are added between pages', async () => {
    const expected = await fill();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await owner.get(
        `/api/v1/tasks?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      seen.push(...ids(dataOf(res, 200)));
      cursor = body(res).meta.next_cursor;
      await newTask(owner, { title: 'added', due_date: '2026-01-01T00:00:00Z' });
    } while (cursor !== null);
    expect(seen).toEqual(expected);
  });

  it('filters by status and assigned_to, alone and together, in the same order', async () => {
    const member = await lab.actor('member');
    const a = await newTask(owner, {
      due_date: '2026-06-03T00:00:00Z',
      assigned_to: member.memberId,
    });
    const b = await newTask(owner, { due_date: '2026-06-01T00:00:00Z', workflow_status: 'done' });
    const c = await newTask(owner, { assigned_to: member.memberId, workflow_status: 'done' });
    const d = await newTask(owner, {
      due_date: '2026-06-02T00:00:00Z',
      assigned_to: member.memberId,
    });
    expect(ids(await tasksOf(owner, '?status=todo'))).toEqual([d.id, a.id]);
    expect(ids(await tasksOf(owner, '?status=done'))).toEqual([b.id, c.id]);
    expect(ids(await tasksOf(owner, `?assigned_to=${member.memberId}`))).toEqual([
      d.id,
      a.id,
      c.id,
    ]);
    expect(ids(await tasksOf(owner, `?assigned_to=${member.memberId}&status=done`))).toEqual([
      c.id,
    ]);
    expect(ids(await listAll(owner, `/api/v1/tasks?assigned_to=${member.memberId}`, 1))).toEqual([
      d.id,
      a.id,
      c.id,
    ]);
    expect(await tasksOf(owner, '?status=review')).toEqual([]);
    expect(await tasksOf(owner, `?assigned_to=${lab.owner.memberId}`)).toEqual([]);
    // A task moved to done leaves the todo list.
    await owner.patch(`/api/v1/tasks/${d.id}`, { workflow_status: 'done' });
    expect(ids(await tasksOf(owner, '?status=todo'))).toEqual([a.id]);
  });

  it('binds a cursor to its filters and refuses malformed parameters (422)', async () => {
    for (let i = 0; i < 3; i++) await newTask(owner);
    const cursorOf = async (url: string) => body(await owner.get(url)).meta.next_cursor as string;
    const plain = await cursorOf('/api/v1/tasks?limit=1');
    const todo = await cursorOf('/api/v1/tasks?status=todo&limit=1');
    const c = encodeURIComponent;
    for (const url of [
      `/api/v1/tasks?status=todo&cursor=${c(plain)}`,
      `/api/v1/tasks?cursor=${c(todo)}`,
      `/api/v1/tasks?status=done&cursor=${c(todo)}`,
      `/api/v1/tasks?assigned_to=${lab.owner.memberId}&cursor=${c(plain)}`,
      `/api/v1/tasks/demand?cursor=${c(plain)}`,
    ]) {
      expectError(await owner.get(url), 422, 'INVALID_CURSOR');
    }
    expect(
      dataOf(await owner.get(`/api/v1/tasks?status=todo&cursor=${c(todo)}`), 200),
    ).toHaveLength(2);
    for (const [url, problem] of [
      ['/api/v1/tasks?status=closed', /^status:/],
      ['/api/v1/tasks?assigned_to=not-a-uuid', /^assigned_to:/],
      ['/api/v1/tasks?limit=0', /^limit:/],
      ['/api/v1/tasks?offset=-1', /^offset:/],
      [`/api/v1/tasks?offset=1&cursor=${c(plain)}`, /cursor/],
    ] as const) {
      expectError(await owner.get(url), 422, 'VALIDATION_ERROR', problem);
    }
  });

  it('answers an empty first page with next_cursor null', async () => {
    expect(body(await owner.get('/api/v1/tasks'))).toEqual({
      ok: true,
      data: [],
      meta: { next_cursor: null },
    });
  });

  it('caps limit at 200 and defaults to 50', async () => {
    const now = new Date().toISOString();
    const rows = Array.from({ length: 205 }, (_, i) => {
      const due = i % 5 === 0 ? null : new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
      return {
        id: newId(),
        workspace_id: lab.workspaceId,
        title: `Bulk ${i}`,
        notes: null,
        category: 'media_prep',
        category_label: null,
        workflow_status: 'todo',
        priority: null,
        priority_rank: null,
        priority_source: 'default',
        due_date: due,
        undated: due === null ? 1 : 0,
        due_key: due ?? '',
        is_all_day: 0,
        assigned_to: null,
        genus: null,
        entity_type: null,
        entity_id: null,
        completed_at: null,
        completed_by: null,
        created_by: lab.owner.memberId,
        created_at: now,
        updated_at: now,
      };
    });
    await t.database.db.insertInto('tasks').values(rows).execute();
    const capped = await owner.get('/api/v1/tasks?limit=201');
    expect(dataOf(capped, 200)).toHaveLength(200);
    const rest = await owner.get(
      `/api/v1/tasks?limit=1000&cursor=${encodeURIComponent(body(capped).meta.next_cursor)}`,
    );
    expect(dataOf(rest, 200)).toHaveLength(5);
    expect(body(rest).meta.next_cursor).toBeNull();
    expect(dataOf(await owner.get('/api/v1/tasks'), 200)).toHaveLength(50);
    const all = await listAll(owner, '/api/v1/tasks', 1000);
    expect(all.map((task: { title: string }) => task.title)).toEqual(
      [...rows.filter((r) => r.due_date !== null), ...rows.filter((r) => r.due_date === null)].map(
        (r) => r.title,
      ),
    );
  });
});
