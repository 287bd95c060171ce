import { beforeEach, describe, expect, it } from 'vitest';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  client,
  type Client,
  dataOf,
  expectError,
  expectSameAnswer,
  ISO_MS,
  type Json,
  keysOf,
  listAll,
  newExplant,
  newPlant,
  randomId,
} from '../support/helpers.js';
import { addEquipment, minutesIn, setFeatures } from './library.js';
import { importSops, startRun, subcultureSop } from './sop-helpers.js';

const EVENT_KEYS = [
  'as_found_condition',
  'as_left_condition',
  'certificate_number',
  'certificate_url',
  'equipment_id',
  'id',
  'kind',
  'next_due_at',
  'notes',
  'occurred_at',
  'outcome',
  'performed_by_name',
  'provider',
  'recorded_at',
  'result_summary',
  'subject_id',
  'subject_label',
  'subject_type',
];

const NULL_EVENT = Object.fromEntries(
  EVENT_KEYS.filter((k) => !['id', 'equipment_id', 'kind', 'recorded_at'].includes(k)).map((k) => [
    k,
    null,
  ]),
);

describeOnDatabases('Equipment events', (target) => {
  const { t, lab, owner } = labSuite(target);
  let equipmentId: string;
  beforeEach(async () => {
    equipmentId = await addEquipment(t, lab.workspaceId, {}, minutesIn(0));
  });

  const eventsUrl = (id = equipmentId) => `/api/v1/equipment/${id}/events`;
  const record = (payload: unknown, c = owner, id = equipmentId) => c.post(eventsUrl(id), payload);
  const eventsOf = async (id = equipmentId): Promise<Json[]> => listAll(owner, eventsUrl(id));
  const equipmentOf = async (id = equipmentId): Promise<Json> =>
    dataOf(await owner.get(`/api/v1/equipment/${id}`), 200);

  describe('POST: the receipt and what is stored', () => {
    it('answers a camelCase receipt {id, equipmentId, kind, recordedAt}', async () => {
      const res = await record({ kind: 'calibration' });
      expect(res.statusCode).toBe(201);
      expect(res.headers['idempotent-replay']).toBe('false');
      const receipt = body(res).data;
      expect(keysOf(receipt)).toEqual(['equipmentId', 'id', 'kind', 'recordedAt']);
      expect(receipt).toMatchObject({ equipmentId, kind: 'calibration' });
      expect(receipt.recordedAt).toMatch(ISO_MS);
      const [stored] = await eventsOf();
      expect(stored).toMatchObject({ id: receipt.id, recorded_at: receipt.recordedAt });
    });

    it('reads back every field a calibration accepts, in the snake_case list', async () => {
      const sent = {
        kind: 'calibration',
        outcome: 'pass_after_adjustment',
        performed_at: '2026-11-10T09:30:00+02:00',
        performed_by_name: 'Luis Ortega',
        result_summary: '100 g check weight within 0.2 mg',
        notes: 'Levelled the feet first',
        next_due_at: '2027-02-10T07:30:00Z',
      };
      const receipt = dataOf(await record(sent), 201);
      const events = await eventsOf();
      expect(events).toHaveLength(1);
      expect(keysOf(events[0])).toEqual(EVENT_KEYS);
      expect(events[0]).toEqual({
        ...NULL_EVENT,
        id: receipt.id,
        equipment_id: equipmentId,
        kind: 'calibration',
        occurred_at: '2026-11-10T07:30:00.000Z',
        outcome: 'pass_after_adjustment',
        performed_by_name: 'Luis Ortega',
        result_summary: '100 g check weight within 0.2 mg',
        notes: 'Levelled the feet first',
        next_due_at: '2027-02-10T07:30:00.000Z',
        recorded_at: receipt.recordedAt,
      });
    });

    it('reads back a used event with its subject; the calibration fields stay null', async () => {
      const explant = await newExplant(owner);
      const sent = {
        kind: 'used',
        subject_type: 'explant_transfer',
        subject_id: explant.id,
        subject_label: 'FL-1 to fresh medium',
        used_at: '2026-11-12T08:00:00Z',
        notes: 'Hood on 15 min before',
      };
      const receipt = dataOf(await record(sent), 201);
      expect(receipt.kind).toBe('used');
      expect(await eventsOf()).toEqual([
        {
          ...NULL_EVENT,
          id: receipt.id,
          equipment_id: equipmentId,
          kind: 'used',
          occurred_at: '2026-11-12T08:00:00.000Z',
          subject_type: 'explant_transfer',
          subject_id: explant.id,
          subject_label: 'FL-1 to fresh medium',
          notes: 'Hood on 15 min before',
          recorded_at: receipt.recordedAt,
        },
      ]);
    });

    it('defaults the outcome to pass for calibration and maintenance, to none for service and fault', async () => {
      for (const kind of ['calibration', 'preventive_maintenance', 'service', 'fault']) {
        const receipt = dataOf(await record({ kind }), 201);
        expect(receipt.kind).toBe(kind);
      }
      const byKind = Object.fromEntries((await eventsOf()).map((e) => [e.kind, e]));
      expect(byKind.calibration.outcome).toBe('pass');
      expect(byKind.preventive_maintenance.outcome).toBe('pass');
      expect(byKind.service.outcome).toBeNull();
      expect(byKind.fault.outcome).toBeNull();
      expect(dataOf(await record({ kind: 'fault', outcome: 'fail' }), 201).kind).toBe('fault');
      expect((await eventsOf())[0].outcome).toBe('fail');
    });

    it('dates an event now when used_at or performed_at is not sent', async () => {
      const before = new Date().toISOString();
      const receipt = dataOf(await record({ kind: 'preventive_maintenance' }), 201);
      const [event] = await eventsOf();
      expect(event.occurred_at).toBe(receipt.recordedAt);
      expect(event.occurred_at >= before).toBe(true);
    });

    it.each([
      [{}, /^kind: is required/],
      [
        { kind: 'cleaning' },
        /^kind: must be one of: used, calibration, preventive_maintenance, service, fault/,
      ],
      [{ kind: 7 }, /^kind:/],
      [{ kind: 'used', subject_id: randomId() }, /^subject_type: is required/],
      [{ kind: 'used', subject_type: 'plant_transfer' }, /^subject_id: is required/],
      [{ kind: 'used', subject_type: 'plant', subject_id: randomId() }, /^subject_type:/],
      [{ kind: 'used', subject_type: 'media_batch', subject_id: 'x' }, /^subject_id:/],
      [
        { kind: 'used', subject_type: 'media_batch', subject_id: randomId(), outcome: 'pass' },
        /unknown field "outcome"/,
      ],
      [{ kind: 'calibration', subject_id: randomId() }, /unknown field "subject_id"/],
      [{ kind: 'calibration', used_at: '2026-11-01T00:00:00Z' }, /unknown field "used_at"/],
      [{ kind: 'calibration', outcome: 'ok' }, /^outcome: must be one of/],
      [{ kind: 'calibration', performed_at: '2026-11-01T08:00:00' }, /^performed_at:/],
      [{ kind: 'calibration', performed_at: '2026-02-30T08:00:00Z' }, /^performed_at:/],
      [{ kind: 'service', next_due_at: 'next week' }, /^next_due_at:/],
      [{ kind: 'fault', notes: 'x'.repeat(2001) }, /^notes: must be at most 2000/],
      [{ kind: 'calibration', performed_by_name: 'x'.repeat(201) }, /^performed_by_name:/],
      [
        {
          kind: 'used',
          subject_type: 'media_batch',
          subject_id: randomId(),
          subject_label: 'x'.repeat(201),
        },
        /^subject_label:/,
      ],
      [{ kind: 'fault', notes: 'a\u0000b' }, /^notes: must not contain a NUL/],
    ])('refuses %j with 422 and records nothing', async (payload, error) => {
      expectError(await record(payload), 422, 'VALIDATION_ERROR', error);
      expect(await eventsOf()).toEqual([]);
      expect((await equipmentOf()).updated_at).toBe(minutesIn(0));
    });

    it('answers a body that is not JSON with 400', async () => {
      const res = await t.request({
        method: 'POST',
        url: eventsUrl(),
        headers: { ...lab.owner.headers, 'content-type': 'application/json' },
        payload: '{"kind":',
      });
      expectError(res, 400, 'VALIDATION_ERROR');
    });
  });

  describe('the equipment dates (decision 6)', () => {
    it('a calibration sets last_calibrated_at and, with next_due_at, the next calibration', async () => {
      dataOf(
        await record({
          kind: 'calibration',
          performed_at: '2026-11-05T10:00:00Z',
          next_due_at: '2027-05-05',
        }),
        201,
      );
      const after = await equipmentOf();
      expect(after).toMatchObject({
        last_calibrated_at: '2026-11-05T10:00:00.000Z',
        next_calibration_due_at: '2027-05-05T00:00:00.000Z',
        last_maintenance_at: null,
        next_maintenance_due_at: null,
      });
      expect(after.updated_at > minutesIn(0)).toBe(true);

      // Without next_due_at, a later calibration keeps the due date it had.
      dataOf(await record({ kind: 'calibration', performed_at: '2026-11-06T10:00:00Z' }), 201);
      expect(await equipmentOf()).toMatchObject({
        last_calibrated_at: '2026-11-06T10:00:00.000Z',
        next_calibration_due_at: '2027-05-05T00:00:00.000Z',
      });
    });

    it.each(['preventive_maintenance', 'service'])(
      '%s sets last_maintenance_at and the next maintenance',
      async (kind) => {
        dataOf(
          await record({
            kind,
            performed_at: '2026-11-07T12:00:00-05:00',
            next_due_at: '2027-01-07T00:00:00+01:00',
          }),
          201,
        );
        expect(await equipmentOf()).toMatchObject({
          last_maintenance_at: '2026-11-07T17:00:00.000Z',
          next_maintenance_due_at: '2027-01-06T23:00:00.000Z',
          last_calibrated_at: null,
          next_calibration_due_at: null,
        });
      },
    );

    it('a fault or a use changes no date of the equipment', async () => {
      const plant = await newPlant(owner);
      dataOf(await record({ kind: 'fault', next_due_at: '2027-01-01' }), 201);
      dataOf(
        await record({ kind: 'used', subject_type: 'plant_transfer', subject_id: plant.id }),
        201,
      );
      const after = await equipmentOf();
      expect(after).toMatchObject({
        last_calibrated_at: null,
        next_calibration_due_at: null,
        last_maintenance_at: null,
        next_maintenance_due_at: null,
        updated_at: minutesIn(0),
      });
      expect((await eventsOf()).map((e) => e.kind)).toEqual(['used', 'fault']);
    });

    it('an event recorded late for an earlier date is history: the dates stay', async () => {
      dataOf(
        await record({
          kind: 'calibration',
          performed_at: '2026-11-10T00:00:00Z',
          next_due_at: '2027-11-10',
        }),
        201,
      );
      const before = await equipmentOf();
      dataOf(
        await record({
          kind: 'calibration',
          outcome: 'fail',
          performed_at: '2026-10-01T00:00:00Z',
          next_due_at: '2026-10-02',
        }),
        201,
      );
      expect(await equipmentOf()).toEqual(before);
      expect((await eventsOf()).map((e) => e.occurred_at)).toEqual([
        '2026-11-10T00:00:00.000Z',
        '2026-10-01T00:00:00.000Z',
      ]);
    });

    it('concurrent calibrations leave the latest one in force', async () => {
      const days = [3, 9, 1, 7, 5, 8, 2, 6, 4, 10];
      const answers = await Promise.all(
        days.map((day) =>
          record({
            kind: 'calibration',
            performed_at: `2026-11-${String(day).padStart(2, '0')}T08:00:00Z`,
            next_due_at: `2027-11-${String(day).padStart(2, '0')}`,
          }),
        ),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(days.map(() => 201));
      expect(await equipmentOf()).toMatchObject({
        last_calibrated_at: '2026-11-10T08:00:00.000Z',
        next_calibration_due_at: '2027-11-10T00:00:00.000Z',
      });
      expect(await eventsOf()).toHaveLength(10);
    });
  });

  describe('the subject of a used event', () => {
    it('accepts a plant for plant_transfer and an explant for explant_transfer', async () => {
      const plant = await newPlant(owner);
      const explant = await newExplant(owner, { plant_id: plant.id });
      expect(
        (await record({ kind: 'used', subject_type: 'plant_transfer', subject_id: plant.id }))
          .statusCode,
      ).toBe(201);
      expect(
        (await record({ kind: 'used', subject_type: 'explant_transfer', subject_id: explant.id }))
          .statusCode,
      ).toBe(201);
      expect((await eventsOf()).map((e) => [e.subject_type, e.subject_id])).toEqual([
        ['explant_transfer', explant.id],
        ['plant_transfer', plant.id],
      ]);
    });

    it('answers 404 for a subject that is not in the workspace, records nothing', async () => {
      const plant = await newPlant(owner);
      const explant = await newExplant(owner);
      const other = await createLab(t.database, { name: 'Other lab' });
      const theirs = client(t, other.owner);
      const theirPlant = await newPlant(theirs);
      const theirExplant = await newExplant(theirs);
      const reference = await record({
        kind: 'used',
        subject_type: 'plant_transfer',
        subject_id: randomId(),
      });
      expectError(reference, 404, 'NOT_FOUND', /plant_transfer subject not found/);
      expectSameAnswer(
        await record({ kind: 'used', subject_type: 'plant_transfer', subject_id: theirPlant.id }),
        reference,
        404,
        'NOT_FOUND',
      );
      // An explant is no plant transfer's subject, and the other way round.
      expectSameAnswer(
        await record({ kind: 'used', subject_type: 'plant_transfer', subject_id: explant.id }),
        reference,
        404,
        'NOT_FOUND',
      );
      const explantReference = await record({
        kind: 'used',
        subject_type: 'explant_transfer',
        subject_id: randomId(),
      });
      expectError(explantReference, 404, 'NOT_FOUND');
      for (const id of [theirExplant.id, plant.id]) {
        expectSameAnswer(
          await record({ kind: 'used', subject_type: 'explant_transfer', subject_id: id }),
          explantReference,
          404,
          'NOT_FOUND',
        );
      }
      expect(await eventsOf()).toEqual([]);
    });

    /** A transfer of a plant and of an explant, a contamination and an SOP run, made by `c`. */
    const subjectsOf = async (c: Client, workspaceId: string) => {
      const plant = await newPlant(c);
      const explant = await newExplant(c, { plant_id: plant.id });
      const post = async (url: string, fields: object) => dataOf(await c.post(url, fields), 201);
      const made = subcultureSop();
      await importSops(t.database, workspaceId, [made.sop]);
      return {
        plantTransfer: (await post('/api/v1/transfers', { plant_id: plant.id })).id as string,
        explantTransfer: (await post('/api/v1/transfers', { explant_id: explant.id })).id as string,
        contamination: (
          await post('/api/v1/contaminations', {
            explant_id: explant.id,
            type: 'mold',
            issue: 'White fuzz',
          })
        ).id as string,
        run: (await startRun(c, { sop_id: made.ids.sop })).id as string,
      };
    };

    it('accepts a transfer, a contamination and an SOP run of the workspace as subjects', async () => {
      const mine = await subjectsOf(owner, lab.workspaceId);
      const sent: [string, string][] = [
        ['plant_transfer', mine.plantTransfer],
        ['explant_transfer', mine.explantTransfer],
        ['contamination_log', mine.contamination],
        ['sop_log', mine.run],
      ];
      for (const [subject_type, subject_id] of sent) {
        dataOf(await record({ kind: 'used', subject_type, subject_id }), 201);
      }
      expect((await eventsOf()).map((e) => [e.subject_type, e.subject_id])).toEqual(
        [...sent].reverse(),
      );
    });

    it('answers a transfer, contamination or SOP run of another workspace exactly as a random id', async () => {
      const other = await createLab(t.database, { name: 'Other lab' });
      const theirs = await subjectsOf(client(t, other.owner), other.workspaceId);
      const sent: [string, string][] = [
        ['plant_transfer', theirs.plantTransfer],
        ['explant_transfer', theirs.explantTransfer],
        ['contamination_log', theirs.contamination],
        ['sop_log', theirs.run],
      ];
      for (const [subject_type, subject_id] of sent) {
        const reference = await record({ kind: 'used', subject_type, subject_id: randomId() });
        expectError(reference, 404, 'NOT_FOUND', new RegExp(`^${subject_type} subject not found`));
        expectSameAnswer(
          await record({ kind: 'used', subject_type, subject_id }),
          reference,
          404,
          'NOT_FOUND',
        );
      }
      expect(await eventsOf()).toEqual([]);
    });

    it("answers an explant's transfer as a plant_transfer subject, and the other way round, as a random id", async () => {
      const mine = await subjectsOf(owner, lab.workspaceId);
      const crossed: [string, string][] = [
        ['plant_transfer', mine.explantTransfer],
        ['explant_transfer', mine.plantTransfer],
        ['plant_transfer', mine.run],
        ['sop_log', mine.plantTransfer],
        ['contamination_log', mine.run],
      ];
      for (const [subject_type, subject_id] of crossed) {
        expectSameAnswer(
          await record({ kind: 'used', subject_type, subject_id }),
          await record({ kind: 'used', subject_type, subject_id: randomId() }),
          404,
          'NOT_FOUND',
        );
      }
      expect(await eventsOf()).toEqual([]);
    });

    it('does not check subjects of kinds Vitro keeps no records of (media batches)', async () => {
      const subject = randomId();
      dataOf(
        await record({
          kind: 'used',
          subject_type: 'media_batch',
          subject_id: subject,
          subject_label: 'MS + BAP, 20 vessels',
        }),
        201,
      );
      expect((await eventsOf())[0]).toMatchObject({
        subject_type: 'media_batch',
        subject_id: subject,
        subject_label: 'MS + BAP, 20 vessels',
      });
    });
  });

  describe('the equipment of the path', () => {
    it("answers another workspace's equipment exactly as a random id, records nothing", async () => {
      const other = await createLab(t.database, { name: 'Other lab' });
      const theirs = await addEquipment(t, other.workspaceId);
      const payload = { kind: 'calibration', next_due_at: '2027-01-01' };
      const reference = await record(payload, owner, randomId());
      expectError(reference, 404, 'NOT_FOUND', /^Equipment not found$/);
      expectSameAnswer(await record(payload, owner, theirs), reference, 404, 'NOT_FOUND');
      expectSameAnswer(await record(payload, owner, 'not-a-uuid'), reference, 404, 'NOT_FOUND');
      const theirOwner = client(t, other.owner);
      expect(dataOf(await theirOwner.get(eventsUrl(theirs)), 200)).toEqual([]);
      expect(
        dataOf(await theirOwner.get(`/api/v1/equipment/${theirs}`), 200).next_calibration_due_at,
      ).toBeNull();

      const listReference = await owner.get(eventsUrl(randomId()));
      expectError(listReference, 404, 'NOT_FOUND');
      expectSameAnswer(await owner.get(eventsUrl(theirs)), listReference, 404, 'NOT_FOUND');
      expectSameAnswer(await owner.get(eventsUrl('nope')), listReference, 404, 'NOT_FOUND');
    });

    it('records events on archived equipment too', async () => {
      const archived = await addEquipment(t, lab.workspaceId, { status: 'archived' });
      expect((await record({ kind: 'fault' }, owner, archived)).statusCode).toBe(201);
    });
  });

  describe('access', () => {
    it.each(['guest', 'viewer'] as const)(
      'refuses a %s with 403 naming the role, and nothing changes',
      async (role) => {
        const weak = client(t, await lab.actor(role));
        expectError(await record({ kind: 'calibration' }, weak), 403, 'FORBIDDEN', /member role/);
        expect(await eventsOf()).toEqual([]);
        expect((await equipmentOf()).last_calibrated_at).toBeNull();
        // Reading the history needs no more than a guest.
        expect(dataOf(await weak.get(eventsUrl()), 200)).toEqual([]);
      },
    );

    it('lets a member record', async () => {
      const member = client(t, await lab.actor('member'));
      expect((await record({ kind: 'calibration' }, member)).statusCode).toBe(201);
    });

    it('refuses a key without write:equipment_events, and device tokens', async () => {
      const reader = client(t, await lab.actor('owner', { scopes: ['read:equipment'] }));
      expectError(
        await record({ kind: 'calibration' }, reader),
        403,
        'FORBIDDEN',
        /write:equipment_events/,
      );
      const device = client(t, await lab.deviceToken());
      expectError(await record({ kind: 'calibration' }, device), 403, 'DEVICE_TOKEN_NOT_ACCEPTED');
      expect(await eventsOf()).toEqual([]);
    });
  });

  describe('the equipment_calibration feature', () => {
    it('off: calibration, maintenance, service and fault are 402, nothing changes; use is recorded', async () => {
      await setFeatures(t, lab.workspaceId, ['pricing', 'commerce']);
      for (const kind of ['calibration', 'preventive_maintenance', 'service', 'fault']) {
        expectError(
          await record({ kind, next_due_at: '2027-01-01' }),
          402,
          'FEATURE_NOT_INCLUDED',
          /equipment_calibration/,
        );
      }
      expect(await equipmentOf()).toMatchObject({
        last_calibrated_at: null,
        next_calibration_due_at: null,
        last_maintenance_at: null,
        updated_at: minutesIn(0),
      });
      const plant = await newPlant(owner);
      expect(
        (await record({ kind: 'used', subject_type: 'plant_transfer', subject_id: plant.id }))
          .statusCode,
      ).toBe(201);
      expectError(await owner.get(eventsUrl()), 402, 'FEATURE_NOT_INCLUDED');

      await setFeatures(t, lab.workspaceId, ['equipment_calibration']);
      expect((await eventsOf()).map((e) => e.kind)).toEqual(['used']);
      expect((await record({ kind: 'calibration' })).statusCode).toBe(201);
    });

    it('off: the list answers 402 whatever the equipment id', async () => {
      await setFeatures(t, lab.workspaceId, []);
      expectError(await owner.get(eventsUrl()), 402, 'FEATURE_NOT_INCLUDED');
      expectError(await owner.get(eventsUrl(randomId())), 402, 'FEATURE_NOT_INCLUDED');
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first receipt and records once', async () => {
      const headers = { 'idempotency-key': 'calibration:0001' };
      const payload = { kind: 'calibration', performed_at: '2026-11-01T08:00:00Z' };
      const first = await owner.post(eventsUrl(), payload, headers);
      const again = await owner.post(eventsUrl(), payload, headers);
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replay']).toBe('true');
      expect(body(again)).toEqual(body(first));
      expect(await eventsOf()).toHaveLength(1);

      expectError(
        await owner.post(eventsUrl(), { ...payload, notes: 'different' }, headers),
        422,
        'VALIDATION_ERROR',
      );
      expectError(
        await owner.post(eventsUrl(), payload, { 'idempotency-key': 'short' }),
        422,
        'VALIDATION_ERROR',
      );
      expect(await eventsOf()).toHaveLength(1);
    });
  });

  describe('GET: the history', () => {
    it('lists newest first by when it happened, ties in a fixed order', async () => {
      const at = ['2026-11-03T08:00:00Z', '2026-11-01T08:00:00Z', '2026-11-03T08:00:00Z'];
      const ids: string[] = [];
      for (const performed_at of at) {
        ids.push(dataOf(await record({ kind: 'fault', performed_at }), 201).id);
      }
      const tied = [ids[0]!, ids[2]!].sort().reverse();
      expect((await eventsOf()).map((e) => e.id)).toEqual([...tied, ids[1]]);
      expect((await listAll(owner, eventsUrl(), 1)).map((e) => e.id)).toEqual([...tied, ids[1]]);
    });

    it('filters by kind; without kind only cursors page, with kind offsets too', async () => {
      const plant = await newPlant(owner);
      for (let i = 0; i < 3; i++) {
        dataOf(await record({ kind: 'calibration', performed_at: minutesIn(10 + i * 10) }), 201);
        dataOf(
          await record({
            kind: 'used',
            subject_type: 'plant_transfer',
            subject_id: plant.id,
            used_at: minutesIn(15 + i * 10),
          }),
          201,
        );
      }
      const kinds = (await eventsOf()).map((e) => e.kind);
      expect(kinds).toEqual(['used', 'calibration', 'used', 'calibration', 'used', 'calibration']);
      const calibrations = await listAll(owner, `${eventsUrl()}?kind=calibration`, 2);
      expect(calibrations.map((e) => e.occurred_at)).toEqual([
        minutesIn(30),
        minutesIn(20),
        minutesIn(10),
      ]);
      expect(dataOf(await owner.get(`${eventsUrl()}?kind=service`), 200)).toEqual([]);

      expectError(await owner.get(`${eventsUrl()}?offset=1`), 422, 'VALIDATION_ERROR', /^offset:/);
      expectError(await owner.get(`${eventsUrl()}?offset=0`), 422, 'VALIDATION_ERROR');
      const page = dataOf(await owner.get(`${eventsUrl()}?kind=used&offset=1&limit=1`), 200);
      expect(page.map((e: Json) => e.occurred_at)).toEqual([minutesIn(25)]);
      expectError(await owner.get(`${eventsUrl()}?kind=broken`), 422, 'VALIDATION_ERROR');

      const first = body(await owner.get(`${eventsUrl()}?limit=2`));
      expectError(
        await owner.get(
          `${eventsUrl()}?kind=used&limit=2&cursor=${encodeURIComponent(first.meta.next_cursor)}`,
        ),
        422,
        'INVALID_CURSOR',
      );
    });

    it('windows by from and to, both inclusive; from later than to is 422', async () => {
      for (const minute of [10, 20, 30, 40]) {
        dataOf(await record({ kind: 'fault', performed_at: minutesIn(minute) }), 201);
      }
      const times = async (query: string) =>
        (dataOf(await owner.get(`${eventsUrl()}?${query}`), 200) as Json[]).map(
          (e) => e.occurred_at,
        );
      const from = encodeURIComponent(minutesIn(20));
      const to = encodeURIComponent(minutesIn(30));
      expect(await times(`from=${from}&to=${to}`)).toEqual([minutesIn(30), minutesIn(20)]);
      expect(await times(`from=${from}`)).toEqual([minutesIn(40), minutesIn(30), minutesIn(20)]);
      expect(await times(`to=${to}`)).toEqual([minutesIn(30), minutesIn(20), minutesIn(10)]);
      expect(await times(`from=${from}&to=${from}`)).toEqual([minutesIn(20)]);
      // The same instant written with an offset.
      expect(await times(`from=${encodeURIComponent('2026-11-01T01:20:00+01:00')}`)).toHaveLength(
        3,
      );
      const justAfter = encodeURIComponent('2026-11-01T00:20:00.001Z');
      expect(await times(`from=${justAfter}&to=${to}`)).toEqual([minutesIn(30)]);
      expectError(
        await owner.get(`${eventsUrl()}?from=${to}&to=${from}`),
        422,
        'VALIDATION_ERROR',
        /^from: must not be later than to/,
      );
      expectError(
        await owner.get(`${eventsUrl()}?from=2026-11-01T00:00:00`),
        422,
        'VALIDATION_ERROR',
        /^from:/,
      );
    });
  });
});
