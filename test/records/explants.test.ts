import { describe, expect, it } from 'vitest';
import { body } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  dataOf,
  eventsOf,
  expectError,
  ISO_MS,
  keysOf,
  markDeleted,
  newExplant,
  newPlant,
  randomId,
} from '../support/helpers.js';

const EXPLANT_KEYS = [
  'archived_at',
  'archived_by',
  'batch_number',
  'created_at',
  'created_by',
  'current_count',
  'current_stage',
  'custom_fields',
  'external_id',
  'id',
  'initial_count',
  'label',
  'notes',
  'plant_id',
  'plantlet_count',
  'status',
  'subcultured_at',
  'transfer_due_at',
  'updated_at',
  'workspace_id',
];

describeOnDatabases('Explants', (target) => {
  const { t, lab, owner } = labSuite(target);

  it('reads back every field create and update accept, with updated_at', async () => {
    const sent = {
      label: 'MON-B07',
      batch_number: 'B2026-101',
      notes: 'Third subculture',
      status: 'growing',
      initial_count: 12,
      current_count: 10,
      plantlet_count: 48,
    };
    const explant = dataOf(await owner.post('/api/v1/explants', sent), 201);
    expect(explant).toMatchObject(sent);
    expect(explant.updated_at).toBe(explant.created_at);
    expect(dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200)).toEqual(explant);

    await new Promise((resolve) => setTimeout(resolve, 5));
    const edits = {
      batch_number: null,
      notes: 'Split into two',
      current_count: 14,
      plantlet_count: 60,
    };
    const edited = dataOf(await owner.patch(`/api/v1/explants/${explant.id}`, edits), 200);
    expect(edited).toMatchObject(edits);
    expect(edited.updated_at > explant.updated_at).toBe(true);
    expect(dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200)).toEqual(edited);
  });

  it('creates an explant with the documented fields and defaults, and reads it back', async () => {
    const res = await owner.post('/api/v1/explants', { label: 'FL-7' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replay']).toBe('false');
    const explant = body(res).data;
    expect(keysOf(explant)).toEqual(EXPLANT_KEYS);
    expect(explant).toMatchObject({
      label: 'FL-7',
      external_id: 'FL-7',
      status: 'active',
      plant_id: null,
      workspace_id: lab.workspaceId,
      initial_count: null,
      current_count: null,
      plantlet_count: null,
      custom_fields: {},
      created_by: lab.owner.memberId,
    });
    expect(explant.created_at).toMatch(ISO_MS);
    expect(dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200)).toEqual(explant);
    expect(dataOf(await owner.get('/api/v1/explants'), 200)).toEqual([explant]);
  });

  it('presents external_id as external_id, else batch number, else label', async () => {
    const all = await newExplant(owner, { label: 'L-1', batch_number: 'B-1', external_id: 'E-1' });
    expect(all.external_id).toBe('E-1');
    const batch = await newExplant(owner, { label: 'L-2', batch_number: 'B-2' });
    expect(batch.external_id).toBe('B-2');
    const label = await newExplant(owner, { label: 'L-3', batch_number: null });
    expect(label.external_id).toBe('L-3');
    const blankBatch = await newExplant(owner, { label: 'L-4', batch_number: '' });
    expect(blankBatch.external_id).toBe('L-4');

    const noExternal = dataOf(
      await owner.patch(`/api/v1/explants/${all.id}`, { external_id: null }),
      200,
    );
    expect(noExternal.external_id).toBe('B-1');
    const noBatch = dataOf(
      await owner.patch(`/api/v1/explants/${all.id}`, { batch_number: null }),
      200,
    );
    expect(noBatch.external_id).toBe('L-1');
    const relabelled = dataOf(
      await owner.patch(`/api/v1/explants/${all.id}`, { label: 'L-1b' }),
      200,
    );
    expect(relabelled).toMatchObject({ label: 'L-1b', external_id: 'L-1b' });
    expect(dataOf(await owner.get(`/api/v1/explants/${all.id}`), 200)).toEqual(relabelled);
  });

  describe('vessel and plantlet counts (decision 5)', () => {
    it('defaults current_count to initial_count and keeps plantlet_count apart', async () => {
      const defaulted = await newExplant(owner, { initial_count: 12 });
      expect(defaulted).toMatchObject({
        initial_count: 12,
        current_count: 12,
        plantlet_count: null,
      });
      const explicit = await newExplant(owner, {
        initial_count: 12,
        current_count: 10,
        plantlet_count: 40,
      });
      expect(explicit).toMatchObject({ initial_count: 12, current_count: 10, plantlet_count: 40 });
      const zero = await newExplant(owner, { initial_count: 0, plantlet_count: 0 });
      expect(zero).toMatchObject({ initial_count: 0, current_count: 0, plantlet_count: 0 });
    });

    it('lets PATCH change current_count and plantlet_count but not initial_count', async () => {
      const explant = await newExplant(owner, { initial_count: 12 });
      const patched = dataOf(
        await owner.patch(`/api/v1/explants/${explant.id}`, {
          current_count: 8,
          plantlet_count: 30,
        }),
        200,
      );
      expect(patched).toMatchObject({ initial_count: 12, current_count: 8, plantlet_count: 30 });
      expectError(
        await owner.patch(`/api/v1/explants/${explant.id}`, { initial_count: 3 }),
        422,
        'VALIDATION_ERROR',
        /initial_count/,
      );
      const events = await eventsOf(owner, 'explant');
      expect(events.map((e) => e.event_type)).toEqual(['created', 'updated']);
      expect(events[1].payload.changes).toEqual({
        current_count: { from: 12, to: 8 },
        plantlet_count: { from: null, to: 30 },
      });
      expect(dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200)).toEqual(patched);
    });

    it.each([
      ['initial_count', -1],
      ['current_count', -1],
      ['plantlet_count', -5],
      ['initial_count', 1.5],
      ['plantlet_count', '4'],
    ])('refuses %s = %j', async (field, value) => {
      const res = await owner.post('/api/v1/explants', { label: 'L', [field]: value });
      expectError(res, 422, 'VALIDATION_ERROR', new RegExp(`^${field}:`));
      expect(dataOf(await owner.get('/api/v1/explants'), 200)).toEqual([]);
    });
  });

  describe('plant_id', () => {
    it('links a plant of the workspace and cannot be changed afterwards', async () => {
      const plant = await newPlant(owner);
      const explant = await newExplant(owner, { plant_id: plant.id });
      expect(explant.plant_id).toBe(plant.id);
      const other = await newPlant(owner);
      expectError(
        await owner.patch(`/api/v1/explants/${explant.id}`, { plant_id: other.id }),
        422,
        'VALIDATION_ERROR',
      );
      expect(dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200).plant_id).toBe(
        plant.id,
      );
    });

    it('refuses an unknown or deleted plant with 422 naming plant_id, and creates nothing', async () => {
      const gone = await newPlant(owner);
      await markDeleted(t.database, 'plants', gone.id);
      for (const plantId of [randomId(), gone.id]) {
        const res = await owner.post('/api/v1/explants', { label: 'L', plant_id: plantId });
        expectError(res, 422, 'VALIDATION_ERROR', /^plant_id:/);
      }
      expect(dataOf(await owner.get('/api/v1/explants'), 200)).toEqual([]);
      expect(await eventsOf(owner, 'explant')).toEqual([]);
    });
  });

  it.each([
    ['label', 200, 1],
    ['batch_number', 100, 0],
    ['notes', 5000, 0],
    ['external_id', 100, 1],
  ])('enforces the length of %s (%i max, %i min) on create and PATCH', async (field, max, min) => {
    const base = field === 'label' ? {} : { label: 'L' };
    const longest = await owner.post('/api/v1/explants', { ...base, [field]: 'x'.repeat(max) });
    expect(longest.statusCode).toBe(201);
    expectError(
      await owner.post('/api/v1/explants', { ...base, [field]: 'y'.repeat(max + 1) }),
      422,
      'VALIDATION_ERROR',
      new RegExp(`^${field}:`),
    );
    if (min > 0) {
      expectError(
        await owner.post('/api/v1/explants', { ...base, [field]: '' }),
        422,
        'VALIDATION_ERROR',
        new RegExp(`^${field}:`),
      );
    }
    const id = body(longest).data.id;
    expectError(
      await owner.patch(`/api/v1/explants/${id}`, { [field]: 'w'.repeat(max + 1) }),
      422,
      'VALIDATION_ERROR',
      new RegExp(`^${field}:`),
    );
    expect(dataOf(await owner.get('/api/v1/explants'), 200)).toHaveLength(1);
  });

  it('accepts every documented status and refuses others', async () => {
    const statuses = [
      'active',
      'establishing',
      'growing',
      'needs_subculture',
      'quarantined',
      'senescing',
      'discarded',
      'retired',
      'lost',
    ];
    for (const status of statuses)
      expect((await newExplant(owner, { status })).status).toBe(status);
    expectError(
      await owner.post('/api/v1/explants', { label: 'L', status: 'dormant' }),
      422,
      'VALIDATION_ERROR',
      /^status:/,
    );
  });

  describe('external_id', () => {
    it('is unique per workspace ignoring case on create and PATCH (409 DUPLICATE_ENTRY)', async () => {
      await newExplant(owner, { external_id: 'EX-1' });
      expectError(
        await owner.post('/api/v1/explants', { label: 'L', external_id: 'ex-1' }),
        409,
        'DUPLICATE_ENTRY',
      );
      const second = await newExplant(owner, { label: 'Second', external_id: 'EX-2' });
      expectError(
        await owner.patch(`/api/v1/explants/${second.id}`, {
          external_id: 'Ex-1',
          label: 'Renamed',
        }),
        409,
        'DUPLICATE_ENTRY',
      );
      expect(dataOf(await owner.get(`/api/v1/explants/${second.id}`), 200)).toEqual(second);
      expect(dataOf(await owner.get('/api/v1/explants'), 200)).toHaveLength(2);
      expect(await eventsOf(owner, 'explant')).toHaveLength(2);
      const recased = dataOf(
        await owner.patch(`/api/v1/explants/${second.id}`, { external_id: 'ex-2' }),
        200,
      );
      expect(recased.external_id).toBe('ex-2');
    });

    it('stays taken by a deleted explant, which no read returns', async () => {
      const gone = await newExplant(owner, { external_id: 'DEL-9' });
      await markDeleted(t.database, 'explants', gone.id);
      expectError(
        await owner.post('/api/v1/explants', { label: 'L', external_id: 'del-9' }),
        409,
        'DUPLICATE_ENTRY',
      );
      const other = await newExplant(owner);
      expectError(
        await owner.patch(`/api/v1/explants/${other.id}`, { external_id: 'DEL-9' }),
        409,
        'DUPLICATE_ENTRY',
      );
      expectError(await owner.get(`/api/v1/explants/${gone.id}`), 404, 'NOT_FOUND');
      expect(dataOf(await owner.get('/api/v1/explants?externalId=DEL-9'), 200)).toEqual([]);
      expect(
        dataOf(await owner.get('/api/v1/explants'), 200).map((e: { id: string }) => e.id),
      ).toEqual([other.id]);
    });

    it('?externalId= looks up external_id, then batch number, then label, ignoring case; 0 or 1 item', async () => {
      const byLabel = await newExplant(owner, { label: 'Key-1' });
      const lookup = async (value: string) => {
        const res = await owner.get(`/api/v1/explants?externalId=${value}&limit=1`);
        expect(body(res).meta).toEqual({ next_cursor: null });
        return dataOf(res, 200);
      };
      expect(await lookup('KEY-1')).toEqual([byLabel]);
      const byBatch = await newExplant(owner, { label: 'Other', batch_number: 'key-1' });
      expect(await lookup('Key-1')).toEqual([byBatch]);
      const byExternal = await newExplant(owner, { label: 'Third', external_id: 'KEY-1' });
      expect(await lookup('key-1')).toEqual([byExternal]);
      expect(await lookup('Key-')).toEqual([]);

      // Lookups follow PATCHed values.
      const relabelled = dataOf(
        await owner.patch(`/api/v1/explants/${byLabel.id}`, { label: 'Moved-2' }),
        200,
      );
      expect(await lookup('moved-2')).toEqual([relabelled]);
      const rebatched = dataOf(
        await owner.patch(`/api/v1/explants/${byBatch.id}`, { batch_number: 'B-77' }),
        200,
      );
      expect(await lookup('b-77')).toEqual([rebatched]);
      const renamed = dataOf(
        await owner.patch(`/api/v1/explants/${byExternal.id}`, { external_id: 'E-77' }),
        200,
      );
      expect(await lookup('e-77')).toEqual([renamed]);
      expect(await lookup('key-1')).toEqual([]);
    });
  });

  it('writes no event for a PATCH that changes nothing, and one naming the fields otherwise', async () => {
    const explant = await newExplant(owner, { label: 'L', batch_number: 'B', initial_count: 4 });
    for (const payload of [{}, { label: 'L', batch_number: 'B', current_count: 4, notes: null }]) {
      expect(dataOf(await owner.patch(`/api/v1/explants/${explant.id}`, payload), 200)).toEqual(
        explant,
      );
    }
    expect((await eventsOf(owner, 'explant')).map((e) => e.event_type)).toEqual(['created']);
    await owner.patch(`/api/v1/explants/${explant.id}`, {
      label: 'L',
      status: 'growing',
      notes: 'ok',
    });
    const events = await eventsOf(owner, 'explant');
    expect(events.map((e) => e.event_type)).toEqual(['created', 'updated']);
    expect(events[1]).toMatchObject({
      entity_type: 'explant',
      entity_id: explant.id,
      recorded_by: lab.owner.memberId,
      payload: {
        changes: { status: { from: 'active', to: 'growing' }, notes: { from: null, to: 'ok' } },
      },
    });
    expect(Object.keys(events[1].payload.changes).sort()).toEqual(['notes', 'status']);
  });

  it('records a created event for a new explant', async () => {
    const plant = await newPlant(owner);
    const explant = await newExplant(owner, { label: 'L-5', plant_id: plant.id, initial_count: 3 });
    const events = await eventsOf(owner, 'explant');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      entity_type: 'explant',
      entity_id: explant.id,
      event_type: 'created',
      recorded_by: lab.owner.memberId,
      payload: { label: 'L-5', plant_id: plant.id, initial_count: 3, current_count: 3 },
    });
  });

  it('answers 404 for an unknown explant', async () => {
    expectError(await owner.get(`/api/v1/explants/${randomId()}`), 404, 'NOT_FOUND');
    expectError(
      await owner.patch(`/api/v1/explants/${randomId()}`, { label: 'x' }),
      404,
      'NOT_FOUND',
    );
  });
});
