import { beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  client,
  dataOf,
  expectError,
  expectSameAnswer,
  GENEROUS_LIMITS,
  ISO_MS,
  keysOf,
  listAll,
  randomId,
} from '../support/helpers.js';
import {
  EVIDENCE_KEYS,
  importSops,
  postEvent,
  runRows,
  startRun,
  subcultureSop,
} from './sop-helpers.js';

describeOnDatabases('SOP run evidence', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });
  let ids: ReturnType<typeof subcultureSop>['ids'];
  let run: { id: string; updatedAt: string };
  beforeEach(async () => {
    const made = subcultureSop();
    ids = made.ids;
    await importSops(t.database, lab.workspaceId, [made.sop]);
    run = await startRun(owner, { sop_id: ids.sop });
  });

  const rows = () => runRows(t.database, lab.workspaceId);
  const eventsUrl = (stepId: string, runId = run.id) =>
    `/api/v1/sop-runs/${runId}/steps/${stepId}/events`;
  const measurementsUrl = (stepId: string, runId = run.id) =>
    `/api/v1/sop-runs/${runId}/steps/${stepId}/measurements`;
  const trail = (runId = run.id) => listAll(owner, `/api/v1/sop-runs/${runId}/events`);
  const reading = { metric: 'ph', value: 5.75, unit: 'pH' };

  describe('step events', () => {
    it('records each event type with its payload, in camelCase, and reads it back in the trail', async () => {
      const sent = [
        { event_type: 'confirmed', payload: { by: 'Maya', checks: [true, false] } },
        { event_type: 'scanned', payload: { barcode: 'TC-0001', nested: { a: { b: [1, 'x'] } } } },
        { event_type: 'skipped', payload: { reason: 'No vessels left' } },
        { event_type: 'note', payload: { text: 'Hood alarm at 10:02', empty: null, n: -0.5 } },
        { event_type: 'device_state', payload: { device: 'hood-1', on: true, rpm: 1200 } },
      ];
      const recorded = [];
      for (const fields of sent) {
        const res = await owner.post(eventsUrl('step-1'), fields);
        expect(res.statusCode).toBe(201);
        expect(res.headers['idempotent-replay']).toBe('false');
        const event = body(res).data;
        expect(keysOf(event)).toEqual(EVIDENCE_KEYS);
        expect(event).toMatchObject({
          runId: run.id,
          stepKey: 'step-1',
          eventType: fields.event_type,
          payload: fields.payload,
          recordedBy: lab.owner.memberId,
        });
        expect(event.recordedAt).toMatch(ISO_MS);
        expect(event.createdAt).toBe(event.recordedAt);
        recorded.push(event);
      }
      expect(await trail()).toEqual(recorded);
      const detail = dataOf(await owner.get(`/api/v1/sop-runs/${run.id}`), 200);
      expect(detail.events).toEqual(recorded);
      expect(detail.updatedAt).toBe(recorded.at(-1).createdAt);
    });

    it('defaults payload to {} and recordedAt to the time of receipt; keeps a sent recorded_at in UTC', async () => {
      const plain = await postEvent(owner, run.id, 'step-2', { event_type: 'confirmed' });
      expect(plain.payload).toEqual({});
      expect(plain.recordedAt).toBe(plain.createdAt);
      const dated = await postEvent(owner, run.id, 'step-2', {
        event_type: 'note',
        recorded_at: '2026-07-01T10:15:30+02:00',
      });
      expect(dated.recordedAt).toBe('2026-07-01T08:15:30.000Z');
      expect(dated.createdAt > dated.recordedAt).toBe(true);
    });

    it('computes progress and steps from the pinned steps that have evidence', async () => {
      await postEvent(owner, run.id, 'step-3');
      await postEvent(owner, run.id, 'step-1', { event_type: 'note' });
      await postEvent(owner, run.id, 'step-3', { event_type: 'confirmed' });
      const detail = dataOf(await owner.get(`/api/v1/sop-runs/${run.id}`), 200);
      expect(detail.progress).toBe(66.67);
      expect(detail.steps).toEqual([
        { id: 'step-1', completed: true },
        { id: 'step-3', completed: true },
      ]);
      await postEvent(owner, run.id, 'step-2', { event_type: 'skipped' });
      expect(dataOf(await owner.get(`/api/v1/sop-runs/${run.id}`), 200)).toMatchObject({
        progress: 100,
        steps: [1, 2, 3].map((n) => ({ id: `step-${n}`, completed: true })),
      });
    });

    it('answers a step that is not in the pinned version with 404, recording nothing', async () => {
      // step-4 is a step of the draft version 3, not of version 2 the run follows.
      for (const stepId of [
        'step-4',
        'STEP-1',
        'nope',
        'step-1 ',
        'x'.repeat(64),
        'x'.repeat(65),
        'x'.repeat(201),
      ]) {
        expectError(
          await owner.post(eventsUrl(encodeURIComponent(stepId)), { event_type: 'confirmed' }),
          404,
          'NOT_FOUND',
        );
        expectError(
          await owner.post(measurementsUrl(encodeURIComponent(stepId)), reading),
          404,
          'NOT_FOUND',
        );
      }
      expect((await rows()).events).toEqual([]);
      expect(await trail()).toEqual([]);
    });

    it('answers an unknown, malformed or foreign run with the same 404, recording nothing', async () => {
      const theirs = await createLab(t.database, { name: 'Theirs' });
      const their = subcultureSop();
      await importSops(t.database, theirs.workspaceId, [their.sop]);
      const theirRun = await startRun(client(t, theirs.owner), { sop_id: their.ids.sop });
      const event = { event_type: 'confirmed' };
      const eventRef = await owner.post(eventsUrl('step-1', randomId()), event);
      const measurementRef = await owner.post(measurementsUrl('step-1', randomId()), reading);
      for (const id of [theirRun.id, 'not-a-uuid']) {
        expectSameAnswer(
          await owner.post(eventsUrl('step-1', id), event),
          eventRef,
          404,
          'NOT_FOUND',
        );
        expectSameAnswer(
          await owner.post(measurementsUrl('step-1', id), reading),
          measurementRef,
          404,
          'NOT_FOUND',
        );
      }
      expect((await runRows(t.database, theirs.workspaceId)).events).toEqual([]);
    });

    it.each([
      ['no event_type', { payload: {} }, /^event_type: is required/],
      [
        'event_type measured',
        { event_type: 'measured' },
        /^event_type: must be one of: confirmed, scanned, skipped, note, device_state/,
      ],
      [
        'a payload that is not an object',
        { event_type: 'note', payload: 'text' },
        /^payload: must be object/,
      ],
      [
        'a payload that is an array',
        { event_type: 'note', payload: [1] },
        /^payload: must be object/,
      ],
      [
        'a payload nested too deep',
        { event_type: 'note', payload: { a: { b: { c: { d: { e: 1 } } } } } },
        /^payload\.a\.b\.c\.d: /,
      ],
      [
        'a payload over 10,000 bytes',
        { event_type: 'note', payload: { a: 'x'.repeat(6000), b: 'y'.repeat(6000) } },
        /^payload: must be at most 10000 bytes/,
      ],
      [
        'a payload string over 10,000',
        { event_type: 'note', payload: { a: 'x'.repeat(10_001) } },
        /^payload\.a: must be at most 10000 characters/,
      ],
      [
        'a recorded_at without a zone',
        { event_type: 'note', recorded_at: '2026-07-01T10:00:00' },
        /^recorded_at: must be an ISO 8601 timestamp with a time zone/,
      ],
      [
        'a date as recorded_at',
        { event_type: 'note', recorded_at: '2026-07-01' },
        /^recorded_at: /,
      ],
      ['an unknown field', { event_type: 'note', step_id: 'step-1' }, /unknown field "step_id"/],
    ])('refuses %s with 422 naming the field, recording nothing', async (_what, fields, error) => {
      expectError(await owner.post(eventsUrl('step-1'), fields), 422, 'VALIDATION_ERROR', error);
      expect((await rows()).events).toEqual([]);
    });

    it('accepts a payload four levels deep', async () => {
      const payload = { a: { b: { c: [1, 2] } }, d: [[['x']]] };
      expect(
        (await postEvent(owner, run.id, 'step-1', { event_type: 'note', payload })).payload,
      ).toEqual(payload);
    });

    it('replays the first response for a repeated Idempotency-Key, recording once', async () => {
      const headers = { 'idempotency-key': 'evidence-000001' };
      const fields = { event_type: 'confirmed', payload: { ok: true } };
      const first = await owner.post(eventsUrl('step-1'), fields, headers);
      const again = await owner.post(eventsUrl('step-1'), fields, headers);
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replay']).toBe('true');
      expect(body(again)).toEqual(body(first));
      expect(await trail()).toEqual([body(first).data]);
      // The same key for another step is another request: refused, not replayed.
      expectError(await owner.post(eventsUrl('step-2'), fields, headers), 422, 'VALIDATION_ERROR');
    });

    it('needs write:sop_steps and the member role; refusals record nothing', async () => {
      const viewer = client(t, await lab.actor('viewer'));
      expectError(await viewer.post(eventsUrl('step-1'), { event_type: 'note' }), 403, 'FORBIDDEN');
      expectError(await viewer.post(measurementsUrl('step-1'), reading), 403, 'FORBIDDEN');
      const narrow = client(t, await lab.actor('owner', { scopes: ['write:sop_runs'] }));
      expectError(
        await narrow.post(eventsUrl('step-1'), { event_type: 'note' }),
        403,
        'FORBIDDEN',
        /write:sop_steps/,
      );
      expectError(
        await narrow.post(measurementsUrl('step-1'), reading),
        403,
        'FORBIDDEN',
        /write:sop_steps/,
      );
      expect((await rows()).events).toEqual([]);
      // Any member may post evidence to a run someone else started.
      const member = client(t, await lab.actor('member'));
      expect((await postEvent(member, run.id, 'step-1')).recordedBy).not.toBe(lab.owner.memberId);
    });

    it('is append-only: no operation edits or deletes evidence', async () => {
      const event = await postEvent(owner, run.id, 'step-1');
      for (const method of ['PATCH', 'PUT', 'DELETE'] as const) {
        for (const url of [
          eventsUrl('step-1'),
          `/api/v1/sop-runs/${run.id}/events`,
          `/api/v1/sop-runs/${run.id}/events/${event.id}`,
        ]) {
          const res = await t.request({ method, url, headers: lab.owner.headers, payload: {} });
          expect([404, 405], `${method} ${url}`).toContain(res.statusCode);
        }
      }
      expect(await trail()).toEqual([event]);
    });
  });

  describe('measurements', () => {
    it('join the trail as measured with payload {metric, value, unit, notes?}', async () => {
      const res = await owner.post(measurementsUrl('step-2'), {
        ...reading,
        notes: 'After KOH',
        recorded_at: '2026-07-01T09:00:00-05:00',
      });
      expect(res.statusCode).toBe(201);
      expect(res.headers['idempotent-replay']).toBe('false');
      const measured = body(res).data;
      expect(keysOf(measured)).toEqual(EVIDENCE_KEYS);
      expect(measured).toMatchObject({
        runId: run.id,
        stepKey: 'step-2',
        eventType: 'measured',
        recordedAt: '2026-07-01T14:00:00.000Z',
        payload: { metric: 'ph', value: 5.75, unit: 'pH', notes: 'After KOH' },
      });
      const plain = dataOf(await owner.post(measurementsUrl('step-2'), reading), 201);
      expect(plain.payload).toEqual(reading);
      expect(Object.keys(plain.payload)).toEqual(['metric', 'value', 'unit']);
      expect(plain.recordedAt).toBe(plain.createdAt);
      expect(await trail()).toEqual([measured, plain]);
      expect(dataOf(await owner.get(`/api/v1/sop-runs/${run.id}`), 200)).toMatchObject({
        progress: 33.33,
        steps: [{ id: 'step-2', completed: true }],
      });
    });

    it('keeps any finite value, the largest and the smallest included', async () => {
      for (const value of [0, -40, 1e-300, Number.MAX_VALUE, -Number.MAX_VALUE, 123456789.125]) {
        const measured = dataOf(
          await owner.post(measurementsUrl('step-1'), { metric: 'mass', value, unit: 'g' }),
          201,
        );
        expect(measured.payload.value).toBe(value);
      }
      expect((await trail()).map((e) => e.payload.value)).toHaveLength(6);
    });

    it.each([
      ['no unit', { metric: 'ph', value: 5.7 }],
      ['an empty unit', { ...{ metric: 'ph', value: 5.7 }, unit: '' }],
      ['a unit of 21', { metric: 'ph', value: 5.7, unit: 'u'.repeat(21) }],
      ['no metric', { value: 5.7, unit: 'pH' }],
      ['a metric of 61', { metric: 'm'.repeat(61), value: 5.7, unit: 'pH' }],
      ['a numeric string value', { metric: 'ph', value: '5.7', unit: 'pH' }],
      ['a null value', { metric: 'ph', value: null, unit: 'pH' }],
      ['no value', { metric: 'ph', unit: 'pH' }],
      [
        'a recorded_at without a zone',
        { metric: 'ph', value: 5.7, unit: 'pH', recorded_at: '2026-07-01T10:00:00' },
      ],
      ['notes of 501', { metric: 'ph', value: 5.7, unit: 'pH', notes: 'n'.repeat(501) }],
      ['an unknown field', { metric: 'ph', value: 5.7, unit: 'pH', payload: {} }],
      ['a NUL in the unit', { metric: 'ph', value: 5.7, unit: 'p\u0000H' }],
    ])('refuses %s with a 422 that does not name the field', async (_what, fields) => {
      const res = await owner.post(measurementsUrl('step-1'), fields);
      expectError(res, 422, 'VALIDATION_ERROR');
      const error: string = body(res).error;
      expect(error).not.toMatch(/metric|unit|recorded_at|notes|payload|value:/);
      expect(error).not.toMatch(/^\w+:/);
      expect((await rows()).events).toEqual([]);
    });

    it('refuses a value that is not finite (1e400) without naming the field', async () => {
      const res = await t.request({
        method: 'POST',
        url: measurementsUrl('step-1'),
        headers: { ...lab.owner.headers, 'content-type': 'application/json' },
        payload: '{"metric":"ph","value":1e400,"unit":"pH"}',
      });
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(body(res).error).not.toMatch(/value:|metric|unit/);
      expect((await rows()).events).toEqual([]);
    });

    it('answers a body that is not JSON with 400 and a malformed Idempotency-Key with 422, recording nothing', async () => {
      for (const payload of ['{"metric":"ph","value":5.7,', 'metric=ph']) {
        const res = await t.request({
          method: 'POST',
          url: measurementsUrl('step-1'),
          headers: { ...lab.owner.headers, 'content-type': 'application/json' },
          payload,
        });
        expectError(res, 400, 'VALIDATION_ERROR');
      }
      for (const key of ['short', 'has space-0001', 'k'.repeat(256), 'bang!-00001']) {
        const res = await owner.post(measurementsUrl('step-1'), reading, {
          'idempotency-key': key,
        });
        expectError(res, 422, 'VALIDATION_ERROR', /^Idempotency-Key: /);
        expect(body(res).error).not.toMatch(/metric|unit|value|recorded_at|notes/);
      }
      expect((await rows()).events).toEqual([]);
    });

    it('answers 404 for any step of a run whose version has no steps, recording nothing', async () => {
      const bare = {
        id: newId(),
        title: 'Checklist without steps',
        versions: [{ id: newId(), version: 1, lifecycle_status: 'effective', steps: [] }],
      };
      await importSops(t.database, lab.workspaceId, [bare]);
      const empty = await startRun(owner, { sop_id: bare.id });
      expect(empty).toMatchObject({ version: 1, progress: 0, steps: [] });
      for (const stepId of ['step-1', 'step-2', '0']) {
        expectError(
          await owner.post(measurementsUrl(stepId, empty.id), reading),
          404,
          'NOT_FOUND',
          /^Step not found/,
        );
        expectError(
          await owner.post(eventsUrl(stepId, empty.id), { event_type: 'confirmed' }),
          404,
          'NOT_FOUND',
          /^Step not found/,
        );
      }
      expect((await rows()).events).toEqual([]);
      expect(dataOf(await owner.get(`/api/v1/sop-runs/${empty.id}`), 200)).toMatchObject({
        progress: 0,
        steps: [],
        events: [],
      });
    });

    it('replays the first response for a repeated Idempotency-Key, recording once', async () => {
      const headers = { 'idempotency-key': 'measurement-0001' };
      const first = await owner.post(measurementsUrl('step-1'), reading, headers);
      const again = await owner.post(measurementsUrl('step-1'), reading, headers);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replay']).toBe('true');
      expect(body(again)).toEqual(body(first));
      expect(await trail()).toHaveLength(1);
    });
  });

  describe('closed runs', () => {
    it.each(['completed', 'failed', 'cancelled', 'archived'])(
      'refuse evidence and measurements once %s, recording nothing',
      async (status) => {
        await postEvent(owner, run.id, 'step-1');
        if (status === 'archived') {
          // No operation archives a run; the app does.
          await t.database.db
            .updateTable('sop_runs')
            .set({ status })
            .where('id', '=', run.id)
            .execute();
        } else {
          // Steps 2 and 3 have no evidence: completing says so explicitly.
          dataOf(
            await owner.post(`/api/v1/sop-runs/${run.id}/complete`, {
              outcome: status,
              allow_incomplete_steps: true,
            }),
            200,
          );
        }
        const before = await rows();
        expectError(
          await owner.post(eventsUrl('step-2'), { event_type: 'confirmed' }),
          409,
          'SOP_RUN_CLOSED',
          new RegExp(status),
        );
        expectError(await owner.post(measurementsUrl('step-2'), reading), 409, 'SOP_RUN_CLOSED');
        // A step of another version is still a 404: the address names nothing.
        expectError(
          await owner.post(eventsUrl('step-4'), { event_type: 'note' }),
          404,
          'NOT_FOUND',
        );
        expect(await rows()).toEqual(before);
        expect(await trail()).toHaveLength(1);
      },
    );
  });

  describe('the trail', () => {
    it('embeds the first 50 in GET /sop-runs/{id} with meta.events_next_cursor, and pages the rest oldest first', async () => {
      const posted: { id: string }[] = [];
      for (let i = 0; i < 120; i++) {
        // recorded_at goes backwards: the trail keeps the order evidence was recorded in.
        const recordedAt = new Date(Date.UTC(2026, 6, 1) - i * 60_000).toISOString();
        const url = i % 3 === 2 ? measurementsUrl('step-2') : eventsUrl(`step-${(i % 3) + 1}`);
        const fields =
          i % 3 === 2
            ? { metric: 'temperature', value: 20 + i / 10, unit: '°C', recorded_at: recordedAt }
            : { event_type: 'note', payload: { i }, recorded_at: recordedAt };
        posted.push(dataOf(await owner.post(url, fields), 201));
      }
      const res = await owner.get(`/api/v1/sop-runs/${run.id}`);
      const detail = dataOf(res, 200);
      expect(detail.events.map((e: { id: string }) => e.id)).toEqual(
        posted.slice(0, 50).map((e) => e.id),
      );
      const cursor: string = body(res).meta.events_next_cursor;
      expect(cursor).toEqual(expect.any(String));
      expect(detail).toMatchObject({ progress: 66.67 });

      const next = await owner.get(
        `/api/v1/sop-runs/${run.id}/events?cursor=${encodeURIComponent(cursor)}&limit=200`,
      );
      expect(dataOf(next, 200).map((e: { id: string }) => e.id)).toEqual(
        posted.slice(50).map((e) => e.id),
      );
      expect(body(next).meta).toEqual({ next_cursor: null });

      const all = await listAll(owner, `/api/v1/sop-runs/${run.id}/events`, 7);
      expect(all).toEqual(posted);
      const firstPage = await owner.get(`/api/v1/sop-runs/${run.id}/events`);
      expect(dataOf(firstPage, 200)).toEqual(posted.slice(0, 50));
      expect(
        dataOf(await owner.get(`/api/v1/sop-runs/${run.id}/events?offset=110&limit=20`), 200),
      ).toEqual(posted.slice(110));
      expectError(
        await owner.get(
          `/api/v1/sop-runs/${run.id}/events?cursor=${encodeURIComponent(cursor)}&offset=1`,
        ),
        422,
        'VALIDATION_ERROR',
      );

      // A cursor belongs to its run: another run's list refuses it.
      const other = await startRun(owner, { sop_id: ids.sop });
      await postEvent(owner, other.id, 'step-1');
      expectError(
        await owner.get(`/api/v1/sop-runs/${other.id}/events?cursor=${encodeURIComponent(cursor)}`),
        422,
        'INVALID_CURSOR',
      );
      expectError(
        await owner.get(
          `/api/v1/sop-runs/${run.id}/events?cursor=${encodeURIComponent(body(await owner.get('/api/v1/sops?limit=1')).meta.next_cursor ?? 'x.y')}`,
        ),
        422,
        'INVALID_CURSOR',
      );
    });

    it('sends events_next_cursor null with 50 pieces of evidence or fewer', async () => {
      for (let i = 0; i < 50; i++) await postEvent(owner, run.id, 'step-1');
      const res = await owner.get(`/api/v1/sop-runs/${run.id}`);
      expect(dataOf(res, 200).events).toHaveLength(50);
      // Always present, as the product's reference documents it.
      expect(body(res).meta).toEqual({ events_next_cursor: null });
      await postEvent(owner, run.id, 'step-2');
      const more = await owner.get(`/api/v1/sop-runs/${run.id}`);
      expect(dataOf(more, 200).events).toHaveLength(50);
      const rest = await owner.get(
        `/api/v1/sop-runs/${run.id}/events?cursor=${encodeURIComponent(body(more).meta.events_next_cursor)}`,
      );
      expect(dataOf(rest, 200).map((e: { stepKey: string }) => e.stepKey)).toEqual(['step-2']);
    });
  });
});
