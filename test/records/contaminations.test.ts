import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  addRoom,
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
  tick,
} from '../support/helpers.js';

const CONTAMINATION_KEYS = [
  'affected_vessel_markings',
  'created_at',
  'custom_fields',
  'description',
  'explant_ids',
  'id',
  'issue',
  'logged_by',
  'notes',
  'observed_at',
  'plant_ids',
  'plants_affected',
  'resolution_notes',
  'resolution_outcome',
  'resolved_at',
  'resolved_by',
  'room_id',
  'severity',
  'stage',
  'status',
  'suspected_source',
  'type',
  'type_other',
  'updated_at',
  'vessels_affected',
  'workspace_id',
];

async function newContamination(c: Client, fields: Record<string, unknown>): Promise<Json> {
  return dataOf(
    await c.post('/api/v1/contaminations', { type: 'mold', issue: 'White fuzz', ...fields }),
    201,
  );
}

/** Withdraws a log as the app does (no API operation withdraws one). */
async function withdraw(database: Database, id: string): Promise<void> {
  await database.db
    .updateTable('contaminations')
    .set({ deleted_at: new Date().toISOString() })
    .where('id', '=', id)
    .execute();
}

const idsOf = (items: Json[]) => items.map((x: { id: string }) => x.id);

describeOnDatabases('Contaminations', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });

  it('records a contamination on an explant and reads back every field it was sent', async () => {
    await defineCustomFields(t.database, lab.workspaceId, [
      { entity: 'contamination', key: 'swab_id', type: 'text' },
      { entity: 'contamination', key: 'autoclaved', type: 'boolean' },
    ]);
    const explant = await newExplant(owner);
    const sent = {
      explant_id: explant.id,
      type: 'bacteria',
      issue: 'Milky halo around the base',
      description: 'Three vessels on shelf 2',
      notes: 'Check the hood filter',
      severity: 'high',
      status: 'quarantined',
      suspected_source: 'tool',
      observed_at: '2026-03-04T08:15:00+02:00',
      vessels_affected: 3,
      plants_affected: 0,
      affected_vessel_markings: 'B2-04, B2-05, B2-09',
      custom_fields: { swab_id: 'SW-11', autoclaved: false },
    };
    const res = await owner.post('/api/v1/contaminations', sent);
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replay']).toBe('false');
    const log = body(res).data;
    expect(keysOf(log)).toEqual(CONTAMINATION_KEYS);
    expect(log).toEqual({
      id: expect.any(String),
      workspace_id: lab.workspaceId,
      type: 'bacteria',
      type_other: null,
      issue: 'Milky halo around the base',
      description: 'Three vessels on shelf 2',
      notes: 'Check the hood filter',
      severity: 'high',
      status: 'quarantined',
      suspected_source: 'tool',
      observed_at: '2026-03-04T06:15:00.000Z',
      resolved_at: null,
      vessels_affected: 3,
      plants_affected: 0,
      affected_vessel_markings: 'B2-04, B2-05, B2-09',
      custom_fields: { swab_id: 'SW-11', autoclaved: false },
      plant_ids: [],
      explant_ids: [explant.id],
      logged_by: lab.owner.memberId,
      created_at: expect.stringMatching(ISO_MS),
      updated_at: log.created_at,
      stage: null,
      room_id: null,
      resolution_outcome: null,
      resolution_notes: null,
      resolved_by: null,
    });
    expect(dataOf(await owner.get(`/api/v1/contaminations/${log.id}`), 200)).toEqual(log);
    expect(dataOf(await owner.get('/api/v1/contaminations'), 200)).toEqual([log]);
  });

  it('defaults: severity low, status active, observed now, counts not counted, custom_fields {}', async () => {
    const plant = await newPlant(owner);
    const log = await newContamination(owner, { plant_id: plant.id });
    expect(log).toMatchObject({
      type: 'mold',
      type_other: null,
      issue: 'White fuzz',
      description: null,
      notes: null,
      severity: 'low',
      status: 'active',
      suspected_source: null,
      resolved_at: null,
      vessels_affected: null,
      plants_affected: null,
      affected_vessel_markings: null,
      custom_fields: {},
      plant_ids: [plant.id],
      explant_ids: [],
      logged_by: lab.owner.memberId,
      stage: 'mother_block',
    });
    expect(log.observed_at).toBe(log.created_at);
    expect(log.updated_at).toBe(log.created_at);
  });

  it('keeps 0 apart from not counted, and bounds the counts at 1,000,000', async () => {
    const plant = await newPlant(owner);
    const zero = await newContamination(owner, {
      plant_id: plant.id,
      vessels_affected: 0,
      plants_affected: 0,
    });
    expect(zero).toMatchObject({ vessels_affected: 0, plants_affected: 0 });
    const most = await newContamination(owner, {
      plant_id: plant.id,
      vessels_affected: 1_000_000,
    });
    expect(most).toMatchObject({ vessels_affected: 1_000_000, plants_affected: null });
    for (const [field, value] of [
      ['vessels_affected', 1_000_001],
      ['plants_affected', -1],
      ['vessels_affected', 1.5],
      ['plants_affected', '2'],
      ['vessels_affected', null],
    ] as const) {
      expectError(
        await owner.post('/api/v1/contaminations', {
          plant_id: plant.id,
          type: 'mold',
          issue: 'x',
          [field]: value,
        }),
        422,
        'VALIDATION_ERROR',
        new RegExp(`^${field}:`),
      );
    }
    expect(await listAll(owner, '/api/v1/contaminations')).toHaveLength(2);
  });

  it('requires type_other when type is other and ignores it otherwise', async () => {
    const plant = await newPlant(owner);
    expectError(
      await owner.post('/api/v1/contaminations', {
        plant_id: plant.id,
        type: 'other',
        issue: 'Odd smell',
      }),
      422,
      'VALIDATION_ERROR',
      /^type_other: required when type is other/,
    );
    const other = await newContamination(owner, {
      plant_id: plant.id,
      type: 'other',
      type_other: 'Mites',
    });
    expect(other).toMatchObject({ type: 'other', type_other: 'Mites' });
    const ignored = await newContamination(owner, {
      plant_id: plant.id,
      type: 'yeast',
      type_other: 'Mites',
    });
    expect(ignored).toMatchObject({ type: 'yeast', type_other: null });
    expect(dataOf(await owner.get(`/api/v1/contaminations/${ignored.id}`), 200).type_other).toBe(
      null,
    );
    for (const bad of ['', 'x'.repeat(201)]) {
      expectError(
        await owner.post('/api/v1/contaminations', {
          plant_id: plant.id,
          type: 'other',
          type_other: bad,
          issue: 'x',
        }),
        422,
        'VALIDATION_ERROR',
        /^type_other:/,
      );
    }
    expect(await listAll(owner, '/api/v1/contaminations')).toHaveLength(2);
  });

  it('accepts every documented type, severity, status and suspected source, and refuses others', async () => {
    const plant = await newPlant(owner);
    const types = [
      'mold',
      'bacteria',
      'hyperhydricity',
      'phenolic',
      'algae',
      'yeast',
      'endophytic',
      'viral',
      'fungal',
      'physiological',
      'contaminated_media',
      'damage',
      'insect',
    ];
    for (const type of types) {
      expect((await newContamination(owner, { plant_id: plant.id, type })).type).toBe(type);
    }
    for (const severity of ['very low', 'low', 'medium', 'high', 'critical']) {
      expect((await newContamination(owner, { plant_id: plant.id, severity })).severity).toBe(
        severity,
      );
    }
    for (const status of ['active', 'resolved', 'quarantined', 'archived', 'under investigation']) {
      expect((await newContamination(owner, { plant_id: plant.id, status })).status).toBe(status);
    }
    for (const source of [
      'airborne',
      'cross',
      'media',
      'observed',
      'tool',
      'transferred',
      'unknown',
    ]) {
      const log = await newContamination(owner, { plant_id: plant.id, suspected_source: source });
      expect(log.suspected_source).toBe(source);
      expect(
        dataOf(await owner.get(`/api/v1/contaminations/${log.id}`), 200).suspected_source,
      ).toBe(source);
    }
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ type: 'virus' }, /^type:/],
      [{ type: undefined }, /type/],
      [{ severity: 'severe' }, /^severity:/],
      [{ status: 'open' }, /^status:/],
      [{ suspected_source: 'hands' }, /^suspected_source:/],
      [{ issue: '' }, /^issue:/],
      [{ issue: 'x'.repeat(301) }, /^issue:/],
      [{ issue: undefined }, /issue/],
      [{ description: 'x'.repeat(5001) }, /^description:/],
      [{ notes: 'x'.repeat(5001) }, /^notes:/],
      [{ affected_vessel_markings: 'x'.repeat(501) }, /^affected_vessel_markings:/],
      [{ resolved_at: '2026-01-01T00:00:00Z' }, /resolved_at/],
      [{ observed_at: '2026-03-04T08:15:00' }, /^observed_at:/],
      [{ observed_at: '2026-03-04' }, /^observed_at:/],
    ];
    const before = await listAll(owner, '/api/v1/contaminations');
    for (const [fields, error] of cases) {
      const payload: Record<string, unknown> = {
        plant_id: plant.id,
        type: 'mold',
        issue: 'x',
        ...fields,
      };
      for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key];
      expectError(
        await owner.post('/api/v1/contaminations', payload),
        422,
        'VALIDATION_ERROR',
        error,
      );
    }
    expect(await listAll(owner, '/api/v1/contaminations')).toEqual(before);
    const longest = await newContamination(owner, {
      plant_id: plant.id,
      issue: 'i'.repeat(300),
      description: 'd'.repeat(5000),
      notes: '',
      affected_vessel_markings: 'm'.repeat(500),
    });
    expect(longest.issue).toHaveLength(300);
    expect(longest.notes).toBe('');
  });

  it('sets resolved_at when logged as resolved', async () => {
    const plant = await newPlant(owner);
    const resolved = await newContamination(owner, {
      plant_id: plant.id,
      status: 'resolved',
      observed_at: '2026-01-02T00:00:00Z',
    });
    expect(resolved.resolved_at).toBe(resolved.created_at);
  });

  it('refuses neither or both of plant_id and explant_id with 422', async () => {
    const plant = await newPlant(owner);
    const explant = await newExplant(owner);
    for (const ids of [{}, { plant_id: plant.id, explant_id: explant.id }]) {
      expectError(
        await owner.post('/api/v1/contaminations', { type: 'mold', issue: 'x', ...ids }),
        422,
        'VALIDATION_ERROR',
        /plant_id and explant_id/,
      );
    }
    expect(await listAll(owner, '/api/v1/contaminations')).toEqual([]);
  });

  it('checks custom fields against the contamination fields of the lab', async () => {
    await defineCustomFields(t.database, lab.workspaceId, [
      { entity: 'contamination', key: 'swab_id', type: 'text' },
      { entity: 'contamination', key: 'spores', type: 'number' },
      { entity: 'plant', key: 'clone', type: 'text' },
    ]);
    const plant = await newPlant(owner);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ clone: 'x' }, /^custom_fields\.clone:/],
      [{ spores: 'many' }, /^custom_fields\.spores:/],
      [{ swab_id: 'x'.repeat(10_001) }, /^custom_fields:/],
    ];
    for (const [fields, error] of cases) {
      expectError(
        await owner.post('/api/v1/contaminations', {
          plant_id: plant.id,
          type: 'mold',
          issue: 'x',
          custom_fields: fields,
        }),
        422,
        'VALIDATION_ERROR',
        error,
      );
    }
    expect(await listAll(owner, '/api/v1/contaminations')).toEqual([]);
    const log = await newContamination(owner, {
      plant_id: plant.id,
      custom_fields: { swab_id: 'S-1', spores: 12.5 },
    });
    expect(log.custom_fields).toEqual({ swab_id: 'S-1', spores: 12.5 });
    const cleared = await newContamination(owner, {
      plant_id: plant.id,
      custom_fields: { swab_id: 'S-2', spores: null },
    });
    expect(cleared.custom_fields).toEqual({ swab_id: 'S-2' });
    expect(
      (await newContamination(owner, { plant_id: plant.id, custom_fields: null })).custom_fields,
    ).toEqual({});
  });

  it('keeps the stage and room the record was in when the contamination was observed', async () => {
    const room = await addRoom(t.database, lab.workspaceId);
    const explant = await newExplant(owner);
    const early = await newContamination(owner, {
      explant_id: explant.id,
      observed_at: '2026-01-01T00:00:00Z',
    });
    expect(early).toMatchObject({ stage: null, room_id: null });
    await owner.post('/api/v1/stages', {
      explant_id: explant.id,
      stage: 'initiation',
      entered_on: '2026-02-01',
    });
    await owner.post('/api/v1/stages', {
      explant_id: explant.id,
      stage: 'multiplication',
      entered_on: '2026-03-01',
      room_id: room,
    });
    const during = await newContamination(owner, {
      explant_id: explant.id,
      observed_at: '2026-02-15T12:00:00Z',
    });
    expect(during).toMatchObject({ stage: 'initiation', room_id: null });
    const later = await newContamination(owner, {
      explant_id: explant.id,
      observed_at: '2026-03-01T00:00:00Z',
    });
    expect(later).toMatchObject({ stage: 'multiplication', room_id: room });
    expect(dataOf(await owner.get(`/api/v1/contaminations/${later.id}`), 200)).toEqual(later);
  });

  it('records a contamination change-history event on the plant or explant', async () => {
    const plant = await newPlant(owner);
    const explant = await newExplant(owner);
    const onPlant = await newContamination(owner, {
      plant_id: plant.id,
      type: 'fungal',
      severity: 'critical',
      vessels_affected: 2,
      observed_at: '2026-02-02T10:00:00Z',
    });
    const onExplant = await newContamination(owner, { explant_id: explant.id });
    const plantEvents = await eventsOf(owner, 'plant');
    expect(plantEvents.map((e) => e.event_type)).toEqual(['created', 'contamination']);
    expect(plantEvents[1]).toMatchObject({
      entity_type: 'plant',
      entity_id: plant.id,
      event_time: '2026-02-02T10:00:00.000Z',
      recorded_by: lab.owner.memberId,
      payload: {
        contamination_id: onPlant.id,
        type: 'fungal',
        severity: 'critical',
        status: 'active',
        vessels_affected: 2,
        plants_affected: null,
        observed_at: '2026-02-02T10:00:00.000Z',
      },
    });
    const explantEvents = await eventsOf(owner, 'explant');
    expect(explantEvents.map((e) => e.event_type)).toEqual(['created', 'contamination']);
    expect(explantEvents[1]).toMatchObject({
      entity_id: explant.id,
      payload: { contamination_id: onExplant.id },
    });
  });

  it('stores the log and its event together or not at all', async () => {
    const plant = await newPlant(owner);
    const undo = await refuseEventInserts(t.database, lab.workspaceId);
    try {
      expectError(
        await owner.post('/api/v1/contaminations', {
          plant_id: plant.id,
          type: 'mold',
          issue: 'x',
        }),
        500,
        'CONTAMINATION_CREATE_FAILED',
      );
    } finally {
      await undo();
    }
    expect(await listAll(owner, '/api/v1/contaminations')).toEqual([]);
  });

  it('answers an unknown, deleted or wrong-kind record with 404, and an unknown log with 404', async () => {
    const plant = await newPlant(owner);
    const gone = await newPlant(owner);
    await markDeleted(t.database, 'plants', gone.id);
    for (const ids of [
      { plant_id: randomId() },
      { explant_id: randomId() },
      { explant_id: plant.id },
      { plant_id: gone.id },
    ]) {
      expectError(
        await owner.post('/api/v1/contaminations', { type: 'mold', issue: 'x', ...ids }),
        404,
        'NOT_FOUND',
      );
    }
    for (const query of [
      `plant_id=${randomId()}`,
      `explant_id=${plant.id}`,
      `plant_id=${gone.id}`,
    ]) {
      expectError(await owner.get(`/api/v1/contaminations?${query}`), 404, 'NOT_FOUND');
    }
    for (const bad of ['not-a-uuid', '123', '00000000-0000-0000-0000-00000000000g']) {
      expectSameAnswer(
        await owner.get(`/api/v1/contaminations/${bad}`),
        await owner.get(`/api/v1/contaminations/${randomId()}`),
        404,
        'NOT_FOUND',
      );
    }
    // A plant's id is no contamination's.
    expectError(await owner.get(`/api/v1/contaminations/${plant.id}`), 404, 'NOT_FOUND');
    expect((await eventsOf(owner, 'plant')).map((e) => e.event_type)).toEqual([
      'created',
      'created',
    ]);
  });

  it("answers another workspace's records and logs exactly as unknown ids, changing nothing", async () => {
    const other = await createLab(t.database, { name: 'Theirs' });
    const them = client(t, other.owner);
    const theirPlant = await newPlant(them);
    const theirExplant = await newExplant(them);
    const theirLog = await newContamination(them, { explant_id: theirExplant.id });
    const theirEvents = async () => ({
      plant: await eventsOf(them, 'plant'),
      explant: await eventsOf(them, 'explant'),
      logs: await listAll(them, '/api/v1/contaminations'),
    });
    const before = await theirEvents();
    for (const [kind, theirs] of [
      ['plant', theirPlant.id],
      ['explant', theirExplant.id],
    ] as const) {
      expectSameAnswer(
        await owner.post('/api/v1/contaminations', {
          type: 'mold',
          issue: 'x',
          [`${kind}_id`]: theirs,
        }),
        await owner.post('/api/v1/contaminations', {
          type: 'mold',
          issue: 'x',
          [`${kind}_id`]: randomId(),
        }),
        404,
        'NOT_FOUND',
      );
      expectSameAnswer(
        await owner.get(`/api/v1/contaminations?${kind}_id=${theirs}`),
        await owner.get(`/api/v1/contaminations?${kind}_id=${randomId()}`),
        404,
        'NOT_FOUND',
      );
    }
    expectSameAnswer(
      await owner.get(`/api/v1/contaminations/${theirLog.id}`),
      await owner.get(`/api/v1/contaminations/${randomId()}`),
      404,
      'NOT_FOUND',
    );
    expect(await listAll(owner, '/api/v1/contaminations')).toEqual([]);
    expect(await theirEvents()).toEqual(before);
  });

  describe('roles and scopes', () => {
    it("lets any member log a contamination on another member's record", async () => {
      const creator = client(t, await lab.actor('member'));
      const plant = await newPlant(creator);
      const colleague = await lab.actor('member');
      const log = await newContamination(client(t, colleague), { plant_id: plant.id });
      expect(log.logged_by).toBe(colleague.memberId);
    });

    it('refuses viewers, guests and keys without the scope, storing nothing; guests may read', async () => {
      const plant = await newPlant(owner);
      const payload = { plant_id: plant.id, type: 'mold', issue: 'x' };
      for (const role of ['viewer', 'guest'] as const) {
        expectError(
          await client(t, await lab.actor(role)).post('/api/v1/contaminations', payload),
          403,
          'FORBIDDEN',
          /member/,
        );
      }
      const readOnly = client(t, await lab.actor('owner', { scopes: ['read:contaminations'] }));
      expectError(
        await readOnly.post('/api/v1/contaminations', payload),
        403,
        'FORBIDDEN',
        /write:contaminations/,
      );
      expect(await listAll(owner, '/api/v1/contaminations')).toEqual([]);
      expect((await eventsOf(owner, 'plant')).map((e) => e.event_type)).toEqual(['created']);
      const log = await newContamination(owner, { plant_id: plant.id });
      const guest = client(t, await lab.actor('guest'));
      expect(dataOf(await guest.get(`/api/v1/contaminations/${log.id}`), 200)).toEqual(log);
      const writeOnly = client(t, await lab.actor('owner', { scopes: ['write:contaminations'] }));
      expectError(
        await writeOnly.get(`/api/v1/contaminations/${log.id}`),
        403,
        'FORBIDDEN',
        /read:contaminations/,
      );
    });
  });

  it('replays a write with the same Idempotency-Key', async () => {
    const plant = await newPlant(owner);
    const headers = { 'idempotency-key': 'contamination-01' };
    const payload = { plant_id: plant.id, type: 'algae', issue: 'Green film' };
    const first = await owner.post('/api/v1/contaminations', payload, headers);
    const again = await owner.post('/api/v1/contaminations', payload, headers);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(body(again)).toEqual(body(first));
    expect(await listAll(owner, '/api/v1/contaminations')).toEqual([body(first).data]);
    expect((await eventsOf(owner, 'plant')).map((e) => e.event_type)).toEqual([
      'created',
      'contamination',
    ]);
  });

  describe('list', () => {
    it('lists newest first and filters by plant_id, explant_id, status and since', async () => {
      const plant = await newPlant(owner);
      const explant = await newExplant(owner);
      const a = await newContamination(owner, { plant_id: plant.id, status: 'active' });
      // b, the since= edge below, must be created in a later millisecond than a.
      await tick();
      const b = await newContamination(owner, { explant_id: explant.id, status: 'resolved' });
      const c = await newContamination(owner, { plant_id: plant.id, status: 'resolved' });
      const d = await newContamination(owner, {
        explant_id: explant.id,
        status: 'under investigation',
      });
      const all = await listAll(owner, '/api/v1/contaminations');
      expect(idsOf(all)).toEqual([d.id, c.id, b.id, a.id]);
      expect(idsOf(await listAll(owner, `/api/v1/contaminations?plant_id=${plant.id}`))).toEqual([
        c.id,
        a.id,
      ]);
      expect(
        idsOf(await listAll(owner, `/api/v1/contaminations?explant_id=${explant.id}`)),
      ).toEqual([d.id, b.id]);
      expect(idsOf(await listAll(owner, '/api/v1/contaminations?status=resolved'))).toEqual([
        c.id,
        b.id,
      ]);
      expect(
        idsOf(await listAll(owner, '/api/v1/contaminations?status=under%20investigation')),
      ).toEqual([d.id]);
      expect(
        idsOf(await listAll(owner, `/api/v1/contaminations?plant_id=${plant.id}&status=resolved`)),
      ).toEqual([c.id]);
      // A log names one record: a plant and an explant together match nothing.
      expect(
        await listAll(
          owner,
          `/api/v1/contaminations?plant_id=${plant.id}&explant_id=${explant.id}`,
        ),
      ).toEqual([]);
      // since is inclusive and compares with created_at.
      const since = encodeURIComponent(b.created_at);
      expect(idsOf(await listAll(owner, `/api/v1/contaminations?since=${since}`))).toEqual([
        d.id,
        c.id,
        b.id,
      ]);
      expect(await listAll(owner, '/api/v1/contaminations?since=2999-01-01')).toEqual([]);
      expect(idsOf(await listAll(owner, '/api/v1/contaminations?since=2000-01-01'))).toEqual(
        idsOf(all),
      );
      for (const bad of [
        'status=open',
        'since=yesterday',
        'since=2026-01-01T10:00:00',
        'plant_id=x',
      ]) {
        expectError(await owner.get(`/api/v1/contaminations?${bad}`), 422, 'VALIDATION_ERROR');
      }
    });

    it('never lists or returns a withdrawn log', async () => {
      const plant = await newPlant(owner);
      const kept = await newContamination(owner, { plant_id: plant.id });
      const gone = await newContamination(owner, { plant_id: plant.id });
      await withdraw(t.database, gone.id);
      expect(await listAll(owner, '/api/v1/contaminations')).toEqual([kept]);
      expect(await listAll(owner, `/api/v1/contaminations?plant_id=${plant.id}`)).toEqual([kept]);
      expectError(await owner.get(`/api/v1/contaminations/${gone.id}`), 404, 'NOT_FOUND');
    });

    it('pages by cursor and offset, ties on created_at in id order, cursors bound to their filters', async () => {
      const plant = await newPlant(owner);
      const created: Json[] = [];
      for (let i = 0; i < 7; i++)
        created.push(await newContamination(owner, { plant_id: plant.id }));
      const expected = [...created].sort((x, y) =>
        x.created_at === y.created_at
          ? y.id.localeCompare(x.id)
          : y.created_at.localeCompare(x.created_at),
      );
      const seen: Json[] = [];
      let cursor: string | null = null;
      do {
        const res = await owner.get(
          `/api/v1/contaminations?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        seen.push(...dataOf(res, 200));
        cursor = body(res).meta.next_cursor;
      } while (cursor !== null);
      expect(seen).toEqual(expected);
      const offset = await owner.get('/api/v1/contaminations?limit=3&offset=5');
      expect(dataOf(offset, 200)).toEqual(expected.slice(5));
      expect(body(offset).meta).toEqual({ next_cursor: null });

      const first = body(await owner.get('/api/v1/contaminations?limit=2')).meta
        .next_cursor as string;
      const c = encodeURIComponent(first);
      expectError(
        await owner.get(`/api/v1/contaminations?status=active&cursor=${c}`),
        422,
        'INVALID_CURSOR',
      );
      expectError(
        await owner.get(`/api/v1/transfers?plant_id=${plant.id}&cursor=${c}`),
        422,
        'INVALID_CURSOR',
      );
      expectError(
        await owner.get(`/api/v1/contaminations?cursor=${c}&offset=0`),
        422,
        'VALIDATION_ERROR',
      );
      expect(dataOf(await owner.get(`/api/v1/contaminations?limit=2&cursor=${c}`), 200)).toEqual(
        expected.slice(2, 4),
      );
    });

    it('lists only the logs of its own workspace', async () => {
      const other = await createLab(t.database, { name: 'Theirs' });
      const them = client(t, other.owner);
      await newContamination(them, { plant_id: (await newPlant(them)).id });
      const mine = await newContamination(owner, { plant_id: (await newPlant(owner)).id });
      expect(await listAll(owner, '/api/v1/contaminations')).toEqual([mine]);
      const theirCursor = body(await them.get('/api/v1/contaminations?limit=1')).meta.next_cursor;
      expect(theirCursor).toBeNull();
    });
  });
});
