import { inTransaction } from '../../src/db/transaction.js';
import { describe, expect, it } from 'vitest';
import { replaceStageDefinitions } from '../../src/modules/lab/lab.repository.js';
import { body } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  dataOf,
  eventsOf,
  expectError,
  ISO_MS,
  keysOf,
  markDeleted,
  newPlant,
  stagesOf,
} from '../support/helpers.js';

const PLANT_KEYS = [
  'archived_at',
  'archived_by',
  'common_name',
  'created_at',
  'created_by',
  'cultivar',
  'current_stage',
  'custom_fields',
  'external_id',
  'family',
  'genus',
  'id',
  'name',
  'notes',
  'source',
  'species',
  'status',
  'updated_at',
  'workspace_id',
];

describeOnDatabases('Plants', (target) => {
  const { t, lab, owner } = labSuite(target);

  it('creates a plant with the documented fields and defaults, and reads it back', async () => {
    const res = await owner.post('/api/v1/plants', { species: 'Ficus lyrata' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replay']).toBe('false');
    const plant = body(res).data;
    expect(keysOf(plant)).toEqual(PLANT_KEYS);
    expect(plant).toMatchObject({
      name: 'Ficus lyrata',
      species: 'Ficus lyrata',
      status: 'active',
      workspace_id: lab.workspaceId,
      external_id: null,
      custom_fields: {},
      // Who created it: they (and managers) may move, edit and archive it.
      created_by: lab.owner.memberId,
    });
    expect(plant.created_at).toMatch(ISO_MS);
    expect(body(res).meta).toBeUndefined();

    const got = await owner.get(`/api/v1/plants/${plant.id}`);
    expect(dataOf(got, 200)).toEqual(plant);
    expect(dataOf(await owner.get('/api/v1/plants'), 200)).toEqual([plant]);
  });

  it('names a plant by common_name, else species', async () => {
    const named = await newPlant(owner, {
      species: 'Ficus lyrata',
      common_name: 'Fiddle-leaf fig',
    });
    expect(named.name).toBe('Fiddle-leaf fig');
    const blank = await newPlant(owner, { species: 'Monstera deliciosa', common_name: '' });
    expect(blank.name).toBe('Monstera deliciosa');

    const cleared = dataOf(
      await owner.patch(`/api/v1/plants/${named.id}`, { common_name: null }),
      200,
    );
    expect(cleared.name).toBe('Ficus lyrata');
    const renamed = dataOf(
      await owner.patch(`/api/v1/plants/${blank.id}`, { common_name: 'Swiss cheese plant' }),
      200,
    );
    expect(renamed.name).toBe('Swiss cheese plant');
    expect(dataOf(await owner.get(`/api/v1/plants/${blank.id}`), 200).name).toBe(
      'Swiss cheese plant',
    );
  });

  it('starts a new plant in mother_block with an active stage record', async () => {
    const plant = await newPlant(owner);
    const stages = await stagesOf(owner, 'plant', plant.id);
    expect(stages).toHaveLength(1);
    expect(stages[0]).toMatchObject({
      entity_type: 'plant',
      entity_id: plant.id,
      stage: 'mother_block',
      status: 'active',
      completed_at: null,
      room_id: null,
    });
    expect(stages[0].entered_on).toMatch(ISO_MS);
  });

  it('starts in initial_stage given by display name or key, saved as its key', async () => {
    const byName = await newPlant(owner, { initial_stage: 'Cold Storage' });
    const byKey = await newPlant(owner, { initial_stage: 'hardening_off' });
    expect((await stagesOf(owner, 'plant', byName.id)).map((s) => [s.stage, s.status])).toEqual([
      ['cold_storage', 'active'],
    ]);
    expect((await stagesOf(owner, 'plant', byKey.id)).map((s) => s.stage)).toEqual([
      'hardening_off',
    ]);
  });

  it('refuses an initial_stage outside the plant list (an explant stage too) and creates nothing', async () => {
    for (const stage of ['Multiplication', 'no_such_stage']) {
      const res = await owner.post('/api/v1/plants', { species: 'Ficus', initial_stage: stage });
      expectError(res, 422, 'VALIDATION_ERROR', /^initial_stage:/);
    }
    expect(dataOf(await owner.get('/api/v1/plants'), 200)).toEqual([]);
    expect(await eventsOf(owner, 'plant')).toEqual([]);
  });

  it('warns and creates the plant without a stage when the lab has no plant stages', async () => {
    await inTransaction(t.database.db, (trx) =>
      replaceStageDefinitions(trx, lab.workspaceId, 'plant', []),
    );
    const res = await owner.post('/api/v1/plants', { species: 'Ficus' });
    expect(res.statusCode).toBe(201);
    expect(body(res).meta.warning).toEqual(expect.any(String));
    expect(await stagesOf(owner, 'plant', body(res).data.id)).toEqual([]);
  });

  it.each([
    ['species', 200, 1],
    ['common_name', 200, 0],
    ['genus', 100, 0],
    ['family', 100, 0],
    ['cultivar', 200, 0],
    ['source', 200, 0],
    ['notes', 5000, 0],
    ['external_id', 100, 1],
  ])('enforces the length of %s (%i max, %i min) on create and PATCH', async (field, max, min) => {
    const base = field === 'species' ? {} : { species: 'Ficus' };
    const longest = await owner.post('/api/v1/plants', { ...base, [field]: 'x'.repeat(max) });
    expect(longest.statusCode).toBe(201);
    const tooLong = await owner.post('/api/v1/plants', { ...base, [field]: 'y'.repeat(max + 1) });
    expectError(tooLong, 422, 'VALIDATION_ERROR', new RegExp(`^${field}:`));
    const shortest = await owner.post('/api/v1/plants', { ...base, [field]: 'z'.repeat(min) });
    expect(shortest.statusCode).toBe(201);
    if (min > 0) {
      const empty = await owner.post('/api/v1/plants', { ...base, [field]: '' });
      expectError(empty, 422, 'VALIDATION_ERROR', new RegExp(`^${field}:`));
    }
    const id = body(longest).data.id;
    const patch = await owner.patch(`/api/v1/plants/${id}`, { [field]: 'w'.repeat(max + 1) });
    expectError(patch, 422, 'VALIDATION_ERROR', new RegExp(`^${field}:`));
    expect(dataOf(await owner.get('/api/v1/plants'), 200)).toHaveLength(2);
  });

  it('accepts every documented status and refuses others', async () => {
    const statuses = [
      'active',
      'dormant',
      'harvested',
      'contaminated',
      'failed',
      'in_culture',
      'ready_for_transfer',
      'quarantined',
      'archived',
    ];
    for (const status of statuses) expect((await newPlant(owner, { status })).status).toBe(status);
    expectError(
      await owner.post('/api/v1/plants', { species: 'F', status: 'Active' }),
      422,
      'VALIDATION_ERROR',
      /^status:/,
    );
    const plant = await newPlant(owner);
    expectError(
      await owner.patch(`/api/v1/plants/${plant.id}`, { status: 'sold' }),
      422,
      'VALIDATION_ERROR',
      /^status:/,
    );
    expect(
      dataOf(await owner.patch(`/api/v1/plants/${plant.id}`, { status: 'dormant' }), 200).status,
    ).toBe('dormant');
  });

  it('refuses unknown fields and fields only create accepts on PATCH', async () => {
    const plant = await newPlant(owner);
    expectError(
      await owner.patch(`/api/v1/plants/${plant.id}`, { initial_stage: 'Field' }),
      422,
      'VALIDATION_ERROR',
    );
    expectError(
      await owner.patch(`/api/v1/plants/${plant.id}`, { name: 'x' }),
      422,
      'VALIDATION_ERROR',
    );
    expectError(
      await owner.post('/api/v1/plants', { species: 'F', workspace_id: lab.workspaceId }),
      422,
      'VALIDATION_ERROR',
    );
  });

  describe('external_id', () => {
    it('is unique per workspace ignoring case on create (409 DUPLICATE_ENTRY)', async () => {
      await newPlant(owner, { external_id: 'MB-001' });
      for (const clash of ['MB-001', 'mb-001', 'Mb-001']) {
        expectError(
          await owner.post('/api/v1/plants', { species: 'F', external_id: clash }),
          409,
          'DUPLICATE_ENTRY',
        );
      }
      expect(dataOf(await owner.get('/api/v1/plants'), 200)).toHaveLength(1);
      expect(await eventsOf(owner, 'plant')).toHaveLength(1);
      // No external id is no clash.
      await newPlant(owner);
      await newPlant(owner, { external_id: null });
    });

    it('is unique on PATCH too, and a plant may change the case of its own', async () => {
      const first = await newPlant(owner, { external_id: 'MB-001' });
      const second = await newPlant(owner, { external_id: 'MB-002', species: 'Monstera' });
      const clash = await owner.patch(`/api/v1/plants/${second.id}`, {
        external_id: 'mb-001',
        species: 'Changed',
      });
      expectError(clash, 409, 'DUPLICATE_ENTRY');
      expect(dataOf(await owner.get(`/api/v1/plants/${second.id}`), 200)).toEqual(second);

      const recased = dataOf(
        await owner.patch(`/api/v1/plants/${first.id}`, { external_id: 'mb-001' }),
        200,
      );
      expect(recased.external_id).toBe('mb-001');
      // Clearing frees the value for another plant.
      expect(
        dataOf(await owner.patch(`/api/v1/plants/${first.id}`, { external_id: null }), 200)
          .external_id,
      ).toBeNull();
      expect(
        dataOf(await owner.patch(`/api/v1/plants/${second.id}`, { external_id: 'MB-001' }), 200)
          .external_id,
      ).toBe('MB-001');
    });

    it('stays taken by a deleted plant, which no read returns', async () => {
      const gone = await newPlant(owner, { external_id: 'DEL-1' });
      await markDeleted(t.database, 'plants', gone.id);
      expectError(
        await owner.post('/api/v1/plants', { species: 'F', external_id: 'del-1' }),
        409,
        'DUPLICATE_ENTRY',
      );
      const other = await newPlant(owner);
      expectError(
        await owner.patch(`/api/v1/plants/${other.id}`, { external_id: 'Del-1' }),
        409,
        'DUPLICATE_ENTRY',
      );
      expectError(await owner.get(`/api/v1/plants/${gone.id}`), 404, 'NOT_FOUND');
      expectError(
        await owner.patch(`/api/v1/plants/${gone.id}`, { species: 'x' }),
        404,
        'NOT_FOUND',
      );
      expect(dataOf(await owner.get('/api/v1/plants?externalId=DEL-1'), 200)).toEqual([]);
      expectError(
        await owner.post('/api/v1/stages', { plant_id: gone.id, stage: 'field' }),
        404,
        'NOT_FOUND',
      );
      expectError(await owner.get(`/api/v1/stages?plant_id=${gone.id}`), 404, 'NOT_FOUND');
      expect(
        dataOf(await owner.get('/api/v1/plants'), 200).map((p: { id: string }) => p.id),
      ).toEqual([other.id]);
    });

    it('?externalId= returns 0 or 1 plant, ignoring case, with next_cursor null', async () => {
      await newPlant(owner, { external_id: 'A-1' });
      const wanted = await newPlant(owner, { external_id: 'Ext-42' });
      await newPlant(owner);
      for (const query of ['Ext-42', 'EXT-42', 'ext-42']) {
        const res = await owner.get(`/api/v1/plants?externalId=${query}&limit=1`);
        expect(body(res)).toEqual({ ok: true, data: [wanted], meta: { next_cursor: null } });
      }
      const none = await owner.get('/api/v1/plants?externalId=Ext-4');
      expect(body(none)).toEqual({ ok: true, data: [], meta: { next_cursor: null } });

      const renamed = dataOf(
        await owner.patch(`/api/v1/plants/${wanted.id}`, { external_id: 'New-7' }),
        200,
      );
      expect(dataOf(await owner.get('/api/v1/plants?externalId=new-7'), 200)).toEqual([renamed]);
      expect(dataOf(await owner.get('/api/v1/plants?externalId=Ext-42'), 200)).toEqual([]);
    });
  });

  describe('PATCH', () => {
    it('reads back every field create and update accept, with updated_at', async () => {
      const sent = {
        species: 'Monstera deliciosa',
        common_name: 'Swiss cheese plant',
        genus: 'Monstera',
        family: 'Araceae',
        cultivar: 'Thai Constellation',
        source: 'Tissue culture lab B',
        notes: 'Variegated sport',
      };
      const plant = await newPlant(owner, sent);
      expect(plant).toMatchObject({ ...sent, name: 'Swiss cheese plant' });
      expect(plant.updated_at).toBe(plant.created_at);
      expect(dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200)).toEqual(plant);

      await new Promise((resolve) => setTimeout(resolve, 5));
      const edits = { cultivar: null, source: 'Mother stock 7', notes: 'Rooted' };
      const edited = dataOf(await owner.patch(`/api/v1/plants/${plant.id}`, edits), 200);
      expect(edited).toMatchObject(edits);
      expect(edited.updated_at > plant.updated_at).toBe(true);
      expect(dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200)).toEqual(edited);
      expect(dataOf(await owner.get('/api/v1/plants'), 200)).toEqual([edited]);
    });

    it('changes only the sent fields, null clears, and records an updated event naming them', async () => {
      const plant = await newPlant(owner, {
        species: 'Ficus lyrata',
        genus: 'Ficus',
        family: 'Moraceae',
        notes: 'from cutting',
        external_id: 'F-1',
      });
      const res = await owner.patch(`/api/v1/plants/${plant.id}`, {
        genus: null,
        family: 'Moraceae',
        notes: 'rooted',
        status: 'dormant',
      });
      const updated = dataOf(res, 200);
      expect(updated).toEqual({
        ...plant,
        status: 'dormant',
        genus: null,
        notes: 'rooted',
        updated_at: expect.stringMatching(ISO_MS),
      });
      expect(updated.updated_at >= plant.updated_at).toBe(true);
      expect(dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200)).toEqual(updated);

      const events = await eventsOf(owner, 'plant');
      expect(events.map((e) => e.event_type)).toEqual(['created', 'updated']);
      expect(events[1]).toMatchObject({
        entity_type: 'plant',
        entity_id: plant.id,
        recorded_by: lab.owner.memberId,
        stage_id: null,
        payload: {
          changes: {
            genus: { from: 'Ficus', to: null },
            notes: { from: 'from cutting', to: 'rooted' },
            status: { from: 'active', to: 'dormant' },
          },
        },
      });
      expect(Object.keys(events[1].payload.changes).sort()).toEqual(['genus', 'notes', 'status']);
    });

    it('writes no event when nothing changes', async () => {
      const plant = await newPlant(owner, { genus: 'Ficus', external_id: 'F-1' });
      for (const payload of [
        {},
        { genus: 'Ficus' },
        { species: 'Ficus lyrata', external_id: 'F-1', cultivar: null },
      ]) {
        expect(dataOf(await owner.patch(`/api/v1/plants/${plant.id}`, payload), 200)).toEqual(
          plant,
        );
      }
      expect((await eventsOf(owner, 'plant')).map((e) => e.event_type)).toEqual(['created']);
    });

    it('answers 404 for an unknown plant', async () => {
      const res = await owner.patch('/api/v1/plants/0190b0a4-0000-7000-8000-000000000000', {
        species: 'x',
      });
      expectError(res, 404, 'NOT_FOUND');
    });
  });

  it('records a created event in the plant history with its first stage', async () => {
    const plant = await newPlant(owner, {
      species: 'Ficus',
      common_name: 'Fig',
      external_id: 'F-9',
    });
    const [stage] = await stagesOf(owner, 'plant', plant.id);
    const events = await eventsOf(owner, 'plant');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      entity_type: 'plant',
      entity_id: plant.id,
      event_type: 'created',
      stage_id: stage.id,
      recorded_by: lab.owner.memberId,
      payload: { species: 'Ficus', name: 'Fig', external_id: 'F-9', initial_stage: 'mother_block' },
    });
    expect(await eventsOf(owner, 'explant')).toEqual([]);
  });

  it('replays a create sent again with the same Idempotency-Key', async () => {
    const headers = { 'idempotency-key': 'plant-create-0001' };
    const first = await owner.post('/api/v1/plants', { species: 'Ficus' }, headers);
    const again = await owner.post('/api/v1/plants', { species: 'Ficus' }, headers);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(body(again)).toEqual(body(first));
    expect(dataOf(await owner.get('/api/v1/plants'), 200)).toHaveLength(1);
    expect(await eventsOf(owner, 'plant')).toHaveLength(1);
  });
});
