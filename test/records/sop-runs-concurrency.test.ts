import type { LightMyRequestResponse } from 'fastify';
import { beforeEach, expect, it } from 'vitest';
import { body } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { client, dataOf, GENEROUS_LIMITS, listAll } from '../support/helpers.js';
import { importSops, startRun, subcultureSop } from './sop-helpers.js';

const outcomesOf = (responses: LightMyRequestResponse[]) =>
  responses.map((r) =>
    r.statusCode < 300 ? String(r.statusCode) : `${r.statusCode} ${body(r).code}`,
  );

describeOnDatabases('Concurrent SOP run writes', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });
  let sopId: string;
  beforeEach(async () => {
    const { ids, sop } = subcultureSop();
    sopId = ids.sop;
    await importSops(t.database, lab.workspaceId, [sop]);
  });

  const sequences = (runId: string) =>
    t.database.db
      .selectFrom('sop_step_events')
      .select(['id', 'seq'])
      .where('run_id', '=', runId)
      .orderBy('seq')
      .execute();

  it('numbers concurrent evidence on one run in one stable order, whatever its recorded_at', async () => {
    const runs = await Promise.all([
      startRun(owner, { sop_id: sopId }),
      startRun(owner, { sop_id: sopId }),
    ]);
    const member = client(t, await lab.actor('member'));
    const sameMoment = '2026-07-01T08:00:00.000Z';
    const responses = await Promise.all(
      runs.flatMap((run) =>
        Array.from({ length: 24 }, (_, i) => {
          const by = i % 2 === 0 ? owner : member;
          const step = `step-${(i % 3) + 1}`;
          return i % 4 === 3
            ? by.post(`/api/v1/sop-runs/${run.id}/steps/${step}/measurements`, {
                metric: 'temperature',
                value: i,
                unit: '°C',
                recorded_at: sameMoment,
              })
            : by.post(`/api/v1/sop-runs/${run.id}/steps/${step}/events`, {
                event_type: 'confirmed',
                payload: { i },
                recorded_at: sameMoment,
              });
        }),
      ),
    );
    expect(new Set(outcomesOf(responses))).toEqual(new Set(['201']));
    for (const run of runs) {
      const accepted = responses
        .map((r) => body(r).data)
        .filter((e: { runId: string }) => e.runId === run.id);
      const stored = await sequences(run.id);
      // One number each, 1..24 with no gap and no repeat.
      expect(stored.map((row) => Number(row.seq))).toEqual(
        Array.from({ length: 24 }, (_, i) => i + 1),
      );
      const trail = await listAll(owner, `/api/v1/sop-runs/${run.id}/events`);
      expect(trail.map((e) => e.id)).toEqual(stored.map((row) => row.id));
      expect(trail.map((e) => e.id).sort()).toEqual(
        accepted.map((e: { id: string }) => e.id).sort(),
      );
      // Every page size walks the same order, none skipped or repeated.
      for (const limit of [1, 5, 7]) {
        const paged = await listAll(owner, `/api/v1/sop-runs/${run.id}/events`, limit);
        expect(paged.map((e) => e.id)).toEqual(trail.map((e) => e.id));
      }
      const detail = dataOf(await owner.get(`/api/v1/sop-runs/${run.id}`), 200);
      expect(detail.events).toEqual(trail);
      expect(detail.progress).toBe(100);
    }
  });

  it('closes a run once when closed concurrently; the others answer SOP_RUN_CLOSED', async () => {
    const run = await startRun(owner, { sop_id: sopId });
    const manager = client(t, await lab.actor('manager'));
    const responses = await Promise.all(
      ['completed', 'failed', 'cancelled', 'completed', 'failed', 'cancelled'].map((outcome, i) =>
        (i % 2 === 0 ? owner : manager).post(`/api/v1/sop-runs/${run.id}/complete`, {
          outcome,
          allow_incomplete_steps: true,
        }),
      ),
    );
    const outcomes = outcomesOf(responses);
    expect(outcomes.filter((o) => o === '200')).toHaveLength(1);
    expect(outcomes.filter((o) => o === '409 SOP_RUN_CLOSED')).toHaveLength(5);
    const winner = body(responses.find((r) => r.statusCode === 200)!).data;
    expect(dataOf(await owner.get(`/api/v1/sop-runs/${run.id}`), 200)).toEqual({
      ...winner,
      events: [],
    });
  });

  it('records no evidence that races a close and loses', async () => {
    const run = await startRun(owner, { sop_id: sopId });
    const evidence = Array.from({ length: 20 }, (_, i) =>
      owner.post(`/api/v1/sop-runs/${run.id}/steps/step-${(i % 3) + 1}/events`, {
        event_type: 'confirmed',
      }),
    );
    // The evidence may land after the close: completing says steps may be left.
    const close = owner.post(`/api/v1/sop-runs/${run.id}/complete`, {
      outcome: 'completed',
      allow_incomplete_steps: true,
    });
    const [closed, ...responses] = await Promise.all([close, ...evidence]);
    expect(closed.statusCode).toBe(200);
    const outcomes = outcomesOf(responses);
    expect(outcomes.every((o) => o === '201' || o === '409 SOP_RUN_CLOSED')).toBe(true);
    const accepted = responses.filter((r) => r.statusCode === 201).map((r) => body(r).data.id);
    const trail = await listAll(owner, `/api/v1/sop-runs/${run.id}/events`);
    expect(trail.map((e) => e.id).sort()).toEqual([...accepted].sort());
    // What the close answered is what the run kept: nothing joined it afterwards.
    const steps = new Set(trail.map((e) => e.stepKey));
    expect(body(closed).data.steps.map((s: { id: string }) => s.id)).toEqual(
      ['step-1', 'step-2', 'step-3'].filter((s) => steps.has(s)),
    );
    const stored = await sequences(run.id);
    expect(stored.map((row) => Number(row.seq))).toEqual(stored.map((_, i) => i + 1));
  });
});
