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
        ['run=1', /unknown/],
      ] as const) {
        expectError(await owner.get(`/api/v1/sop-runs?${query}`), 422, 'VALIDATION_ERROR', error);
      }
      const guest = client(t, await lab.actor('guest'));
      dataOf(await guest.get('/api/v1/sop-runs'), 200);
    });
  });

  describe('completing a run with steps not done', () => {
    it('refuses it without the flag (409 SOP_RUN_STEPS_INCOMPLETE naming the steps), changing nothing', async () => {
      const run = await startRun(owner, { sop_id: sops.first });
      await postEvent(owner, run.id, 'step-2');
      const refused = await complete(run.id, { outcome: 'completed', notes: 'done?' });
      expectError(
        refused,
        409,
        'SOP_RUN_STEPS_INCOMPLETE',
        /^2 of 3 steps have no evidence \(step-1, step-3\); .*allow_incomplete_steps: true/,
      );
      const read = dataOf(await owner.get(`/api/v1/sop-runs/${run.id}`), 200);
      expect(read).toMatchObject({ status: 'in_progress', completedAt: null, notes: null });
      // Explicitly: completed, and the progress says how much was done.
      const forced = dataOf(
        await complete(run.id, { outcome: 'completed', allow_incomplete_steps: true }),
        200,
      );
      expect(forced).toMatchObject({ status: 'completed', progress: 33.33 });
      expect(forced.completedAt).not.toBeNull();
    });

    it('completes a run whose every step has evidence without the flag; fails or cancels any run', async () => {
      const run = await startRun(owner, { sop_id: sops.first });
      for (const step of ['step-1', 'step-2']) await postEvent(owner, run.id, step);
      await postEvent(owner, run.id, 'step-3', { event_type: 'skipped' });
      expect(dataOf(await complete(run.id, { outcome: 'completed' }), 200)).toMatchObject({
        status: 'completed',
        progress: 100,
      });
      for (const outcome of ['failed', 'cancelled']) {
        const open = await startRun(owner, { sop_id: sops.first });
        expect(dataOf(await complete(open.id, { outcome }), 200).status).toBe(outcome);
      }
      // A flag of false is no flag.
      const other = await startRun(owner, { sop_id: sops.first });
      expectError(
        await complete(other.id, { outcome: 'completed', allow_incomplete_steps: false }),
        409,
        'SOP_RUN_STEPS_INCOMPLETE',
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
