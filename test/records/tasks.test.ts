import { describe, expect, it } from 'vitest';
import { body } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { client, dataOf, expectError, ISO_MS, keysOf, randomId, tick } from '../support/helpers.js';
import { listed, newTask, TASK_KEYS, TASK_LIST_KEYS, tasksOf } from './task-helpers.js';

describeOnDatabases('Tasks', (target) => {
  const { t, lab, owner } = labSuite(target);

  it('creates a task with the documented defaults and reads it back', async () => {
    const res = await owner.post('/api/v1/tasks', { title: 'Pour MS plates' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replay']).toBe('false');
    const task = body(res).data;
    expect(keysOf(task)).toEqual(TASK_KEYS);
    expect(task).toMatchObject({
      title: 'Pour MS plates',
      status: 'todo',
      category: 'media_prep',
      category_label: null,
      due_date: null,
      is_all_day: false,
      assigned_to: null,
      priority: null,
      priority_rank: null,
      priority_source: 'default',
      genus: null,
      notes: null,
      entity_link: null,
      completed_at: null,
      completed_by: null,
    });
    expect(task.created_at).toMatch(ISO_MS);
    expect(task.updated_at).toBe(task.created_at);
    expect(dataOf(await owner.get(`/api/v1/tasks/${task.id}`), 200)).toEqual(task);
    const [item] = dataOf(await owner.get('/api/v1/tasks'), 200);
    expect(keysOf(item)).toEqual(TASK_LIST_KEYS);
    expect(item).toEqual(listed(task));
  });

  it('reads back every field create and update accept, with updated_at', async () => {
    const member = await lab.actor('member');
    const plant = dataOf(await owner.post('/api/v1/plants', { species: 'Musa acuminata' }), 201);
    const sent = {
      title: 'Subculture banana line',
      due_date: '2026-12-01T09:30:00+02:00',
      is_all_day: true,
      category: 'other',
      category_label: 'Grower visit',
      notes: 'Bring the new vessels',
      priority: 'high',
      priority_rank: 2.5,
      workflow_status: 'in_progress',
      assigned_to: member.memberId,
      genus: 'Musa',
      entity_type: 'plant',
      entity_id: plant.id,
    };
    const task = await newTask(owner, sent);
    const { workflow_status, entity_type, entity_id, due_date, ...same } = sent;
    expect(task).toMatchObject({
      ...same,
      status: workflow_status,
      due_date: '2026-12-01T07:30:00.000Z',
      entity_link: { entity_type, entity_id },
      priority_source: 'auto',
    });
    expect(due_date).not.toBe(task.due_date);
    expect(dataOf(await owner.get(`/api/v1/tasks/${task.id}`), 200)).toEqual(task);

    await tick();
    const explant = dataOf(await owner.post('/api/v1/explants', { label: 'MUS-1' }), 201);
    const edits = {
      title: 'Subculture banana line B',
      due_date: '2026-12-02T00:00:00Z',
      is_all_day: false,
      category: 'subculture',
      notes: null,
      priority: 'urgent',
      priority_rank: -7,
      workflow_status: 'review',
      assigned_to: lab.owner.memberId,
      genus: 'Ensete',
      entity_type: 'explant',
      entity_id: explant.id,
    };
    const edited = dataOf(await owner.patch(`/api/v1/tasks/${task.id}`, edits), 200);
    expect(edited).toMatchObject({
      title: edits.title,
      due_date: '2026-12-02T00:00:00.000Z',
      is_all_day: false,
      category: 'subculture',
      category_label: null,
      notes: null,
      priority: 'urgent',
      priority_rank: -7,
      status: 'review',
      assigned_to: lab.owner.memberId,
      genus: 'Ensete',
      entity_link: { entity_type: 'explant', entity_id: explant.id },
      created_at: task.created_at,
    });
    expect(edited.updated_at > task.updated_at).toBe(true);
    expect(dataOf(await owner.get(`/api/v1/tasks/${task.id}`), 200)).toEqual(edited);
    expect(await tasksOf(owner)).toEqual([listed(edited)]);
  });

  it('accepts every documented status, category and priority and refuses others', async () => {
    const statuses = ['backlog', 'todo', 'in_progress', 'waiting_blocked', 'review', 'done'];
    for (const status of statuses) {
      expect((await newTask(owner, { workflow_status: status })).status).toBe(status);
    }
    const categories = [
      'media_prep',
      'transfer',
      'contamination',
      'subculture',
      'sop_review',
      'acclimation',
      'cleaning',
      'monitoring',
      'other',
    ];
    for (const category of categories) {
      expect((await newTask(owner, { category })).category).toBe(category);
    }
    for (const priority of ['low', 'medium', 'high', 'urgent']) {
      expect((await newTask(owner, { priority })).priority).toBe(priority);
    }
    const count = (await tasksOf(owner)).length;
    for (const [field, value] of [
      ['workflow_status', 'blocked'],
      ['status', 'todo'],
      ['category', 'Media prep'],
      ['priority', 'critical'],
      ['entity_type', 'contamination'],
    ] as const) {
      expectError(
        await owner.post('/api/v1/tasks', { title: 'T', [field]: value }),
        422,
        'VALIDATION_ERROR',
        new RegExp(field),
      );
    }
    const task = await newTask(owner);
    expectError(
      await owner.patch(`/api/v1/tasks/${task.id}`, { workflow_status: 'closed' }),
      422,
      'VALIDATION_ERROR',
      /^workflow_status:/,
    );
    expect(await tasksOf(owner)).toHaveLength(count + 1);
  });

  it.each([
    ['title', 300, 1, false],
    ['notes', 5000, 0, true],
    ['genus', 100, 1, true],
  ] as const)(
    'enforces the length of %s (%i max, %i min) on create and PATCH',
    async (field, max, min, nullable) => {
      const base = field === 'title' ? {} : { title: 'T' };
      const longest = await owner.post('/api/v1/tasks', { ...base, [field]: 'x'.repeat(max) });
      expect(dataOf(longest, 201)[field]).toHaveLength(max);
      expectError(
        await owner.post('/api/v1/tasks', { ...base, [field]: 'y'.repeat(max + 1) }),
        422,
        'VALIDATION_ERROR',
        new RegExp(`^${field}:`),
      );
      if (min > 0) {
        expectError(
          await owner.post('/api/v1/tasks', { ...base, [field]: '' }),
          422,
          'VALIDATION_ERROR',
          new RegExp(`^${field}:`),
        );
      }
      const id = body(longest).data.id;
      expectError(
        await owner.patch(`/api/v1/tasks/${id}`, { [field]: 'w'.repeat(max + 1) }),
        422,
        'VALIDATION_ERROR',
        new RegExp(`^${field}:`),
      );
      const cleared = await owner.patch(`/api/v1/tasks/${id}`, { [field]: null });
      if (nullable) expect(dataOf(cleared, 200)[field]).toBeNull();
      else expectError(cleared, 422, 'VALIDATION_ERROR', new RegExp(`^${field}:`));
      expect(await tasksOf(owner)).toHaveLength(1);
    },
  );

  it('bounds priority_rank to ±1e15 and takes fractions and null', async () => {
    for (const rank of [1e15, -1e15, 0, 0.125, 1_700_000_000_000]) {
      expect((await newTask(owner, { priority_rank: rank })).priority_rank).toBe(rank);
    }
    expect((await newTask(owner, { priority_rank: null })).priority_rank).toBeNull();
    for (const rank of [1e15 + 2, -1e15 - 2, '3', true, Number.MAX_VALUE]) {
      expectError(
        await owner.post('/api/v1/tasks', { title: 'T', priority_rank: rank }),
        422,
        'VALIDATION_ERROR',
        /^priority_rank:/,
      );
    }
    const raw = await t.request({
      method: 'POST',
      url: '/api/v1/tasks',
      headers: { ...lab.owner.headers, 'content-type': 'application/json' },
      payload: '{"title":"T","priority_rank":1e400}',
    });
    expectError(raw, 422, 'VALIDATION_ERROR');
    expect(await tasksOf(owner)).toHaveLength(6);
  });

  it('takes due_date only as a timestamp with a time zone inside years 0000-9999 (UTC)', async () => {
    const task = await newTask(owner, { due_date: '2026-03-01T23:30:00-05:00' });
    expect(task.due_date).toBe('2026-03-02T04:30:00.000Z');
    for (const due of [
      '2026-03-01',
      '2026-03-01T10:00:00',
      '2026-02-31T10:00:00Z',
      'tomorrow',
      '9999-12-31T23:00:00-14:00',
      '0000-01-01T00:00:00+01:00',
    ]) {
      expectError(
        await owner.post('/api/v1/tasks', { title: 'T', due_date: due }),
        422,
        'VALIDATION_ERROR',
        /^due_date:/,
      );
      expectError(
        await owner.patch(`/api/v1/tasks/${task.id}`, { due_date: due }),
        422,
        'VALIDATION_ERROR',
        /^due_date:/,
      );
    }
    expect(dataOf(await owner.get(`/api/v1/tasks/${task.id}`), 200)).toEqual(task);
    const cleared = dataOf(await owner.patch(`/api/v1/tasks/${task.id}`, { due_date: null }), 200);
    expect(cleared.due_date).toBeNull();
  });

  describe('category_label (decision 14)', () => {
    it('is taken only with category other, on create and PATCH, and null clears it', async () => {
      const other = await newTask(owner, { category: 'other', category_label: 'Autoclave run' });
      expect(other.category_label).toBe('Autoclave run');
      expectError(
        await owner.post('/api/v1/tasks', { title: 'T', category_label: 'Autoclave run' }),
        422,
        'VALIDATION_ERROR',
        /^category_label:/,
      );
      expectError(
        await owner.post('/api/v1/tasks', {
          title: 'T',
          category: 'cleaning',
          category_label: 'x',
        }),
        422,
        'VALIDATION_ERROR',
        /^category_label:/,
      );
      expect((await newTask(owner, { category_label: null })).category_label).toBeNull();
      for (const label of ['', 'x'.repeat(61)]) {
        expectError(
          await owner.post('/api/v1/tasks', {
            title: 'T',
            category: 'other',
            category_label: label,
          }),
          422,
          'VALIDATION_ERROR',
          /^category_label:/,
        );
      }
      expect(
        (await newTask(owner, { category: 'other', category_label: 'x'.repeat(60) }))
          .category_label,
      ).toHaveLength(60);

      const plain = await newTask(owner, { category: 'cleaning' });
      expectError(
        await owner.patch(`/api/v1/tasks/${plain.id}`, { category_label: 'Hood', title: 'New' }),
        422,
        'VALIDATION_ERROR',
        /^category_label:/,
      );
      expectError(
        await owner.patch(`/api/v1/tasks/${other.id}`, {
          category: 'transfer',
          category_label: 'Still other',
        }),
        422,
        'VALIDATION_ERROR',
        /^category_label:/,
      );
      expect(dataOf(await owner.get(`/api/v1/tasks/${plain.id}`), 200)).toEqual(plain);
      expect(dataOf(await owner.get(`/api/v1/tasks/${other.id}`), 200)).toEqual(other);

      const labelled = dataOf(
        await owner.patch(`/api/v1/tasks/${plain.id}`, {
          category: 'other',
          category_label: 'Hood',
        }),
        200,
      );
      expect(labelled).toMatchObject({ category: 'other', category_label: 'Hood' });
      const relabelled = dataOf(
        await owner.patch(`/api/v1/tasks/${plain.id}`, { category_label: 'Hood B' }),
        200,
      );
      expect(relabelled.category_label).toBe('Hood B');
      const cleared = dataOf(
        await owner.patch(`/api/v1/tasks/${plain.id}`, { category_label: null }),
        200,
      );
      expect(cleared).toMatchObject({ category: 'other', category_label: null });
    });

    it('is dropped when the category leaves other', async () => {
      const task = await newTask(owner, { category: 'other', category_label: 'Grower visit' });
      const moved = dataOf(
        await owner.patch(`/api/v1/tasks/${task.id}`, { category: 'monitoring' }),
        200,
      );
      expect(moved).toMatchObject({ category: 'monitoring', category_label: null });
      expect(dataOf(await owner.get(`/api/v1/tasks/${task.id}`), 200)).toEqual(moved);
    });
  });

  describe('workflow_status done', () => {
    it('completes the task: completed_at and completed_by; done again keeps them; reopening clears them', async () => {
      const task = await newTask(owner);
      const member = await lab.actor('member');
      await tick();
      const done = dataOf(
        await client(t, member).patch(`/api/v1/tasks/${task.id}`, { workflow_status: 'done' }),
        200,
      );
      expect(done).toMatchObject({ status: 'done', completed_by: member.memberId });
      expect(done.completed_at).toBe(done.updated_at);
      expect(done.completed_at > task.created_at).toBe(true);

      await tick();
      const again = dataOf(
        await owner.patch(`/api/v1/tasks/${task.id}`, { workflow_status: 'done' }),
        200,
      );
      expect(again).toEqual(done);

      const retitled = dataOf(
        await owner.patch(`/api/v1/tasks/${task.id}`, { title: 'Renamed' }),
        200,
      );
      expect(retitled).toMatchObject({
        status: 'done',
        completed_at: done.completed_at,
        completed_by: member.memberId,
      });

      const reopened = dataOf(
        await owner.patch(`/api/v1/tasks/${task.id}`, { workflow_status: 'review' }),
        200,
      );
      expect(reopened).toMatchObject({ status: 'review', completed_at: null, completed_by: null });
      expect(dataOf(await owner.get(`/api/v1/tasks/${task.id}`), 200)).toEqual(reopened);
    });

    it('records the completion of a task created as done', async () => {
      const task = await newTask(owner, { workflow_status: 'done' });
      expect(task).toMatchObject({
        status: 'done',
        completed_at: task.created_at,
        completed_by: lab.owner.memberId,
      });
    });
  });

  it('writes nothing for a PATCH that changes nothing', async () => {
    const task = await newTask(owner, {
      notes: 'n',
      genus: 'Musa',
      due_date: '2026-05-01T00:00:00Z',
    });
    await tick();
    for (const payload of [
      {},
      { title: task.title, notes: 'n', genus: 'Musa', category: 'media_prep' },
      { due_date: '2026-05-01T02:00:00+02:00', is_all_day: false, clear_entity_link: false },
      { workflow_status: 'todo', category_label: null, assigned_to: null },
    ]) {
      const res = await owner.patch(`/api/v1/tasks/${task.id}`, payload);
      expect(body(res)).toEqual({ ok: true, data: task });
    }
    expect(dataOf(await owner.get(`/api/v1/tasks/${task.id}`), 200)).toEqual(task);
  });

  it('refuses unknown fields, a body that is not an object, and a missing title', async () => {
    expectError(
      await owner.post('/api/v1/tasks', { title: 'T', owner: 'me' }),
      422,
      'VALIDATION_ERROR',
      /owner/,
    );
    expectError(await owner.post('/api/v1/tasks', {}), 422, 'VALIDATION_ERROR', /^title:/);
    const task = await newTask(owner);
    expectError(
      await owner.patch(`/api/v1/tasks/${task.id}`, { status: 'done' }),
      422,
      'VALIDATION_ERROR',
      /status/,
    );
    expectError(
      await owner.patch(`/api/v1/tasks/${task.id}`, { release: 'yes' }),
      422,
      'VALIDATION_ERROR',
      /^release:/,
    );
    expect(await tasksOf(owner)).toEqual([listed(task)]);
  });

  it('answers 404 for an unknown or malformed task id', async () => {
    await newTask(owner);
    for (const id of [randomId(), 'not-a-uuid']) {
      expectError(await owner.get(`/api/v1/tasks/${id}`), 404, 'NOT_FOUND', /^Task not found$/);
      expectError(
        await owner.patch(`/api/v1/tasks/${id}`, { title: 'x' }),
        404,
        'NOT_FOUND',
        /^Task not found$/,
      );
    }
  });

  it('replays a create sent again with the same Idempotency-Key', async () => {
    const headers = { 'idempotency-key': 'task-create-0001' };
    const payload = { title: 'Autoclave tools', priority: 'low' };
    const first = await owner.post('/api/v1/tasks', payload, headers);
    const again = await owner.post('/api/v1/tasks', payload, headers);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(body(again)).toEqual(body(first));
    expect(await tasksOf(owner)).toHaveLength(1);
    expectError(
      await owner.post('/api/v1/tasks', { title: 'Other' }, headers),
      422,
      'VALIDATION_ERROR',
    );
    expect(await tasksOf(owner)).toHaveLength(1);
  });

  it('replays a PATCH sent again with the same Idempotency-Key without writing again', async () => {
    const task = await newTask(owner);
    const headers = { 'idempotency-key': 'task-patch-0001' };
    const first = await owner.patch(
      `/api/v1/tasks/${task.id}`,
      { title: 'First', priority_rank: 1 },
      headers,
    );
    expect(first.headers['idempotent-replay']).toBe('false');
    const later = dataOf(await owner.patch(`/api/v1/tasks/${task.id}`, { title: 'Later' }), 200);
    const again = await owner.patch(
      `/api/v1/tasks/${task.id}`,
      { title: 'First', priority_rank: 1 },
      headers,
    );
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(body(again)).toEqual(body(first));
    expect(body(again).meta.priority_write.applied).toBe(true);
    expect(dataOf(await owner.get(`/api/v1/tasks/${task.id}`), 200)).toEqual(later);
  });
});
