import { afterEach, expect, it } from 'vitest';
import { body } from '../support/harness.js';
import {
  dataOf,
  eventsOf,
  expectError,
  newExplant,
  newPlant,
  refuseEventInserts,
  stagesOf,
} from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

/**
 * Every write and its change-history event commit together: when the event cannot be
 * written, the write is not there either, and a retry with the same Idempotency-Key works.
 */
describeOnDatabases('Writes and their history in one transaction', (target) => {
  const { t, lab, owner } = labSuite(target);
  let undo: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await undo?.();
    undo = null;
  });

  const refuseHistory = async () => {
    undo = await refuseEventInserts(t.database, lab.workspaceId);
  };
  const allowHistory = async () => {
    await undo?.();
    undo = null;
  };

  it('creates no plant, stage or external_id claim when its created event fails', async () => {
    await refuseHistory();
    const res = await owner.post(
      '/api/v1/plants',
      { species: 'Ficus', external_id: 'TX-1' },
      { 'idempotency-key': 'create-tx-0001' },
    );
    expectError(res, 500, 'PLANT_CREATE_FAILED');
    expect(body(res).error).not.toContain('refused');
    await allowHistory();

    expect(dataOf(await owner.get('/api/v1/plants'), 200)).toEqual([]);
    expect(dataOf(await owner.get('/api/v1/plants?externalId=TX-1'), 200)).toEqual([]);
    const stageRows = await t.database.db
      .selectFrom('stages')
      .select('id')
      .where('workspace_id', '=', lab.workspaceId)
      .execute();
    expect(stageRows).toEqual([]);
    const retry = await owner.post(
      '/api/v1/plants',
      { species: 'Ficus', external_id: 'TX-1' },
      { 'idempotency-key': 'create-tx-0001' },
    );
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replay']).toBe('false');
    expect(await stagesOf(owner, 'plant', body(retry).data.id)).toHaveLength(1);
    expect(await eventsOf(owner, 'plant')).toHaveLength(1);
  });

  it('leaves a plant unchanged when its updated event fails', async () => {
    const plant = await newPlant(owner, { custom_fields: {} });
    await refuseHistory();
    const res = await owner.patch(`/api/v1/plants/${plant.id}`, {
      species: 'Changed',
      external_id: 'TX-2',
    });
    expectError(res, 500, 'PLANT_UPDATE_FAILED');
    await allowHistory();
    expect(dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200)).toEqual(plant);
    expect(dataOf(await owner.get('/api/v1/plants?externalId=TX-2'), 200)).toEqual([]);
  });

  it('creates no explant and leaves one unchanged when the event fails', async () => {
    const explant = await newExplant(owner, { initial_count: 4 });
    await refuseHistory();
    expectError(
      await owner.post('/api/v1/explants', { label: 'New', external_id: 'TX-3' }),
      500,
      'EXPLANT_CREATE_FAILED',
    );
    expectError(
      await owner.patch(`/api/v1/explants/${explant.id}`, { current_count: 1, label: 'Changed' }),
      500,
      'EXPLANT_UPDATE_FAILED',
    );
    await allowHistory();
    expect(dataOf(await owner.get('/api/v1/explants'), 200)).toEqual([explant]);
    expect(await newExplant(owner, { label: 'New', external_id: 'TX-3' })).toMatchObject({
      external_id: 'TX-3',
    });
  });

  it('moves nothing when the stage_change event fails, and a retry with the same key moves once', async () => {
    const plant = await newPlant(owner);
    const before = await stagesOf(owner, 'plant', plant.id);
    const headers = { 'idempotency-key': 'move-tx-0001' };
    const payload = { plant_id: plant.id, stage: 'production' };
    await refuseHistory();
    expectError(await owner.post('/api/v1/stages', payload, headers), 500, 'STAGE_ADVANCE_FAILED');
    await allowHistory();
    expect(await stagesOf(owner, 'plant', plant.id)).toEqual(before);

    const retry = await owner.post('/api/v1/stages', payload, headers);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replay']).toBe('false');
    expect(body(retry).meta).toEqual({ previous_stage_id: before[0].id });
    const after = await stagesOf(owner, 'plant', plant.id);
    expect(after.map((s) => s.status)).toEqual(['active', 'completed']);
    expect((await eventsOf(owner, 'plant')).map((e) => e.event_type)).toEqual([
      'created',
      'stage_change',
    ]);
  });
});
