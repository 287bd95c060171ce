import { beforeEach, expect, it } from 'vitest';
import { body } from '../support/harness.js';
import {
  addRoom,
  dataOf,
  eventsOf,
  expectError,
  expectSameAnswer,
  listAll,
  newExplant,
  newPlant,
  randomId,
  stagesOf,
} from '../support/helpers.js';
import { describeOnDatabases, labSuite, otherLab } from '../support/suite.js';

/**
 * A record of another workspace must behave exactly like one that does not exist,
 * wherever its id appears: same status, code and text as for a random UUID.
 */
describeOnDatabases('Workspace isolation', (target) => {
  const { t, owner: me } = labSuite(target, {}, { name: 'Mine' });
  const { lab: theirs, owner: them } = otherLab(t);
  let theirPlant: { id: string };
  let theirExplant: { id: string };
  let theirRoom: string;
  beforeEach(async () => {
    theirPlant = await newPlant(them, { species: 'Theirs', external_id: 'SHARED-1' });
    theirExplant = await newExplant(them, { label: 'Their explant', external_id: 'SHARED-2' });
    await them.post('/api/v1/stages', { explant_id: theirExplant.id, stage: 'initiation' });
    theirRoom = await addRoom(t.database, theirs.workspaceId);
  });

  /** Their records, stages and history exactly as they were. */
  const snapshotTheirs = async () => ({
    plant: body(await them.get(`/api/v1/plants/${theirPlant.id}`)),
    explant: body(await them.get(`/api/v1/explants/${theirExplant.id}`)),
    plantStages: await stagesOf(them, 'plant', theirPlant.id),
    explantStages: await stagesOf(them, 'explant', theirExplant.id),
    plantEvents: await eventsOf(them, 'plant'),
    explantEvents: await eventsOf(them, 'explant'),
  });

  it('GET and PATCH of their plant or explant answer as for an unknown id, changing nothing', async () => {
    const before = await snapshotTheirs();
    const unknown = randomId();
    expectSameAnswer(
      await me.get(`/api/v1/plants/${theirPlant.id}`),
      await me.get(`/api/v1/plants/${unknown}`),
      404,
      'NOT_FOUND',
    );
    expectSameAnswer(
      await me.patch(`/api/v1/plants/${theirPlant.id}`, { species: 'Stolen', external_id: 'X' }),
      await me.patch(`/api/v1/plants/${unknown}`, { species: 'Stolen', external_id: 'X' }),
      404,
      'NOT_FOUND',
    );
    expectSameAnswer(
      await me.get(`/api/v1/explants/${theirExplant.id}`),
      await me.get(`/api/v1/explants/${unknown}`),
      404,
      'NOT_FOUND',
    );
    expectSameAnswer(
      await me.patch(`/api/v1/explants/${theirExplant.id}`, { label: 'Stolen' }),
      await me.patch(`/api/v1/explants/${unknown}`, { label: 'Stolen' }),
      404,
      'NOT_FOUND',
    );
    expect(await snapshotTheirs()).toEqual(before);
  });

  it('POST /stages with their plant, explant or room answers as for an unknown id, changing nothing', async () => {
    const before = await snapshotTheirs();
    const myPlant = await newPlant(me);
    const myStages = await stagesOf(me, 'plant', myPlant.id);
    const unknown = randomId();
    expectSameAnswer(
      await me.post('/api/v1/stages', { plant_id: theirPlant.id, stage: 'production' }),
      await me.post('/api/v1/stages', { plant_id: unknown, stage: 'production' }),
      404,
      'NOT_FOUND',
    );
    expectSameAnswer(
      await me.post('/api/v1/stages', { explant_id: theirExplant.id, stage: 'establishment' }),
      await me.post('/api/v1/stages', { explant_id: unknown, stage: 'establishment' }),
      404,
      'NOT_FOUND',
    );
    expectSameAnswer(
      await me.post('/api/v1/stages', {
        plant_id: myPlant.id,
        stage: 'production',
        room_id: theirRoom,
      }),
      await me.post('/api/v1/stages', {
        plant_id: myPlant.id,
        stage: 'production',
        room_id: unknown,
      }),
      404,
      'NOT_FOUND',
    );
    // An invalid stage for their record still answers 404, not a 422 that would confirm it exists.
    expectSameAnswer(
      await me.post('/api/v1/stages', { plant_id: theirPlant.id, stage: 'no_such_stage' }),
      await me.post('/api/v1/stages', { plant_id: unknown, stage: 'no_such_stage' }),
      404,
      'NOT_FOUND',
    );
    expect(await stagesOf(me, 'plant', myPlant.id)).toEqual(myStages);
    expect((await eventsOf(me, 'plant')).map((e) => e.event_type)).toEqual(['created']);
    expect(await snapshotTheirs()).toEqual(before);
  });

  it('GET /stages of their plant or explant answers as for an unknown id', async () => {
    const unknown = randomId();
    expectSameAnswer(
      await me.get(`/api/v1/stages?plant_id=${theirPlant.id}`),
      await me.get(`/api/v1/stages?plant_id=${unknown}`),
      404,
      'NOT_FOUND',
    );
    expectSameAnswer(
      await me.get(`/api/v1/stages?explant_id=${theirExplant.id}`),
      await me.get(`/api/v1/stages?explant_id=${unknown}`),
      404,
      'NOT_FOUND',
    );
  });

  it('POST /explants naming their plant answers 422 as for an unknown plant, creating nothing', async () => {
    expectSameAnswer(
      await me.post('/api/v1/explants', { label: 'Mine', plant_id: theirPlant.id }),
      await me.post('/api/v1/explants', { label: 'Mine', plant_id: randomId() }),
      422,
      'VALIDATION_ERROR',
    );
    expect(dataOf(await me.get('/api/v1/explants'), 200)).toEqual([]);
    expect(await eventsOf(me, 'explant')).toEqual([]);
  });

  it('lists, lookups and history show only my records', async () => {
    const myPlant = await newPlant(me);
    const myExplant = await newExplant(me);
    expect((await listAll(me, '/api/v1/plants')).map((p) => p.id)).toEqual([myPlant.id]);
    expect((await listAll(me, '/api/v1/explants')).map((e) => e.id)).toEqual([myExplant.id]);
    expect(dataOf(await me.get('/api/v1/plants?externalId=SHARED-1'), 200)).toEqual([]);
    expect(dataOf(await me.get('/api/v1/explants?externalId=SHARED-2'), 200)).toEqual([]);
    expect(dataOf(await me.get('/api/v1/explants?externalId=their explant'), 200)).toEqual([]);
    expect((await eventsOf(me, 'plant')).map((e) => e.entity_id)).toEqual([myPlant.id]);
    expect((await eventsOf(me, 'explant')).map((e) => e.entity_id)).toEqual([myExplant.id]);
  });

  it('lets my workspace use an external_id theirs uses', async () => {
    expect((await newPlant(me, { external_id: 'shared-1' })).external_id).toBe('shared-1');
    expect((await newExplant(me, { external_id: 'SHARED-2' })).external_id).toBe('SHARED-2');
    const plant = await newPlant(me);
    expect(
      dataOf(await me.patch(`/api/v1/plants/${plant.id}`, { external_id: 'x' }), 200).external_id,
    ).toBe('x');
  });

  it('refuses their cursors with 422 INVALID_CURSOR', async () => {
    await newPlant(them);
    await newExplant(them);
    for (const url of [
      '/api/v1/plants?limit=1',
      '/api/v1/explants?limit=1',
      '/api/v1/events?entity=plant&limit=1',
    ]) {
      const cursor = body(await them.get(url)).meta.next_cursor;
      expect(cursor).toEqual(expect.any(String));
      expectError(
        await me.get(`${url}&cursor=${encodeURIComponent(cursor)}`),
        422,
        'INVALID_CURSOR',
      );
      expect((await them.get(`${url}&cursor=${encodeURIComponent(cursor)}`)).statusCode).toBe(200);
    }
  });
});
