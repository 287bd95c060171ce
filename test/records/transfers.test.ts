import { beforeEach, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { isUniqueViolation } from '../../src/db/errors.js';
import { INT32_MAX } from '../../src/kernel/schemas.js';
import { newId } from '../../src/kernel/ids.js';
import { transfers } from '../../src/modules/transfers/transfers.repository.js';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  client,
  type Client,
  dataOf,
  defineCustomFields,
  eventsOf,
  expectError,
  expectSameAnswer,
  GENEROUS_LIMITS,
  ISO_MS,
  type Json,
  keysOf,
  listAll,
  markDeleted,
  newExplant,
  newPlant,
  randomId,
  refuseEventInserts,
} from '../support/helpers.js';

const TRANSFER_KEYS = [
  'created_at',
  'custom_fields',
  'entity_id',
  'entity_type',
  'from_location',
  'id',
  'notes',
  'plantlet_count',
  'status',
  'to_location',
  'transfer_cycle',
  'transfer_date',
  'vessel_count',
];

const transfersOf = (c: Client, kind: 'plant' | 'explant', id: string) =>
  listAll(c, `/api/v1/transfers?${kind}_id=${id}`);

async function newTransfer(c: Client, fields: Record<string, unknown>): Promise<Json> {
  return dataOf(await c.post('/api/v1/transfers', fields), 201);
}

