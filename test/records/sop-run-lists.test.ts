import { beforeEach, describe, expect, it } from 'vitest';
import { body, createLab } from '../support/harness.js';
import {
  client,
  dataOf,
  expectError,
  keysOf,
  listAll,
  newPlant,
  randomId,
} from '../support/helpers.js';
import { importSops, postEvent, SOP_RUN_KEYS, startRun, subcultureSop } from './sop-helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

/** GET /sop-runs, and completing a run whose steps are not all done; on both databases. */
describeOnDatabases('SOP run lists and completion', (target) => {
  const { t, lab, owner } = labSuite(target);
  let sops: { first: string; second: string };
  beforeEach(async () => {
    const first = subcultureSop('Subculture');
    const second = subcultureSop('Media prep');
    await importSops(t.database, lab.workspaceId, [first.sop, second.sop]);
    sops = { first: first.ids.sop, second: second.ids.sop };
  });

  const complete = (id: string, fields: Record<string, unknown>) =>
    owner.post(`/api/v1/sop-runs/${id}/complete`, fields);

  describe('GET /sop-runs', () => {
    it('lists runs newest first with progress, by status, SOP and plant', async () => {
      const plant = await newPlant(owner);
      const a = await startRun(owner, { sop_id: sops.first });
      const b = await startRun(owner, { sop_id: sops.second, plant_id: plant.id });
      const c = await startRun(owner, { sop_id: sops.first, batch_code: 'B-9' });
      await postEvent(owner, a.id, 'step-1');
      await postEvent(owner, a.id, 'step-2');
      await postEvent(owner, a.id, 'step-2', { event_type: 'note' });
      dataOf(await complete(c.id, { outcome: 'cancelled' }), 200);
      const list = async (query = '') =>
        dataOf(await owner.get(`/api/v1/sop-runs${query}`), 200) as { id: string }[];
      const all = await list();
      expect(all.map((r) => r.id)).toEqual([c.id, b.id, a.id]);
      for (const run of all) expect(keysOf(run)).toEqual(SOP_RUN_KEYS);
      // The same record a read answers, without the evidence.
      const { events, ...detail } = dataOf(await owner.get(`/api/v1/sop-runs/${a.id}`), 200);
      expect(events).toHaveLength(3);
      expect(all[2]).toEqual(detail);
      expect(all[2]).toMatchObject({
        progress: 66.67,
        steps: [
          { id: 'step-1', completed: true },
          { id: 'step-2', completed: true },
        ],
      });
      expect((await list('?status=in_progress')).map((r) => r.id)).toEqual([b.id, a.id]);
      expect((await list('?status=cancelled')).map((r) => r.id)).toEqual([c.id]);
      expect((await list(`?sop_id=${sops.first}`)).map((r) => r.id)).toEqual([c.id, a.id]);
      expect((await list(`?plant_id=${plant.id}`)).map((r) => r.id)).toEqual([b.id]);
      expect(await list(`?sop_id=${sops.second}&status=cancelled`)).toEqual([]);
      const paged = await listAll(owner, `/api/v1/sop-runs?sop_id=${sops.first}`, 1);
      expect(paged.map((r) => r.id)).toEqual([c.id, a.id]);
    });

    it("answers an SOP or plant the workspace does not have with 404; never lists another's runs", async () => {
      const theirs = await createLab(t.database);
      const other = client(t, theirs.owner);
      const theirSop = subcultureSop();
      await importSops(t.database, theirs.workspaceId, [theirSop.sop]);
      await startRun(other, { sop_id: theirSop.ids.sop });
      const theirPlant = await newPlant(other);
      expectError(
        await owner.get(`/api/v1/sop-runs?sop_id=${theirSop.ids.sop}`),
        404,
        'NOT_FOUND',
        /^SOP not found/,
      );
      expectError(await owner.get(`/api/v1/sop-runs?sop_id=${randomId()}`), 404, 'NOT_FOUND');
      expectError(
        await owner.get(`/api/v1/sop-runs?plant_id=${theirPlant.id}`),
        404,
        'NOT_FOUND',
        /^Plant not found/,
      );
      expect(dataOf(await owner.get('/api/v1/sop-runs'), 200)).toEqual([]);
      for (const [query, error] of [
        ['status=done', /^status: /],
        ['sop_id=nope', /^sop_id: /],
        ['plant_id=1', /^plant_id: /],
      ] as const) {
        expectError(await owner.get(`/api/v1/sop-runs?${query}`), 422, 'VALIDATION_ERROR', error);
      }
      const guest = client(t, await lab.actor('guest'));
      dataOf(await guest.get('/api/v1/sop-runs'), 200);
    });
  });

  describe('completing a run with steps not done', () => {
    const requireAllSteps = async (on: boolean) =>
      dataOf(await owner.patch('/api/v1/lab-settings', { sop_runs_require_all_steps: on }), 200);

    it('completes a half-done run as the spec says (200), and the run lists the steps it ended without', async () => {
      const run = await startRun(owner, { sop_id: sops.first });
      expect(run).toMatchObject({
        stepCount: 3,
        incompleteSteps: ['step-1', 'step-2', 'step-3'],
        skippedSteps: [],
        statusDetail: 'in progress, 0 of 3 steps done',
      });
      await postEvent(owner, run.id, 'step-2');
      const done = dataOf(await complete(run.id, { outcome: 'completed', notes: 'done?' }), 200);
      expect(done).toMatchObject({
        status: 'completed',
        progress: 33.33,
        steps: [{ id: 'step-2', completed: true }],
        stepCount: 3,
        incompleteSteps: ['step-1', 'step-3'],
        statusDetail: 'completed with 2 of 3 steps not done',
        notes: 'done?',
      });
      expect(done.completedAt).not.toBeNull();
      expect(dataOf(await owner.get(`/api/v1/sop-runs/${run.id}`), 200)).toEqual({
        ...done,
        events: [expect.objectContaining({ stepKey: 'step-2' })],
      });
      expect(dataOf(await owner.get('/api/v1/sop-runs'), 200)).toEqual([done]);
      // The CSV says it in words too.
      const csv = await t.request({
        method: 'GET',
        url: '/api/v1/sop-runs',
        headers: { ...lab.owner.headers, accept: 'text/csv' },
      });
      expect(csv.statusCode).toBe(200);
      expect(csv.body).toContain('completed with 2 of 3 steps not done');
      // The flag earlier consoles sent is still accepted, and changes nothing.
      const flagged = await startRun(owner, { sop_id: sops.first });
      expect(
        dataOf(
          await complete(flagged.id, { outcome: 'completed', allow_incomplete_steps: false }),
          200,
        ).statusDetail,
      ).toBe('completed with 3 of 3 steps not done');
    });

    it('shows a skipped step as skipped, with its reason, never as done', async () => {
      const run = await startRun(owner, { sop_id: sops.first });
      await postEvent(owner, run.id, 'step-1');
      await postEvent(owner, run.id, 'step-2', {
        event_type: 'skipped',
        payload: { reason: 'Hood out of service' },
      });
      await postEvent(owner, run.id, 'step-2', {
        event_type: 'note',
        payload: { text: 'told Ana' },
      });
      await postEvent(owner, run.id, 'step-3', { event_type: 'skipped' });
      const done = dataOf(await complete(run.id, { outcome: 'completed' }), 200);
      expect(done).toMatchObject({
        incompleteSteps: [],
        skippedSteps: [
          { id: 'step-2', reason: 'Hood out of service' },
          { id: 'step-3', reason: null },
        ],
        statusDetail: 'completed with 2 of 3 steps skipped',
      });
      // Worked after a skip, the step is done.
      const later = await startRun(owner, { sop_id: sops.first });
      await postEvent(owner, later.id, 'step-1', { event_type: 'skipped' });
      await postEvent(owner, later.id, 'step-1');
      expect(dataOf(await owner.get(`/api/v1/sop-runs/${later.id}`), 200)).toMatchObject({
        skippedSteps: [],
        incompleteSteps: ['step-2', 'step-3'],
        statusDetail: 'in progress, 1 of 3 steps done',
      });
    });

    it('refuses it in a lab that requires every step (409 SOP_RUN_STEPS_INCOMPLETE naming the steps), changing nothing', async () => {
      expect(dataOf(await owner.get('/api/v1/lab-settings'), 200)).toMatchObject({
        sop_runs_require_all_steps: false,
      });
      expect(await requireAllSteps(true)).toMatchObject({ sop_runs_require_all_steps: true });
      const run = await startRun(owner, { sop_id: sops.first });
      await postEvent(owner, run.id, 'step-2');
      for (const flag of [{}, { allow_incomplete_steps: true }]) {
        expectError(
          await complete(run.id, { outcome: 'completed', notes: 'done?', ...flag }),
          409,
          'SOP_RUN_STEPS_INCOMPLETE',
          /^2 of 3 steps have no evidence \(step-1, step-3\); /,
        );
      }
      const read = dataOf(await owner.get(`/api/v1/sop-runs/${run.id}`), 200);
      expect(read).toMatchObject({ status: 'in_progress', completedAt: null, notes: null });
      // A skip with its reason is evidence; failing or cancelling is always possible.
      await postEvent(owner, run.id, 'step-1');
      await postEvent(owner, run.id, 'step-3', {
        event_type: 'skipped',
        payload: { reason: 'n/a' },
      });
      expect(dataOf(await complete(run.id, { outcome: 'completed' }), 200)).toMatchObject({
        status: 'completed',
        progress: 100,
      });
      for (const outcome of ['failed', 'cancelled']) {
        const open = await startRun(owner, { sop_id: sops.first });
        expect(dataOf(await complete(open.id, { outcome }), 200).status).toBe(outcome);
      }
      // Off again: the spec's complete.
      await requireAllSteps(false);
      const other = await startRun(owner, { sop_id: sops.first });
      expect(dataOf(await complete(other.id, { outcome: 'completed' }), 200).status).toBe(
        'completed',
      );
    });

    it('refuses a flag that is not a boolean with 422; an ended run still answers SOP_RUN_CLOSED first', async () => {
      const run = await startRun(owner, { sop_id: sops.first });
      for (const flag of ['true', 1, null]) {
        expectError(
          await complete(run.id, { outcome: 'completed', allow_incomplete_steps: flag }),
          422,
          'VALIDATION_ERROR',
          /^allow_incomplete_steps: /,
        );
      }
      dataOf(await complete(run.id, { outcome: 'failed' }), 200);
      expect(body(await complete(run.id, { outcome: 'completed' })).code).toBe('SOP_RUN_CLOSED');
    });
  });
});
