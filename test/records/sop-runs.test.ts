import { beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  client,
  dataOf,
  expectError,
  expectSameAnswer,
  ISO_MS,
  keysOf,
  markDeleted,
  newPlant,
  randomId,
  type Client,
} from '../support/helpers.js';
import {
  importSops,
  postEvent,
  runRows,
  SOP_RUN_KEYS,
  startRun,
  subcultureSop,
} from './sop-helpers.js';

describeOnDatabases('SOP runs', (target) => {
  const { t, lab, owner } = labSuite(target);
  let ids: ReturnType<typeof subcultureSop>['ids'];
  beforeEach(async () => {
    const made = subcultureSop();
    ids = made.ids;
    await importSops(t.database, lab.workspaceId, [made.sop]);
  });

  const rows = () => runRows(t.database, lab.workspaceId);
  const runUrl = (id: string) => `/api/v1/sop-runs/${id}`;

  describe('POST /sop-runs', () => {
    it('starts a run of the version in force, in_progress, as the key owner, and reads it back', async () => {
      const plant = await newPlant(owner);
      const res = await owner.post('/api/v1/sop-runs', {
        sop_id: ids.sop,
        batch_code: 'B-2026-07',
        plant_id: plant.id,
      });
      expect(res.statusCode).toBe(201);
      expect(res.headers['idempotent-replay']).toBe('false');
      expect(body(res).meta).toBeUndefined();
      const run = body(res).data;
      expect(keysOf(run)).toEqual(SOP_RUN_KEYS);
      expect(run).toMatchObject({
        sopId: ids.sop,
        version: 2,
        versionId: ids.v2,
        status: 'in_progress',
        batchCode: 'B-2026-07',
        plantId: plant.id,
        completedAt: null,
        progress: 0,
        steps: [],
        notes: null,
        startedBy: lab.owner.memberId,
      });
      expect(run.startedAt).toMatch(ISO_MS);
      expect(run.updatedAt).toBe(run.startedAt);
      expect(dataOf(await owner.get(runUrl(run.id)), 200)).toEqual({ ...run, events: [] });
      expect(body(await owner.get(runUrl(run.id))).meta).toEqual({ events_next_cursor: null });
    });

    it('defaults batch_code and plant_id to null and accepts an empty batch code', async () => {
      expect(await startRun(owner, { sop_id: ids.sop })).toMatchObject({
        batchCode: null,
        plantId: null,
      });
      expect((await startRun(owner, { sop_id: ids.sop, batch_code: '' })).batchCode).toBe('');
      const longest = 'b'.repeat(120);
      expect((await startRun(owner, { sop_id: ids.sop, batch_code: longest })).batchCode).toBe(
        longest,
      );
    });

    it('refuses an SOP without a version in force with 409 SOP_RUN_NOT_EFFECTIVE, creating nothing', async () => {
      const draftOnly = {
        id: newId(),
        title: 'Draft only',
        versions: [
          { id: newId(), version: 1, lifecycle_status: 'superseded', steps: [] },
          { id: newId(), version: 2, lifecycle_status: 'draft', steps: [] },
        ],
      };
      const bare = { id: newId(), title: 'No versions' };
      await importSops(t.database, lab.workspaceId, [draftOnly, bare]);
      for (const sopId of [draftOnly.id, bare.id]) {
        expectError(
          await owner.post('/api/v1/sop-runs', { sop_id: sopId }),
          409,
          'SOP_RUN_NOT_EFFECTIVE',
        );
      }
      expect((await rows()).runs).toEqual([]);
    });

    it('answers an unknown or foreign SOP, and an unknown, deleted or foreign plant, with the same 404', async () => {
      const theirs = await createLab(t.database, { name: 'Theirs' });
      const their = subcultureSop();
      await importSops(t.database, theirs.workspaceId, [their.sop]);
      const theirPlant = await newPlant(client(t, theirs.owner));
      const gone = await newPlant(owner);
      await markDeleted(t.database, 'plants', gone.id);

      const noSop = await owner.post('/api/v1/sop-runs', { sop_id: randomId() });
      expectSameAnswer(
        await owner.post('/api/v1/sop-runs', { sop_id: their.ids.sop }),
        noSop,
        404,
        'NOT_FOUND',
      );
      const noPlant = await owner.post('/api/v1/sop-runs', {
        sop_id: ids.sop,
        plant_id: randomId(),
      });
      for (const plantId of [theirPlant.id, gone.id]) {
        expectSameAnswer(
          await owner.post('/api/v1/sop-runs', { sop_id: ids.sop, plant_id: plantId }),
          noPlant,
          404,
          'NOT_FOUND',
        );
      }
      expect((await rows()).runs).toEqual([]);
      expect((await runRows(t.database, theirs.workspaceId)).runs).toEqual([]);
    });

    it.each([
      ['no sop_id', { sop_id: undefined }, /^sop_id: is required/],
      ['a malformed sop_id', { sop_id: 'not-a-uuid' }, /^sop_id: /],
      ['a null sop_id', { sop_id: null }, /^sop_id: /],
      ['a batch_code of 121', { batch_code: 'b'.repeat(121) }, /^batch_code: must be at most 120/],
      ['a null batch_code', { batch_code: null }, /^batch_code: /],
      ['a malformed plant_id', { plant_id: 'plant-1' }, /^plant_id: /],
      ['a status', { status: 'completed' }, /unknown field "status"/],
    ])('refuses %s with 422 naming the problem', async (_what, fields, error) => {
      const sent = { sop_id: ids.sop, ...fields };
      expectError(await owner.post('/api/v1/sop-runs', sent), 422, 'VALIDATION_ERROR', error);
      expect((await rows()).runs).toEqual([]);
    });

    it('replays the first response for a repeated Idempotency-Key, starting one run', async () => {
      const headers = { 'idempotency-key': 'start-run-0001' };
      const first = await owner.post('/api/v1/sop-runs', { sop_id: ids.sop }, headers);
      const again = await owner.post('/api/v1/sop-runs', { sop_id: ids.sop }, headers);
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replay']).toBe('true');
      expect(body(again)).toEqual(body(first));
      expect((await rows()).runs).toHaveLength(1);
    });

    it('needs write:sop_runs and the member role; refusals create nothing', async () => {
      const viewer = client(t, await lab.actor('viewer'));
      expectError(
        await viewer.post('/api/v1/sop-runs', { sop_id: ids.sop }),
        403,
        'FORBIDDEN',
        /member/,
      );
      const narrow = client(t, await lab.actor('owner', { scopes: ['read:sop_runs'] }));
      expectError(
        await narrow.post('/api/v1/sop-runs', { sop_id: ids.sop }),
        403,
        'FORBIDDEN',
        /write:sop_runs/,
      );
      const device = client(t, await lab.deviceToken());
      expectError(
        await device.post('/api/v1/sop-runs', { sop_id: ids.sop }),
        403,
        'DEVICE_TOKEN_NOT_ACCEPTED',
      );
      expect((await rows()).runs).toEqual([]);
      const member = client(t, await lab.actor('member'));
      const run = await startRun(member, { sop_id: ids.sop });
      expect(run.status).toBe('in_progress');
    });

    it('never answers TRAINING_REQUIRED nor sends meta.training_warning (decision 7)', async () => {
      for (const role of ['member', 'manager', 'owner'] as const) {
        const res = await client(t, await lab.actor(role)).post('/api/v1/sop-runs', {
          sop_id: ids.sop,
        });
        expect(res.statusCode).toBe(201);
        expect(body(res)).not.toHaveProperty('meta');
      }
    });
  });

  describe('GET /sop-runs/{id}', () => {
    it('answers an unknown, malformed or foreign run with the same 404', async () => {
      const theirs = await createLab(t.database, { name: 'Theirs' });
      const their = subcultureSop();
      await importSops(t.database, theirs.workspaceId, [their.sop]);
      const theirRun = await startRun(client(t, theirs.owner), { sop_id: their.ids.sop });
      const reference = await owner.get(runUrl(randomId()));
      for (const id of [theirRun.id, 'not-a-uuid', '00000000-0000-0000-0000-000000000000']) {
        expectSameAnswer(await owner.get(runUrl(id)), reference, 404, 'NOT_FOUND');
        expectSameAnswer(await owner.get(`${runUrl(id)}/events`), reference, 404, 'NOT_FOUND');
      }
    });

    it('lets any member read, and wants read:sop_runs', async () => {
      const run = await startRun(owner, { sop_id: ids.sop });
      const guest = client(t, await lab.actor('guest'));
      expect(dataOf(await guest.get(runUrl(run.id)), 200).id).toBe(run.id);
      expect(dataOf(await guest.get(`${runUrl(run.id)}/events`), 200)).toEqual([]);
      const narrow = client(t, await lab.actor('owner', { scopes: ['read:sops'] }));
      expectError(await narrow.get(runUrl(run.id)), 403, 'FORBIDDEN', /read:sop_runs/);
      expectError(await narrow.get(`${runUrl(run.id)}/events`), 403, 'FORBIDDEN', /read:sop_runs/);
    });
  });

  describe('POST /sop-runs/{id}/complete', () => {
    // Completing a run with steps left without evidence needs the flag (sop-run-lists.test.ts);
    // these tests are about the other rules of closing a run.
    const complete = (c: Client, id: string, fields: object, headers?: Record<string, string>) =>
      c.post(`${runUrl(id)}/complete`, { allow_incomplete_steps: true, ...fields }, headers);

    it('closes a run as completed with completedAt and notes, and reads it back', async () => {
      const run = await startRun(owner, { sop_id: ids.sop });
      await postEvent(owner, run.id, 'step-1');
      await new Promise((resolve) => setTimeout(resolve, 5));
      const res = await complete(owner, run.id, {
        outcome: 'completed',
        notes: 'All vessels done',
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['idempotent-replay']).toBe('false');
      const closed = body(res).data;
      expect(keysOf(closed)).toEqual(SOP_RUN_KEYS);
      expect(closed).toMatchObject({
        id: run.id,
        status: 'completed',
        notes: 'All vessels done',
        progress: 33.33,
        steps: [{ id: 'step-1', completed: true }],
      });
      expect(closed.completedAt).toMatch(ISO_MS);
      expect(closed.updatedAt).toBe(closed.completedAt);
      expect(closed.updatedAt > run.updatedAt).toBe(true);
      const { events, ...detail } = dataOf(await owner.get(runUrl(run.id)), 200);
      expect(detail).toEqual(closed);
      expect(events).toHaveLength(1);
    });

    it.each(['failed', 'cancelled'])('closes a run as %s without completedAt', async (outcome) => {
      const run = await startRun(owner, { sop_id: ids.sop });
      const closed = dataOf(await complete(owner, run.id, { outcome }), 200);
      expect(closed).toMatchObject({ status: outcome, completedAt: null, notes: null });
      expect(dataOf(await owner.get(runUrl(run.id)), 200)).toMatchObject({
        status: outcome,
        completedAt: null,
      });
    });

    it('answers 409 SOP_RUN_CLOSED for a run that has ended, changing nothing', async () => {
      for (const outcome of ['completed', 'failed', 'cancelled']) {
        const run = await startRun(owner, { sop_id: ids.sop });
        const closed = dataOf(await complete(owner, run.id, { outcome }), 200);
        for (const again of ['completed', 'failed', 'cancelled']) {
          expectError(
            await complete(owner, run.id, { outcome: again, notes: 'again' }),
            409,
            'SOP_RUN_CLOSED',
            new RegExp(outcome),
          );
        }
        expect(dataOf(await owner.get(runUrl(run.id)), 200)).toEqual({ ...closed, events: [] });
      }
      // Archived runs come from the app; they are ended too.
      const archived = await startRun(owner, { sop_id: ids.sop });
      await t.database.db
        .updateTable('sop_runs')
        .set({ status: 'archived' })
        .where('id', '=', archived.id)
        .execute();
      expectError(
        await complete(owner, archived.id, { outcome: 'completed' }),
        409,
        'SOP_RUN_CLOSED',
      );
    });

    it('lets the member who started the run or a manager close it; anyone else gets the 404 of an unknown run', async () => {
      const starter = await lab.actor('member');
      const other = client(t, await lab.actor('member'));
      const manager = client(t, await lab.actor('manager'));
      const mine = await startRun(client(t, starter), { sop_id: ids.sop });
      const before = await rows();
      expectSameAnswer(
        await complete(other, mine.id, { outcome: 'cancelled' }),
        await complete(other, randomId(), { outcome: 'cancelled' }),
        404,
        'NOT_FOUND',
      );
      expect(await rows()).toEqual(before);
      expect(
        dataOf(await complete(client(t, starter), mine.id, { outcome: 'completed' }), 200),
      ).toMatchObject({ status: 'completed' });

      const forManager = await startRun(client(t, starter), { sop_id: ids.sop });
      expect(
        dataOf(await complete(manager, forManager.id, { outcome: 'failed' }), 200).status,
      ).toBe('failed');
      const forOwner = await startRun(manager, { sop_id: ids.sop });
      expect(dataOf(await complete(owner, forOwner.id, { outcome: 'cancelled' }), 200).status).toBe(
        'cancelled',
      );
      // A member who started nothing still meets the 404 on an ended run, never its 409.
      expectSameAnswer(
        await complete(other, mine.id, { outcome: 'completed' }),
        await complete(other, randomId(), { outcome: 'completed' }),
        404,
        'NOT_FOUND',
      );
    });

    it('needs write:sop_runs and the member role; refusals change nothing', async () => {
      const run = await startRun(owner, { sop_id: ids.sop });
      const before = await rows();
      const viewer = client(t, await lab.actor('viewer'));
      expectError(await complete(viewer, run.id, { outcome: 'completed' }), 403, 'FORBIDDEN');
      const narrow = client(t, await lab.actor('owner', { scopes: ['write:sop_steps'] }));
      expectError(
        await complete(narrow, run.id, { outcome: 'completed' }),
        403,
        'FORBIDDEN',
        /write:sop_runs/,
      );
      expect(await rows()).toEqual(before);
    });

    it('answers a foreign or malformed run with the same 404', async () => {
      const theirs = await createLab(t.database, { name: 'Theirs' });
      const their = subcultureSop();
      await importSops(t.database, theirs.workspaceId, [their.sop]);
      const theirRun = await startRun(client(t, theirs.owner), { sop_id: their.ids.sop });
      const reference = await complete(owner, randomId(), { outcome: 'completed' });
      for (const id of [theirRun.id, 'nope']) {
        expectSameAnswer(
          await complete(owner, id, { outcome: 'completed' }),
          reference,
          404,
          'NOT_FOUND',
        );
      }
      expect(dataOf(await client(t, theirs.owner).get(runUrl(theirRun.id)), 200).status).toBe(
        'in_progress',
      );
    });

    it.each([
      ['no outcome', {}, /^outcome: is required/],
      [
        'outcome archived',
        { outcome: 'archived' },
        /^outcome: must be one of: completed, failed, cancelled/,
      ],
      ['outcome in_progress', { outcome: 'in_progress' }, /^outcome: /],
      [
        'notes of 1001',
        { outcome: 'completed', notes: 'n'.repeat(1001) },
        /^notes: must be at most 1000/,
      ],
      [
        'a completed_at',
        { outcome: 'completed', completed_at: '2026-01-01T00:00:00Z' },
        /unknown field/,
      ],
    ])('refuses %s with 422, changing nothing', async (_what, fields, error) => {
      const run = await startRun(owner, { sop_id: ids.sop });
      expectError(await complete(owner, run.id, fields), 422, 'VALIDATION_ERROR', error);
      expect(dataOf(await owner.get(runUrl(run.id)), 200).status).toBe('in_progress');
    });

    it('accepts notes of 1000 characters', async () => {
      const run = await startRun(owner, { sop_id: ids.sop });
      const notes = 'n'.repeat(1000);
      expect(
        dataOf(await complete(owner, run.id, { outcome: 'completed', notes }), 200).notes,
      ).toBe(notes);
    });

    it('replays the first response for a repeated Idempotency-Key', async () => {
      const run = await startRun(owner, { sop_id: ids.sop });
      const headers = { 'idempotency-key': 'complete-run-01' };
      const first = await complete(owner, run.id, { outcome: 'completed' }, headers);
      const again = await complete(owner, run.id, { outcome: 'completed' }, headers);
      expect(first.statusCode).toBe(200);
      expect(again.statusCode).toBe(200);
      expect(again.headers['idempotent-replay']).toBe('true');
      expect(body(again)).toEqual(body(first));
      // A new key is a new attempt: the run has ended.
      expectError(
        await complete(
          owner,
          run.id,
          { outcome: 'completed' },
          { 'idempotency-key': 'complete-run-02' },
        ),
        409,
        'SOP_RUN_CLOSED',
      );
    });
  });
});