describeOnDatabases('Transfers', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });

  it('records an explant transfer and reads back every field it was sent', async () => {
    await defineCustomFields(t.database, lab.workspaceId, [
      { entity: 'transfer', key: 'medium', type: 'text' },
      { entity: 'transfer', key: 'hood', type: 'number' },
    ]);
    const explant = await newExplant(owner, { initial_count: 10 });
    const sent = {
      explant_id: explant.id,
      transfer_date: '2026-03-02T09:30:00+01:00',
      from_location: 'Hood 2',
      to_location: 'Growth room B',
      transfer_cycle: 4,
      notes: 'Split clusters in two',
      status: 'pending',
      custom_fields: { medium: 'MS + BAP', hood: 2 },
      vessel_count: 18,
      plantlet_count: 72,
    };
    const res = await owner.post('/api/v1/transfers', sent);
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replay']).toBe('false');
    const transfer = body(res).data;
    expect(keysOf(transfer)).toEqual(TRANSFER_KEYS);
    expect(transfer).toEqual({
      id: expect.any(String),
      entity_type: 'explant',
      entity_id: explant.id,
      transfer_date: '2026-03-02T08:30:00.000Z',
      transfer_cycle: 4,
      from_location: 'Hood 2',
      to_location: 'Growth room B',
      status: 'pending',
      notes: 'Split clusters in two',
      created_at: expect.stringMatching(ISO_MS),
      custom_fields: { medium: 'MS + BAP', hood: 2 },
      vessel_count: 18,
      plantlet_count: 72,
    });
    expect(await transfersOf(owner, 'explant', explant.id)).toEqual([transfer]);
  });

  it('defaults: cycle highest + 1 per record, transfer_date now, status completed, no counts', async () => {
    const plant = await newPlant(owner);
    const explant = await newExplant(owner);
    const before = new Date().toISOString();
    const first = await newTransfer(owner, { plant_id: plant.id });
    const after = new Date().toISOString();
    expect(first).toMatchObject({
      entity_type: 'plant',
      entity_id: plant.id,
      transfer_cycle: 1,
      status: 'completed',
      from_location: null,
      to_location: null,
      notes: null,
      custom_fields: {},
      vessel_count: null,
      plantlet_count: null,
    });
    expect(first.transfer_date).toMatch(ISO_MS);
    expect(first.transfer_date >= before && first.transfer_date <= after).toBe(true);
    expect((await newTransfer(owner, { plant_id: plant.id })).transfer_cycle).toBe(2);
    // Cycles count per record.
    expect((await newTransfer(owner, { explant_id: explant.id })).transfer_cycle).toBe(1);
    // After an explicit cycle, the default goes on from the highest.
    expect(
      (await newTransfer(owner, { plant_id: plant.id, transfer_cycle: 10 })).transfer_cycle,
    ).toBe(10);
    expect((await newTransfer(owner, { plant_id: plant.id })).transfer_cycle).toBe(11);
    expect(
      (await newTransfer(owner, { plant_id: plant.id, transfer_cycle: 5 })).transfer_cycle,
    ).toBe(5);
    expect((await newTransfer(owner, { plant_id: plant.id })).transfer_cycle).toBe(12);
  });

  it('takes transfer_date as a date or a zoned timestamp, normalised to UTC, and refuses others', async () => {
    const plant = await newPlant(owner);
    const date = await newTransfer(owner, { plant_id: plant.id, transfer_date: '2026-01-05' });
    expect(date.transfer_date).toBe('2026-01-05T00:00:00.000Z');
    const zoned = await newTransfer(owner, {
      plant_id: plant.id,
      transfer_date: '2026-01-06T12:30:00-03:00',
    });
    expect(zoned.transfer_date).toBe('2026-01-06T15:30:00.000Z');
    for (const bad of ['2026-01-06T12:30:00', '2026-02-31', 'yesterday', '06/01/2026', '']) {
      expectError(
        await owner.post('/api/v1/transfers', { plant_id: plant.id, transfer_date: bad }),
        422,
        'VALIDATION_ERROR',
        /^transfer_date:/,
      );
    }
    expect(await transfersOf(owner, 'plant', plant.id)).toHaveLength(2);
  });

  it('refuses a cycle the record already has, and cycles below 1, changing nothing', async () => {
    const explant = await newExplant(owner, { initial_count: 5 });
    await newTransfer(owner, { explant_id: explant.id, transfer_cycle: 3 });
    const other = await newExplant(owner, { label: 'Other' });
    // Another record may use the same cycle.
    expect(
      (await newTransfer(owner, { explant_id: other.id, transfer_cycle: 3 })).transfer_cycle,
    ).toBe(3);
    const listed = await transfersOf(owner, 'explant', explant.id);
    const events = await eventsOf(owner, 'explant');
    expectError(
      await owner.post('/api/v1/transfers', {
        explant_id: explant.id,
        transfer_cycle: 3,
        vessel_count: 9,
      }),
      422,
      'VALIDATION_ERROR',
      /^transfer_cycle: cycle 3 is already recorded/,
    );
    for (const cycle of [0, -1, 1.5, '2', INT32_MAX + 1]) {
      expectError(
        await owner.post('/api/v1/transfers', { explant_id: explant.id, transfer_cycle: cycle }),
        422,
        'VALIDATION_ERROR',
        /^transfer_cycle:/,
      );
    }
    expect(await transfersOf(owner, 'explant', explant.id)).toEqual(listed);
    expect(await eventsOf(owner, 'explant')).toEqual(events);
    expect(dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200).current_count).toBe(5);
  });

  it('refuses a default cycle past the largest integer with 422, writing nothing', async () => {
    const plant = await newPlant(owner);
    await newTransfer(owner, { plant_id: plant.id, transfer_cycle: INT32_MAX });
    expectError(
      await owner.post('/api/v1/transfers', { plant_id: plant.id }),
      422,
      'VALIDATION_ERROR',
      /^transfer_cycle:/,
    );
    expect(await transfersOf(owner, 'plant', plant.id)).toHaveLength(1);
    expect(
      (await newTransfer(owner, { plant_id: plant.id, transfer_cycle: 7 })).transfer_cycle,
    ).toBe(7);
  });

  it('keeps one transfer per cycle of a record in the database itself (unique index)', async () => {
    const plant = await newPlant(owner);
    const first = await newTransfer(owner, { plant_id: plant.id });
    const row = {
      id: newId(),
      workspace_id: lab.workspaceId,
      entity_type: 'plant',
      entity_id: plant.id,
      transfer_date: first.transfer_date,
      transfer_cycle: 1,
      from_location: null,
      to_location: null,
      status: 'completed',
      notes: null,
      vessel_count: null,
      plantlet_count: null,
      custom_fields: '{}',
      created_by: lab.owner.memberId,
      created_at: first.created_at,
      media_batch_id: null,
    };
    const error = await inTransaction(t.database.db, (trx) => transfers.insert(trx, row)).catch(
      (e: unknown) => e,
    );
    expect(isUniqueViolation(error)).toBe(true);
    expect(await transfersOf(owner, 'plant', plant.id)).toEqual([first]);
  });

  it('refuses neither or both of plant_id and explant_id with 422, on POST and GET', async () => {
    const plant = await newPlant(owner);
    const explant = await newExplant(owner);
    for (const payload of [{}, { plant_id: plant.id, explant_id: explant.id }]) {
      expectError(
        await owner.post('/api/v1/transfers', payload),
        422,
        'VALIDATION_ERROR',
        /plant_id and explant_id/,
      );
    }
    expectError(await owner.get('/api/v1/transfers'), 422, 'VALIDATION_ERROR');
    expectError(
      await owner.get(`/api/v1/transfers?plant_id=${plant.id}&explant_id=${explant.id}`),
      422,
      'VALIDATION_ERROR',
    );
    expectError(
      await owner.get('/api/v1/transfers?plant_id=not-a-uuid'),
      422,
      'VALIDATION_ERROR',
      /^plant_id:/,
    );
    expect(await transfersOf(owner, 'plant', plant.id)).toEqual([]);
    expect(await transfersOf(owner, 'explant', explant.id)).toEqual([]);
  });

  it('refuses invalid fields with 422 naming them, and accepts the longest allowed', async () => {
    const plant = await newPlant(owner);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ from_location: 'x'.repeat(201) }, /^from_location:/],
      [{ to_location: 'x'.repeat(201) }, /^to_location:/],
      [{ notes: 'n'.repeat(5001) }, /^notes:/],
      [{ status: 'cancelled' }, /^status:/],
      [{ status: 'active' }, /^status:/],
      [{ room_id: randomId() }, /room_id/],
      [{ from_location: 7 }, /^from_location:/],
    ];
    for (const [payload, error] of cases) {
      expectError(
        await owner.post('/api/v1/transfers', { plant_id: plant.id, ...payload }),
        422,
        'VALIDATION_ERROR',
        error,
      );
    }
    expect(await transfersOf(owner, 'plant', plant.id)).toEqual([]);
    const longest = await newTransfer(owner, {
      plant_id: plant.id,
      from_location: 'f'.repeat(200),
      to_location: '',
      notes: 'n'.repeat(5000),
    });
    expect(longest).toMatchObject({ from_location: 'f'.repeat(200), to_location: '' });
    expect(longest.notes).toHaveLength(5000);
  });

  describe('custom fields', () => {
    beforeEach(async () => {
      await defineCustomFields(t.database, lab.workspaceId, [
        { entity: 'transfer', key: 'medium', type: 'select', options: ['MS', 'WPM'] },
        { entity: 'transfer', key: 'sterile', type: 'boolean' },
        { entity: 'transfer', key: 'note', type: 'text' },
        { entity: 'explant', key: 'clone', type: 'text' },
      ]);
    });

    it('accepts lab-defined transfer fields on explant transfers; a null value is no value', async () => {
      const explant = await newExplant(owner);
      const transfer = await newTransfer(owner, {
        explant_id: explant.id,
        custom_fields: { medium: 'WPM', sterile: true, note: null },
      });
      expect(transfer.custom_fields).toEqual({ medium: 'WPM', sterile: true });
      const none = await newTransfer(owner, { explant_id: explant.id, custom_fields: null });
      expect(none.custom_fields).toEqual({});
      expect((await transfersOf(owner, 'explant', explant.id)).map((x) => x.custom_fields)).toEqual(
        [{}, { medium: 'WPM', sterile: true }],
      );
    });

    it('refuses unknown keys, explant fields, wrong types and more than 10,000 bytes', async () => {
      const explant = await newExplant(owner);
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ unknown: 'x' }, /^custom_fields\.unknown:/],
        [{ clone: 'x' }, /^custom_fields\.clone:/],
        [{ medium: 'B5' }, /^custom_fields\.medium:/],
        [{ sterile: 'yes' }, /^custom_fields\.sterile:/],
        [{ note: 'x'.repeat(10_001) }, /^custom_fields:/],
      ];
      for (const [fields, error] of cases) {
        expectError(
          await owner.post('/api/v1/transfers', { explant_id: explant.id, custom_fields: fields }),
          422,
          'VALIDATION_ERROR',
          error,
        );
      }
      expect(await transfersOf(owner, 'explant', explant.id)).toEqual([]);
      expect((await eventsOf(owner, 'explant')).map((e) => e.event_type)).toEqual(['created']);
    });

    it('refuses custom fields and counts on plant transfers (422); an empty map is no fields', async () => {
      const plant = await newPlant(owner);
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ custom_fields: { medium: 'MS' } }, /^custom_fields: only explant transfers/],
        [{ vessel_count: 3 }, /^vessel_count: only explant transfers/],
        [{ plantlet_count: 0 }, /^plantlet_count: only explant transfers/],
      ];
      for (const [payload, error] of cases) {
        expectError(
          await owner.post('/api/v1/transfers', { plant_id: plant.id, ...payload }),
          422,
          'VALIDATION_ERROR',
          error,
        );
      }
      expect(await transfersOf(owner, 'plant', plant.id)).toEqual([]);
      for (const customFields of [{}, null]) {
        const transfer = await newTransfer(owner, {
          plant_id: plant.id,
          custom_fields: customFields,
        });
        expect(transfer.custom_fields).toEqual({});
      }
    });
  });

  describe('counts on explant transfers (decision 5)', () => {
    it('stores them, copies them into the transfer event and applies them to the explant, with an updated event', async () => {
      const explant = await newExplant(owner, { initial_count: 10, plantlet_count: 40 });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const transfer = await newTransfer(owner, {
        explant_id: explant.id,
        transfer_date: '2026-04-01',
        from_location: 'Hood 1',
        to_location: 'Growth room A',
        vessel_count: 16,
        plantlet_count: 64,
      });
      expect(transfer).toMatchObject({ vessel_count: 16, plantlet_count: 64 });
      const after = dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200);
      expect(after).toEqual({
        ...explant,
        current_count: 16,
        plantlet_count: 64,
        updated_at: transfer.created_at,
      });
      expect(after.updated_at > explant.updated_at).toBe(true);

      const events = await eventsOf(owner, 'explant');
      expect(events.map((e) => e.event_type)).toEqual(['created', 'transfer', 'updated']);
      expect(events[1]).toMatchObject({
        entity_type: 'explant',
        entity_id: explant.id,
        stage_id: null,
        event_time: '2026-04-01T00:00:00.000Z',
        recorded_by: lab.owner.memberId,
        payload: {
          transfer_id: transfer.id,
          transfer_cycle: 1,
          transfer_date: '2026-04-01T00:00:00.000Z',
          status: 'completed',
          from_location: 'Hood 1',
          to_location: 'Growth room A',
          observed_vessel_count: 16,
          plantlet_count: 64,
          notes: null,
        },
      });
      expect(events[2]).toMatchObject({
        entity_id: explant.id,
        recorded_by: lab.owner.memberId,
        payload: {
          transfer_id: transfer.id,
          changes: {
            current_count: { from: 10, to: 16 },
            plantlet_count: { from: 40, to: 64 },
          },
        },
      });
    });

    it('applies only the counts sent, and writes nothing to the explant when they are unchanged', async () => {
      const explant = await newExplant(owner, { initial_count: 10, plantlet_count: 40 });
      await newTransfer(owner, { explant_id: explant.id, vessel_count: 12 });
      const afterVessels = dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200);
      expect(afterVessels).toMatchObject({ current_count: 12, plantlet_count: 40 });
      let events = await eventsOf(owner, 'explant');
      expect(events.at(-1).payload.changes).toEqual({ current_count: { from: 10, to: 12 } });

      const same = await newTransfer(owner, {
        explant_id: explant.id,
        vessel_count: 12,
        plantlet_count: 40,
      });
      expect(same).toMatchObject({ vessel_count: 12, plantlet_count: 40, transfer_cycle: 2 });
      // Only the subculture follows the transfer (no event of its own, updated_at kept).
      const afterSame = dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200);
      expect(afterSame).toEqual({
        ...afterVessels,
        subcultured_at: same.transfer_date,
        transfer_due_at: afterSame.transfer_due_at,
      });
      events = await eventsOf(owner, 'explant');
      expect(events.map((e) => e.event_type)).toEqual([
        'created',
        'transfer',
        'updated',
        'transfer',
      ]);
      expect(events.at(-1).payload).toMatchObject({
        observed_vessel_count: 12,
        plantlet_count: 40,
      });

      await newTransfer(owner, { explant_id: explant.id, plantlet_count: 0 });
      expect(dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200)).toMatchObject({
        current_count: 12,
        plantlet_count: 0,
      });
      // A transfer without counts leaves the counts alone; only the subculture follows it.
      const untouched = dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200);
      const bare = await newTransfer(owner, { explant_id: explant.id });
      expect(bare).toMatchObject({ vessel_count: null, plantlet_count: null });
      const after = dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200);
      expect(after).toEqual({
        ...untouched,
        subcultured_at: bare.transfer_date,
        transfer_due_at: after.transfer_due_at,
      });
      expect((await eventsOf(owner, 'explant')).at(-1)).toMatchObject({
        event_type: 'transfer',
        payload: { observed_vessel_count: null, plantlet_count: null },
      });
    });

    it.each([
      ['vessel_count', -1],
      ['plantlet_count', -5],
      ['vessel_count', 2.5],
      ['plantlet_count', '4'],
      ['vessel_count', null],
      ['vessel_count', INT32_MAX + 1],
    ])('refuses %s = %j', async (field, value) => {
      const explant = await newExplant(owner, { initial_count: 3 });
      expectError(
        await owner.post('/api/v1/transfers', { explant_id: explant.id, [field]: value }),
        422,
        'VALIDATION_ERROR',
        new RegExp(`^${field}:`),
      );
      expect(await transfersOf(owner, 'explant', explant.id)).toEqual([]);
      expect(dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200)).toEqual(explant);
    });

    it('writes the transfer, its event and the counts together or not at all', async () => {
      const explant = await newExplant(owner, { initial_count: 10 });
      const undo = await refuseEventInserts(t.database, lab.workspaceId);
      try {
        expectError(
          await owner.post('/api/v1/transfers', { explant_id: explant.id, vessel_count: 20 }),
          500,
          'TRANSFER_CREATE_FAILED',
        );
      } finally {
        await undo();
      }
      expect(await transfersOf(owner, 'explant', explant.id)).toEqual([]);
      expect(dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200)).toEqual(explant);
      const retried = await newTransfer(owner, { explant_id: explant.id, vessel_count: 20 });
      expect(retried.transfer_cycle).toBe(1);
    });
  });

  it('appears in GET /events as a transfer event for plants too', async () => {
    const plant = await newPlant(owner);
    const transfer = await newTransfer(owner, {
      plant_id: plant.id,
      from_location: 'Mother block',
      to_location: 'Bench 3',
    });
    const events = await eventsOf(owner, 'plant');
    expect(events.map((e) => e.event_type)).toEqual(['created', 'transfer']);
    expect(events[1]).toMatchObject({
      entity_type: 'plant',
      entity_id: plant.id,
      event_time: transfer.transfer_date,
      payload: {
        transfer_id: transfer.id,
        transfer_cycle: 1,
        from_location: 'Mother block',
        to_location: 'Bench 3',
        observed_vessel_count: null,
        plantlet_count: null,
      },
    });
    // since= finds it.
    const since = await listAll(
      owner,
      `/api/v1/events?entity=plant&since=${encodeURIComponent(events[0].created_at)}`,
    );
    expect(since.map((e) => e.id)).toEqual([events[1].id]);
  });

  it('answers an unknown, deleted or wrong-kind record with 404, on POST and GET', async () => {
    const plant = await newPlant(owner);
    const gone = await newExplant(owner);
    await markDeleted(t.database, 'explants', gone.id);
    for (const payload of [
      { plant_id: randomId() },
      { explant_id: randomId() },
      { explant_id: plant.id },
      { explant_id: gone.id },
    ]) {
      expectError(await owner.post('/api/v1/transfers', payload), 404, 'NOT_FOUND');
    }
    for (const query of [
      `plant_id=${randomId()}`,
      `explant_id=${plant.id}`,
      `explant_id=${gone.id}`,
    ]) {
      expectError(await owner.get(`/api/v1/transfers?${query}`), 404, 'NOT_FOUND');
    }
    expect((await eventsOf(owner, 'plant')).map((e) => e.event_type)).toEqual(['created']);
  });

  it("answers another workspace's plant or explant exactly as an unknown id, changing nothing", async () => {
    const other = await createLab(t.database, { name: 'Theirs' });
    const them = client(t, other.owner);
    await defineCustomFields(t.database, other.workspaceId, [
      { entity: 'transfer', key: 'medium', type: 'text' },
    ]);
    const theirPlant = await newPlant(them);
    const theirExplant = await newExplant(them, { initial_count: 4 });
    await newTransfer(them, { explant_id: theirExplant.id, vessel_count: 4 });
    const snapshot = async () => ({
      explant: dataOf(await them.get(`/api/v1/explants/${theirExplant.id}`), 200),
      plantTransfers: await transfersOf(them, 'plant', theirPlant.id),
      explantTransfers: await transfersOf(them, 'explant', theirExplant.id),
      plantEvents: await eventsOf(them, 'plant'),
      explantEvents: await eventsOf(them, 'explant'),
    });
    const before = await snapshot();
    for (const kind of ['plant', 'explant'] as const) {
      const theirs = kind === 'plant' ? theirPlant.id : theirExplant.id;
      const extra = kind === 'explant' ? { vessel_count: 99, custom_fields: { medium: 'x' } } : {};
      expectSameAnswer(
        await owner.post('/api/v1/transfers', { [`${kind}_id`]: theirs, ...extra }),
        await owner.post('/api/v1/transfers', { [`${kind}_id`]: randomId(), ...extra }),
        404,
        'NOT_FOUND',
      );
      expectSameAnswer(
        await owner.get(`/api/v1/transfers?${kind}_id=${theirs}`),
        await owner.get(`/api/v1/transfers?${kind}_id=${randomId()}`),
        404,
        'NOT_FOUND',
      );
    }
    expect(await snapshot()).toEqual(before);
    expect(await eventsOf(owner, 'explant')).toEqual([]);
  });

  describe('roles and scopes', () => {
    it('lets any member record a transfer on a record another member created', async () => {
      const creator = client(t, await lab.actor('member'));
      const explant = await newExplant(creator, { initial_count: 6 });
      const colleague = await lab.actor('member');
      const transfer = await newTransfer(client(t, colleague), {
        explant_id: explant.id,
        vessel_count: 9,
      });
      expect(transfer.vessel_count).toBe(9);
      expect(dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200).current_count).toBe(9);
      const events = await eventsOf(owner, 'explant');
      expect(events.slice(1).map((e) => [e.event_type, e.recorded_by])).toEqual([
        ['transfer', colleague.memberId],
        ['updated', colleague.memberId],
      ]);
    });

    it('refuses viewers and guests (403 FORBIDDEN naming the role) and keys without the scope, changing nothing', async () => {
      const explant = await newExplant(owner, { initial_count: 6 });
      for (const role of ['viewer', 'guest'] as const) {
        const res = await client(t, await lab.actor(role)).post('/api/v1/transfers', {
          explant_id: explant.id,
          vessel_count: 1,
        });
        expectError(res, 403, 'FORBIDDEN', /member/);
      }
      const noScope = client(t, await lab.actor('owner', { scopes: ['read:transfers'] }));
      expectError(
        await noScope.post('/api/v1/transfers', { explant_id: explant.id, vessel_count: 1 }),
        403,
        'FORBIDDEN',
        /write:transfers/,
      );
      expect(await transfersOf(owner, 'explant', explant.id)).toEqual([]);
      expect(dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200)).toEqual(explant);
      // Reading needs read:transfers, which a guest may hold.
      const guest = client(t, await lab.actor('guest'));
      expect(dataOf(await guest.get(`/api/v1/transfers?explant_id=${explant.id}`), 200)).toEqual(
        [],
      );
      const writeOnly = client(t, await lab.actor('owner', { scopes: ['write:transfers'] }));
      expectError(
        await writeOnly.get(`/api/v1/transfers?explant_id=${explant.id}`),
        403,
        'FORBIDDEN',
        /read:transfers/,
      );
    });
  });

  it('replays a write with the same Idempotency-Key: one transfer, one event, the counts once', async () => {
    const explant = await newExplant(owner, { initial_count: 2 });
    const headers = { 'idempotency-key': 'transfer-0001' };
    const payload = { explant_id: explant.id, vessel_count: 8 };
    const first = await owner.post('/api/v1/transfers', payload, headers);
    const again = await owner.post('/api/v1/transfers', payload, headers);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(body(again)).toEqual(body(first));
    expect(await transfersOf(owner, 'explant', explant.id)).toEqual([body(first).data]);
    expect((await eventsOf(owner, 'explant')).map((e) => e.event_type)).toEqual([
      'created',
      'transfer',
      'updated',
    ]);
    // The same key with another body is refused.
    expectError(
      await owner.post('/api/v1/transfers', { ...payload, vessel_count: 9 }, headers),
      422,
      'VALIDATION_ERROR',
    );
    expect((await newTransfer(owner, payload)).transfer_cycle).toBe(2);
  });

  describe('list', () => {
    it('orders newest first by transfer_date, the same date by id, and pages by cursor and offset', async () => {
      const explant = await newExplant(owner);
      const dates = [
        '2026-02-01',
        '2026-03-01',
        '2026-01-15',
        '2026-03-01',
        '2026-02-20T10:00:00Z',
        '2026-03-01',
      ];
      const created: Json[] = [];
      for (const date of dates) {
        created.push(await newTransfer(owner, { explant_id: explant.id, transfer_date: date }));
      }
      const expected = [...created].sort((a, b) =>
        a.transfer_date === b.transfer_date
          ? b.id.localeCompare(a.id)
          : b.transfer_date.localeCompare(a.transfer_date),
      );
      expect(expected.slice(0, 3).map((x) => x.transfer_cycle)).toEqual([6, 4, 2]);
      expect(await transfersOf(owner, 'explant', explant.id)).toEqual(expected);

      const seen: Json[] = [];
      let cursor: string | null = null;
      do {
        const res = await owner.get(
          `/api/v1/transfers?explant_id=${explant.id}&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        seen.push(...dataOf(res, 200));
        cursor = body(res).meta.next_cursor;
      } while (cursor !== null);
      expect(seen).toEqual(expected);

      const offset = await owner.get(`/api/v1/transfers?explant_id=${explant.id}&limit=2&offset=2`);
      expect(dataOf(offset, 200)).toEqual(expected.slice(2, 4));
      expect(typeof body(offset).meta.next_cursor).toBe('string');
      const last = await owner.get(`/api/v1/transfers?explant_id=${explant.id}&limit=3&offset=3`);
      expect(dataOf(last, 200)).toEqual(expected.slice(3));
      expect(body(last).meta).toEqual({ next_cursor: null });
    });

    it('lists only the transfers of the record asked for, and binds cursors to it', async () => {
      const plant = await newPlant(owner);
      const a = await newExplant(owner, { label: 'A' });
      const b = await newExplant(owner, { label: 'B' });
      for (let i = 0; i < 3; i++) {
        await newTransfer(owner, { explant_id: a.id });
        await newTransfer(owner, { explant_id: b.id });
      }
      await newTransfer(owner, { plant_id: plant.id });
      expect(
        (await transfersOf(owner, 'explant', a.id)).every((x: Json) => x.entity_id === a.id),
      ).toBe(true);
      expect(await transfersOf(owner, 'explant', a.id)).toHaveLength(3);
      expect(await transfersOf(owner, 'plant', plant.id)).toHaveLength(1);
      const cursor = body(await owner.get(`/api/v1/transfers?explant_id=${a.id}&limit=1`)).meta
        .next_cursor as string;
      const c = encodeURIComponent(cursor);
      expectError(
        await owner.get(`/api/v1/transfers?explant_id=${b.id}&cursor=${c}`),
        422,
        'INVALID_CURSOR',
      );
      expectError(
        await owner.get(`/api/v1/stages?explant_id=${a.id}&cursor=${c}`),
        422,
        'INVALID_CURSOR',
      );
      expectError(
        await owner.get(`/api/v1/transfers?explant_id=${a.id}&cursor=${c}&offset=1`),
        422,
        'VALIDATION_ERROR',
      );
      expect(
        dataOf(await owner.get(`/api/v1/transfers?explant_id=${a.id}&cursor=${c}`), 200),
      ).toHaveLength(2);
    });

    it('defaults to 50 items and caps limit at 200', async () => {
      const plant = await newPlant(owner);
      for (let i = 0; i < 205; i++) {
        await newTransfer(owner, { plant_id: plant.id, transfer_date: '2026-05-01' });
      }
      const first = await owner.get(`/api/v1/transfers?plant_id=${plant.id}`);
      expect(dataOf(first, 200)).toHaveLength(50);
      const capped = await owner.get(`/api/v1/transfers?plant_id=${plant.id}&limit=500`);
      expect(dataOf(capped, 200)).toHaveLength(200);
      expect(typeof body(capped).meta.next_cursor).toBe('string');
      expectError(
        await owner.get(`/api/v1/transfers?plant_id=${plant.id}&limit=0`),
        422,
        'VALIDATION_ERROR',
        /^limit:/,
      );
    });
  });

  describe('concurrency', () => {
    it('gives concurrent transfers of one record distinct cycles 1..n, dated in cycle order', async () => {
      const explants = await Promise.all(
        Array.from({ length: 3 }, (_, i) =>
          newExplant(owner, { label: `C${i}`, initial_count: 1 }),
        ),
      );
      const responses = await Promise.all(
        explants.flatMap((explant) =>
          Array.from({ length: 10 }, (_, i) =>
            owner.post('/api/v1/transfers', { explant_id: explant.id, vessel_count: i + 1 }),
          ),
        ),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array(30).fill(201));
      for (const explant of explants) {
        const listed = await transfersOf(owner, 'explant', explant.id);
        const byCycle = [...listed].sort((a, b) => a.transfer_cycle - b.transfer_cycle);
        expect(byCycle.map((x) => x.transfer_cycle)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        for (let i = 1; i < byCycle.length; i++) {
          expect(byCycle[i].transfer_date >= byCycle[i - 1].transfer_date).toBe(true);
        }
        // The explant holds the counts of its last transfer.
        const current = dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200);
        expect(current.current_count).toBe(byCycle.at(-1).vessel_count);
      }
      const events = await eventsOf(owner, 'explant');
      expect(events.filter((e) => e.event_type === 'transfer')).toHaveLength(30);
    });

    it('makes exactly one transfer for concurrent requests with one Idempotency-Key', async () => {
      const plant = await newPlant(owner);
      const headers = { 'idempotency-key': 'same-transfer-01' };
      const responses = await Promise.all(
        Array.from({ length: 8 }, () =>
          owner.post('/api/v1/transfers', { plant_id: plant.id }, headers),
        ),
      );
      for (const r of responses) {
        if (r.statusCode !== 201) expectError(r, 409, 'IDEMPOTENCY_IN_FLIGHT');
      }
      const created = responses.filter((r) => r.statusCode === 201);
      expect(new Set(created.map((r) => body(r).data.id)).size).toBe(1);
      expect(await transfersOf(owner, 'plant', plant.id)).toHaveLength(1);
    });
  });
});
