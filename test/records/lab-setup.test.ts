import { expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { importLabData } from '../../src/modules/import/import.service.js';
import { createRecordLookup } from '../../src/modules/index.js';
import { DEFAULT_STAGE_LISTS } from '../../src/modules/records/stage-lists.js';
import { body, createLab } from '../support/harness.js';
import { client, dataOf, expectError, listAll, newExplant, newPlant } from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { importRefusal as refuseImport } from '../support/helpers.js';

/**
 * The lab's setup written through the API (rooms, stage lists, custom fields), by
 * managers and up, with the import file's rules; on both databases.
 */
describeOnDatabases('Lab setup writes', (target) => {
  const { t, lab, owner } = labSuite(target);

  const importRefusal = (file: unknown) => refuseImport(t.database, lab.workspaceId, file);

  it('creates, renames, archives and brings back rooms; an archived room leaves the list', async () => {
    const room = dataOf(await owner.post('/api/v1/rooms', { name: 'Growth room A' }), 201);
    expect(room).toMatchObject({
      name: 'Growth room A',
      archived_at: null,
      plant_count: 0,
      device_count: 0,
    });
    const renamed = dataOf(
      await owner.patch(`/api/v1/rooms/${room.id}`, { name: 'Growth room 1' }),
      200,
    );
    expect(renamed).toMatchObject({ id: room.id, name: 'Growth room 1', archived_at: null });
    const plant = await newPlant(owner, { room_id: room.id });
    const archived = dataOf(await owner.patch(`/api/v1/rooms/${room.id}`, { archived: true }), 200);
    expect(archived.archived_at).toEqual(expect.any(String));
    expect(archived.plant_count).toBe(1);
    expect(await listAll(owner, '/api/v1/rooms')).toEqual([]);
    expect((await listAll(owner, '/api/v1/rooms?archived=only')).map((r) => r.id)).toEqual([
      room.id,
    ]);
    // The plant in it keeps it; the room still answers by id.
    const kept = dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200);
    expect(kept.current_stage.room_id).toBe(room.id);
    expect(dataOf(await owner.get(`/api/v1/rooms/${room.id}`), 200).name).toBe('Growth room 1');
    const back = dataOf(await owner.patch(`/api/v1/rooms/${room.id}`, { archived: false }), 200);
    expect(back.archived_at).toBeNull();
    expect((await listAll(owner, '/api/v1/rooms')).map((r) => r.name)).toEqual(['Growth room 1']);
  });

  it("refuses a room name the lab has (409), a bad body (422) and another lab's room (404)", async () => {
    const a = dataOf(await owner.post('/api/v1/rooms', { name: 'Hood room' }), 201);
    const b = dataOf(await owner.post('/api/v1/rooms', { name: 'Media prep' }), 201);
    expectError(
      await owner.post('/api/v1/rooms', { name: 'Hood room' }),
      409,
      'DUPLICATE_ENTRY',
      /^name: the lab already has a room named "Hood room"/,
    );
    expectError(
      await owner.patch(`/api/v1/rooms/${b.id}`, { name: 'Hood room' }),
      409,
      'DUPLICATE_ENTRY',
    );
    // Its own name again is no change.
    dataOf(await owner.patch(`/api/v1/rooms/${a.id}`, { name: 'Hood room' }), 200);
    expectError(await owner.post('/api/v1/rooms', { name: '' }), 422, 'VALIDATION_ERROR', /name/);
    expectError(await owner.patch(`/api/v1/rooms/${a.id}`, {}), 422, 'VALIDATION_ERROR');
    expectError(
      await owner.patch(`/api/v1/rooms/${a.id}`, { name: 'x', colour: 'red' }),
      422,
      'VALIDATION_ERROR',
      /colour/,
    );
    const other = await createLab(t.database);
    const theirs = dataOf(
      await client(t, other.owner).post('/api/v1/rooms', { name: 'Theirs' }),
      201,
    );
    expectError(
      await owner.patch(`/api/v1/rooms/${theirs.id}`, { name: 'Mine' }),
      404,
      'NOT_FOUND',
    );
    expect((await listAll(owner, '/api/v1/rooms')).map((r) => r.name)).toEqual([
      'Hood room',
      'Media prep',
    ]);
  });

  it('needs a manager and write:workspace for every setup write; any member reads', async () => {
    const room = dataOf(await owner.post('/api/v1/rooms', { name: 'A' }), 201);
    const member = client(t, await lab.actor('member'));
    const writes = [
      () => member.post('/api/v1/rooms', { name: 'B' }),
      () => member.patch(`/api/v1/rooms/${room.id}`, { archived: true }),
      () => member.patch('/api/v1/stage-lists', { plant: [{ key: 'a', name: 'A' }] }),
      () => member.patch('/api/v1/custom-fields', { plant: [] }),
    ];
    for (const write of writes) expectError(await write(), 403, 'FORBIDDEN', /manager/);
    const narrow = client(t, await lab.actor('manager', { scopes: ['read:workspace'] }));
    expectError(
      await narrow.post('/api/v1/rooms', { name: 'B' }),
      403,
      'FORBIDDEN',
      /write:workspace/,
    );
    const manager = client(t, await lab.actor('manager'));
    dataOf(await manager.post('/api/v1/rooms', { name: 'B' }), 201);
    const guest = client(t, await lab.actor('guest'));
    expect(dataOf(await guest.get('/api/v1/custom-fields'), 200).plant).toEqual([]);
    expect((await listAll(guest, '/api/v1/rooms')).map((r) => r.name)).toEqual(['A', 'B']);
  });

  it('adds, renames and reorders stages; records in a renamed stage show its new name', async () => {
    const plant = await newPlant(owner);
    expect(plant.current_stage.stage).toBe('mother_block');
    const list = [
      { key: 'acclimation', name: 'Acclimation' },
      { key: 'mother_block', name: 'Stock plants' },
      { key: 'sale', name: 'Ready for sale' },
      ...DEFAULT_STAGE_LISTS.plant.filter((s) => !['acclimation', 'mother_block'].includes(s.key)),
    ];
    const lists = dataOf(await owner.patch('/api/v1/stage-lists', { plant: list }), 200);
    expect(lists.plant).toEqual(list);
    expect(lists.explant).toEqual(DEFAULT_STAGE_LISTS.explant);
    expect(lists.retired).toEqual({ plant: [], explant: [] });
    expect(dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200).current_stage).toMatchObject({
      stage: 'mother_block',
      name: 'Stock plants',
    });
    const moved = await owner.post('/api/v1/stages', {
      plant_id: plant.id,
      stage: 'Ready for sale',
    });
    expect(dataOf(moved, 201).stage).toBe('sale');
    expect(dataOf(await owner.get('/api/v1/stage-lists'), 200)).toEqual(lists);
  });

  it('retires a stage left out that records were in (history kept, no new entries); removes an unused one', async () => {
    const explant = await newExplant(owner, { initial_stage: 'multiplication' });
    const kept = DEFAULT_STAGE_LISTS.explant.filter(
      (s) => !['multiplication', 'elongation'].includes(s.key),
    );
    const lists = dataOf(await owner.patch('/api/v1/stage-lists', { explant: kept }), 200);
    expect(lists.explant).toEqual(kept);
    expect(lists.retired.explant).toEqual([{ key: 'multiplication', name: 'Multiplication' }]);
    // The explant stays in it, its history intact.
    const read = dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200);
    expect(read.current_stage).toMatchObject({ stage: 'multiplication', name: 'Multiplication' });
    const other = await newExplant(owner);
    for (const stage of ['multiplication', 'elongation']) {
      expectError(
        await owner.post('/api/v1/stages', { explant_id: other.id, stage }),
        422,
        'VALIDATION_ERROR',
        new RegExp(stage),
      );
    }
    expectError(
      await owner.post('/api/v1/explants', { label: 'x', initial_stage: 'multiplication' }),
      422,
      'VALIDATION_ERROR',
    );
    // The stage lists filter still finds records in a retired stage.
    expect(
      (await listAll(owner, '/api/v1/explants?stage=multiplication')).map((e) => e.id),
    ).toEqual([explant.id]);
    // Sent again, it is back in the list.
    const back = dataOf(
      await owner.patch('/api/v1/stage-lists', {
        explant: [...kept, { key: 'multiplication', name: 'Bulking' }],
      }),
      200,
    );
    expect(back.retired.explant).toEqual([]);
    expect(back.explant.at(-1)).toEqual({ key: 'multiplication', name: 'Bulking' });
    dataOf(
      await owner.post('/api/v1/stages', { explant_id: other.id, stage: 'multiplication' }),
      201,
    );
  });

  it('an import that drops a stage in use retires it the same way', async () => {
    const plant = await newPlant(owner, { initial_stage: 'quarantine' });
    await inTransaction(t.database.db, (trx) =>
      importLabData(
        trx,
        lab.workspaceId,
        { stages: { plant: [{ key: 'mother_block', name: 'Mother Block' }] } },
        createRecordLookup(),
      ),
    );
    const lists = dataOf(await owner.get('/api/v1/stage-lists'), 200);
    expect(lists.plant).toEqual([{ key: 'mother_block', name: 'Mother Block' }]);
    expect(lists.retired.plant).toEqual([{ key: 'quarantine', name: 'Quarantine' }]);
    expect(dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200).current_stage.stage).toBe(
      'quarantine',
    );
  });

  it('refuses a stage list the import would refuse, with the same problem, changing nothing', async () => {
    const cases: [unknown, RegExp][] = [
      [
        [
          { key: 'a', name: 'A' },
          { key: 'a', name: 'B' },
        ],
        /\[1\]\.key: duplicates .*\[0\]\.key/,
      ],
      [[{ key: 'Not Snake', name: 'A' }], /\[0\]\.key: /],
      [[], /fewer than 1|at least 1|must NOT have fewer/],
      [[{ key: 'a', name: 'A', colour: 'red' }], /colour/],
    ];
    for (const [list, problem] of cases) {
      const res = await owner.patch('/api/v1/stage-lists', { plant: list });
      expectError(res, 422, 'VALIDATION_ERROR', problem);
      expect(body(res).error).toMatch(/plant/);
      expect(await importRefusal({ stages: { plant: list } })).toMatch(problem);
    }
    expectError(await owner.patch('/api/v1/stage-lists', {}), 422, 'VALIDATION_ERROR');
    expect(dataOf(await owner.get('/api/v1/stage-lists'), 200).plant).toEqual(
      DEFAULT_STAGE_LISTS.plant,
    );
  });

  it('replaces the custom fields of the kinds sent; values are checked against them', async () => {
    const fields = dataOf(
      await owner.patch('/api/v1/custom-fields', {
        plant: [
          { key: 'clone', type: 'text' },
          { key: 'grade', type: 'select', options: ['A', 'B'] },
        ],
        explant: [{ key: 'sterile', type: 'boolean' }],
      }),
      200,
    );
    expect(fields).toEqual({
      plant: [
        { key: 'clone', type: 'text', options: null },
        { key: 'grade', type: 'select', options: ['A', 'B'] },
      ],
      explant: [{ key: 'sterile', type: 'boolean', options: null }],
      transfer: [],
      contamination: [],
    });
    dataOf(
      await owner.post('/api/v1/plants', { species: 'x', custom_fields: { grade: 'A' } }),
      201,
    );
    expectError(
      await owner.post('/api/v1/plants', { species: 'x', custom_fields: { grade: 'C' } }),
      422,
      'VALIDATION_ERROR',
      /custom_fields\.grade: must be one of: A, B/,
    );
    // Only the kinds sent change.
    const after = dataOf(await owner.patch('/api/v1/custom-fields', { plant: [] }), 200);
    expect(after.plant).toEqual([]);
    expect(after.explant).toEqual(fields.explant);
    expectError(
      await owner.post('/api/v1/plants', { species: 'x', custom_fields: { grade: 'A' } }),
      422,
      'VALIDATION_ERROR',
      /custom_fields\.grade: not a custom field/,
    );
  });

  it('refuses custom fields the import would refuse, with the same problem, changing nothing', async () => {
    const cases: [unknown[], RegExp][] = [
      [[{ key: 'grade', type: 'select' }], /\[0\]\.options: required for a select field/],
      [
        [{ key: 'grade', type: 'text', options: ['A'] }],
        /\[0\]\.options: only a select field has options/,
      ],
      [
        [
          { key: 'grade', type: 'text' },
          { key: 'grade', type: 'number' },
        ],
        /\[1\]\.key: duplicates .*\[0\]\.key/,
      ],
      [[{ key: 'grade', type: 'colour' }], /\[0\]\.type: /],
    ];
    for (const [list, problem] of cases) {
      const res = await owner.patch('/api/v1/custom-fields', { explant: list });
      expectError(res, 422, 'VALIDATION_ERROR', problem);
      expect(body(res).error).toMatch(/explant\[/);
      const file = list.map((field) => ({ entity: 'explant', ...(field as object) }));
      expect(await importRefusal({ custom_fields: file })).toMatch(problem);
    }
    expect(dataOf(await owner.get('/api/v1/custom-fields'), 200).explant).toEqual([]);
  });
});
