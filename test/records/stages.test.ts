import { describe, expect, it } from 'vitest';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  addRoom,
  eventsOf,
  expectError,
  expectSameAnswer,
  ISO_MS,
  keysOf,
  newExplant,
  newPlant,
  randomId,
  stagesOf,
} from '../support/helpers.js';

const STAGE_KEYS = [
  'completed_at',
  'created_at',
  'entered_on',
  'entity_id',
  'entity_type',
  'id',
  'notes',
  'room_id',
  'stage',
  'status',
];

describeOnDatabases('Stage moves', (target) => {
  const { t, lab, owner } = labSuite(target);

  it('moves a plant: closes the current stage, opens the new one, records a stage_change event', async () => {
    const plant = await newPlant(owner);
    const [initial] = await stagesOf(owner, 'plant', plant.id);
    const res = await owner.post('/api/v1/stages', {
      plant_id: plant.id,
      stage: 'production',
      notes: 'bench 4',
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replay']).toBe('false');
    const moved = body(res);
    expect(keysOf(moved.data)).toEqual(STAGE_KEYS);
    expect(moved.data).toMatchObject({
      entity_type: 'plant',
      entity_id: plant.id,
      stage: 'production',
      status: 'active',
      completed_at: null,
      room_id: null,
      notes: 'bench 4',
    });
    expect(moved.data.entered_on).toMatch(ISO_MS);
    expect(moved.data.created_at).toMatch(ISO_MS);
    expect(moved.meta).toEqual({ previous_stage_id: initial.id });

    const stages = await stagesOf(owner, 'plant', plant.id);
    expect(stages.map((s) => [s.id, s.stage, s.status])).toEqual([
      [moved.data.id, 'production', 'active'],
      [initial.id, 'mother_block', 'completed'],
    ]);
    expect(stages[0]).toEqual(moved.data);
    expect(stages[1].completed_at).toBe(moved.data.entered_on);

    const events = await eventsOf(owner, 'plant');
    expect(events.map((e) => e.event_type)).toEqual(['created', 'stage_change']);
    expect(events[1]).toMatchObject({
      entity_type: 'plant',
      entity_id: plant.id,
      stage_id: moved.data.id,
      event_time: moved.data.entered_on,
      recorded_by: lab.owner.memberId,
      payload: {
        stage: 'production',
        previous_stage_id: initial.id,
        previous_stage: 'mother_block',
      },
    });
  });

  it('moves an explant along the explant list; its first move has no previous stage', async () => {
    const explant = await newExplant(owner);
    // The spec's explant has no stage until one is posted.
    expect(explant.current_stage).toBeNull();
    expect(await stagesOf(owner, 'explant', explant.id)).toEqual([]);
    const first = await owner.post('/api/v1/stages', {
      explant_id: explant.id,
      stage: 'initiation',
    });
    expect(first.statusCode).toBe(201);
    expect(body(first).meta).toEqual({ previous_stage_id: null });
    expect(body(first).data).toMatchObject({
      entity_type: 'explant',
      entity_id: explant.id,
      stage: 'initiation',
    });
    const second = await owner.post('/api/v1/stages', {
      explant_id: explant.id,
      stage: 'Root Induction',
    });
    expect(body(second).data.stage).toBe('root_induction');
    expect(body(second).meta).toEqual({ previous_stage_id: body(first).data.id });
    const stages = await stagesOf(owner, 'explant', explant.id);
    expect(stages.map((s) => [s.stage, s.status])).toEqual([
      ['root_induction', 'active'],
      ['initiation', 'completed'],
    ]);
    expect((await eventsOf(owner, 'explant')).map((e) => e.event_type)).toEqual([
      'created',
      'stage_change',
      'stage_change',
    ]);
  });

  it('accepts a display name and saves its key', async () => {
    const plant = await newPlant(owner);
    for (const [sent, saved] of [
      ['Cold Storage', 'cold_storage'],
      ['hardening off', 'hardening_off'],
      ['GREENHOUSE', 'greenhouse'],
    ]) {
      const res = await owner.post('/api/v1/stages', { plant_id: plant.id, stage: sent });
      expect(body(res).data.stage).toBe(saved);
    }
    expect((await stagesOf(owner, 'plant', plant.id)).map((s) => s.stage)).toEqual([
      'greenhouse',
      'hardening_off',
      'cold_storage',
      'mother_block',
    ]);
  });

  it('refuses a stage outside the list of the kind moved (422 "stage:"), changing nothing', async () => {
    const plant = await newPlant(owner);
    const explant = await newExplant(owner);
    await owner.post('/api/v1/stages', { explant_id: explant.id, stage: 'initiation' });
    const plantStages = await stagesOf(owner, 'plant', plant.id);
    const explantStages = await stagesOf(owner, 'explant', explant.id);
    const plantEvents = await eventsOf(owner, 'plant');
    const explantEvents = await eventsOf(owner, 'explant');

    for (const [payload, kind] of [
      [{ plant_id: plant.id, stage: 'multiplication' }, 'plant'],
      [{ plant_id: plant.id, stage: 'Root Induction' }, 'plant'],
      [{ plant_id: plant.id, stage: 'flowering' }, 'plant'],
      [{ explant_id: explant.id, stage: 'mother_block' }, 'explant'],
      [{ explant_id: explant.id, stage: 'Production' }, 'explant'],
    ] as const) {
      const res = await owner.post('/api/v1/stages', payload);
      expectError(res, 422, 'VALIDATION_ERROR', /^stage:/);
      expect(body(res).error).toContain(kind);
    }
    expect(await stagesOf(owner, 'plant', plant.id)).toEqual(plantStages);
    expect(await stagesOf(owner, 'explant', explant.id)).toEqual(explantStages);
    expect(await eventsOf(owner, 'plant')).toEqual(plantEvents);
    expect(await eventsOf(owner, 'explant')).toEqual(explantEvents);
  });

  it('refuses neither or both of plant_id and explant_id with 422', async () => {
    const plant = await newPlant(owner);
    const explant = await newExplant(owner);
    expectError(
      await owner.post('/api/v1/stages', { stage: 'production' }),
      422,
      'VALIDATION_ERROR',
    );
    expectError(
      await owner.post('/api/v1/stages', {
        plant_id: plant.id,
        explant_id: explant.id,
        stage: 'production',
      }),
      422,
      'VALIDATION_ERROR',
    );
    expectError(await owner.get('/api/v1/stages'), 422, 'VALIDATION_ERROR');
    expectError(
      await owner.get(`/api/v1/stages?plant_id=${plant.id}&explant_id=${explant.id}`),
      422,
      'VALIDATION_ERROR',
    );
    expect(await stagesOf(owner, 'plant', plant.id)).toHaveLength(1);
    expect(await stagesOf(owner, 'explant', explant.id)).toEqual([]);
  });

  it('refuses invalid fields: stage length, notes length, entered_on without a zone, unknown fields', async () => {
    const plant = await newPlant(owner);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ stage: '' }, /^stage:/],
      [{ stage: 'x'.repeat(51) }, /^stage:/],
      [{ stage: 'production', notes: 'n'.repeat(5001) }, /^notes:/],
      [{ stage: 'production', entered_on: '2026-03-01T10:00:00' }, /^entered_on:/],
      [{ stage: 'production', entered_on: '2026-02-31' }, /^entered_on:/],
      [{ stage: 'production', entered_on: 'yesterday' }, /^entered_on:/],
      [{ stage: 'production', room_id: 'room-1' }, /^room_id:/],
      [{ stage: 'production', status: 'active' }, /status/],
    ];
    for (const [payload, error] of cases) {
      expectError(
        await owner.post('/api/v1/stages', { plant_id: plant.id, ...payload }),
        422,
        'VALIDATION_ERROR',
        error,
      );
    }
    expect(await stagesOf(owner, 'plant', plant.id)).toHaveLength(1);
    const ok = await owner.post('/api/v1/stages', {
      plant_id: plant.id,
      stage: 'production',
      notes: 'n'.repeat(5000),
    });
    expect(ok.statusCode).toBe(201);
  });

  it('takes entered_on as a date or a zoned timestamp, normalised to UTC', async () => {
    const plant = await newPlant(owner);
    const date = await owner.post('/api/v1/stages', {
      plant_id: plant.id,
      stage: 'production',
      entered_on: '2099-01-05',
    });
    expect(body(date).data.entered_on).toBe('2099-01-05T00:00:00.000Z');
    const zoned = await owner.post('/api/v1/stages', {
      plant_id: plant.id,
      stage: 'greenhouse',
      entered_on: '2099-01-06T12:30:00+02:00',
    });
    expect(body(zoned).data.entered_on).toBe('2099-01-06T10:30:00.000Z');
  });

  describe('room_id', () => {
    it('records a room of the workspace', async () => {
      const plant = await newPlant(owner);
      const room = await addRoom(t.database, lab.workspaceId);
      const res = await owner.post('/api/v1/stages', {
        plant_id: plant.id,
        stage: 'production',
        room_id: room,
      });
      expect(body(res).data.room_id).toBe(room);
      expect((await stagesOf(owner, 'plant', plant.id))[0].room_id).toBe(room);
    });

    it('answers a room outside the workspace with 404, as for an unknown room, changing nothing', async () => {
      const plant = await newPlant(owner);
      const otherLab = await createLab(t.database);
      const foreignRoom = await addRoom(t.database, otherLab.workspaceId);
      const before = await stagesOf(owner, 'plant', plant.id);
      const foreign = await owner.post('/api/v1/stages', {
        plant_id: plant.id,
        stage: 'production',
        room_id: foreignRoom,
      });
      const unknown = await owner.post('/api/v1/stages', {
        plant_id: plant.id,
        stage: 'production',
        room_id: randomId(),
      });
      expectSameAnswer(foreign, unknown, 404, 'NOT_FOUND');
      expect(await stagesOf(owner, 'plant', plant.id)).toEqual(before);
      expect((await eventsOf(owner, 'plant')).map((e) => e.event_type)).toEqual(['created']);
    });
  });

  it('answers an unknown plant or explant with 404', async () => {
    expectError(
      await owner.post('/api/v1/stages', { plant_id: randomId(), stage: 'production' }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await owner.post('/api/v1/stages', { explant_id: randomId(), stage: 'initiation' }),
      404,
      'NOT_FOUND',
    );
    const plant = await newPlant(owner);
    // A plant's id is no explant's.
    expectError(
      await owner.post('/api/v1/stages', { explant_id: plant.id, stage: 'initiation' }),
      404,
      'NOT_FOUND',
    );
    expectError(await owner.get(`/api/v1/stages?explant_id=${plant.id}`), 404, 'NOT_FOUND');
    expectError(await owner.get(`/api/v1/stages?plant_id=${randomId()}`), 404, 'NOT_FOUND');
  });

  it('without an Idempotency-Key, a repeat opens a new stage and closes the first', async () => {
    const plant = await newPlant(owner);
    const payload = { plant_id: plant.id, stage: 'production', entered_on: '2099-02-01' };
    const first = body(await owner.post('/api/v1/stages', payload));
    const second = body(await owner.post('/api/v1/stages', payload));
    expect(second.data.id).not.toBe(first.data.id);
    expect(second.meta).toEqual({ previous_stage_id: first.data.id });
    const stages = await stagesOf(owner, 'plant', plant.id);
    expect(stages.map((s) => [s.id, s.status, s.completed_at])).toEqual([
      [second.data.id, 'active', null],
      [first.data.id, 'completed', '2099-02-01T00:00:00.000Z'],
      [stages[2].id, 'completed', '2099-02-01T00:00:00.000Z'],
    ]);
    expect(
      (await eventsOf(owner, 'plant')).filter((e) => e.event_type === 'stage_change'),
    ).toHaveLength(2);
  });

  it('with an Idempotency-Key, a repeat replays the first answer and moves nothing', async () => {
    const plant = await newPlant(owner);
    const headers = { 'idempotency-key': 'move:plant:0001' };
    const payload = { plant_id: plant.id, stage: 'production' };
    const first = await owner.post('/api/v1/stages', payload, headers);
    const replay = await owner.post('/api/v1/stages', payload, headers);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replay']).toBe('false');
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replay']).toBe('true');
    expect(body(replay)).toEqual(body(first));
    expect(await stagesOf(owner, 'plant', plant.id)).toHaveLength(2);
    expect(
      (await eventsOf(owner, 'plant')).filter((e) => e.event_type === 'stage_change'),
    ).toHaveLength(1);

    const reused = await owner.post('/api/v1/stages', { ...payload, stage: 'greenhouse' }, headers);
    expectError(reused, 422, 'VALIDATION_ERROR');
    expect(await stagesOf(owner, 'plant', plant.id)).toHaveLength(2);

    const malformed = await owner.post('/api/v1/stages', payload, { 'idempotency-key': 'short' });
    expectError(malformed, 422, 'VALIDATION_ERROR');
    expect(await stagesOf(owner, 'plant', plant.id)).toHaveLength(2);
  });

  describe('back-dated moves (decision 12)', () => {
    it('saves a move dated before the current stage into history, leaving the current stage', async () => {
      const plant = await newPlant(owner);
      const [initial] = await stagesOf(owner, 'plant', plant.id);
      const current = body(
        await owner.post('/api/v1/stages', {
          plant_id: plant.id,
          stage: 'production',
          entered_on: '2099-03-10',
        }),
      );
      const res = await owner.post('/api/v1/stages', {
        plant_id: plant.id,
        stage: 'quarantine',
        entered_on: '2099-03-01',
      });
      expect(res.statusCode).toBe(201);
      const backdated = body(res);
      expect(backdated.data).toMatchObject({
        stage: 'quarantine',
        status: 'completed',
        entered_on: '2099-03-01T00:00:00.000Z',
        completed_at: '2099-03-10T00:00:00.000Z',
      });
      // previous_stage_id on every success, null when nothing was closed.
      expect(backdated.meta).toEqual({ previous_stage_id: null, warning: expect.any(String) });

      // Earlier than everything: closed by the next later stage, the initial one.
      const earliest = body(
        await owner.post('/api/v1/stages', {
          plant_id: plant.id,
          stage: 'field',
          entered_on: '2001-01-01',
        }),
      );
      expect(earliest.data).toMatchObject({
        status: 'completed',
        completed_at: initial.entered_on,
      });
      expect(earliest.meta.warning).toEqual(expect.any(String));

      const stages = await stagesOf(owner, 'plant', plant.id);
      expect(stages.map((s) => [s.id, s.status])).toEqual([
        [current.data.id, 'active'],
        [backdated.data.id, 'completed'],
        [initial.id, 'completed'],
        [earliest.data.id, 'completed'],
      ]);
      expect(stages[0].completed_at).toBeNull();

      const moves = (await eventsOf(owner, 'plant')).filter((e) => e.event_type === 'stage_change');
      expect(moves.map((e) => e.stage_id)).toEqual([
        current.data.id,
        backdated.data.id,
        earliest.data.id,
      ]);
      expect(moves[1].payload).toMatchObject({ status: 'completed', previous_stage_id: null });
      expect(moves[1].event_time).toBe('2099-03-01T00:00:00.000Z');

      // The next move still closes the current stage, not a back-dated one.
      const next = body(
        await owner.post('/api/v1/stages', {
          plant_id: plant.id,
          stage: 'greenhouse',
          entered_on: '2099-04-01',
        }),
      );
      expect(next.meta).toEqual({ previous_stage_id: current.data.id });
    });
  });

  it('lists stages newest first by entered_on, not by when they were recorded', async () => {
    const plant = await newPlant(owner);
    await owner.post('/api/v1/stages', {
      plant_id: plant.id,
      stage: 'greenhouse',
      entered_on: '2099-05-01',
    });
    await owner.post('/api/v1/stages', {
      plant_id: plant.id,
      stage: 'production',
      entered_on: '2099-04-01',
    });
    await owner.post('/api/v1/stages', {
      plant_id: plant.id,
      stage: 'acclimation',
      entered_on: '2099-03-01',
    });
    const stages = await stagesOf(owner, 'plant', plant.id);
    expect(stages.map((s) => s.stage)).toEqual([
      'greenhouse',
      'production',
      'acclimation',
      'mother_block',
    ]);
    const entered = stages.map((s) => s.entered_on as string);
    expect([...entered].sort().reverse()).toEqual(entered);
  });
});
