import { beforeEach, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { changeDeviceStatus } from '../../src/modules/devices/index.js';
import {
  addRoom,
  client,
  dataOf,
  expectError,
  expectSameAnswer,
  GENEROUS_LIMITS,
  ISO_MS,
  keysOf,
  listAll,
  randomId,
  type Client,
} from '../support/helpers.js';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { batchOf, newDevice, newToken, outcomes, READING_KEYS, reading } from './helpers.js';

const URL = '/api/v1/sensor-readings';

describeOnDatabases('POST /sensor-readings', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });
  let device: { id: string; room_id: string | null };
  beforeEach(async () => {
    device = await newDevice(owner);
  });

  /** Every stored reading of the workspace, newest first. */
  const stored = (c: Client = owner) => listAll(c, URL, 1000);
  const setStatus = (id: string, status: string) =>
    inTransaction(t.database.db, (trx) => changeDeviceStatus(trx, id, status));

  it('stores one reading and answers it with the documented fields and defaults', async () => {
    const before = new Date().toISOString();
    const res = await owner.post(URL, reading(device.id));
    const data = dataOf(res, 201);
    expect(keysOf(data)).toEqual(READING_KEYS);
    expect(data).toMatchObject({
      device_id: device.id,
      team_id: lab.workspaceId,
      room_id: null,
      type: 'temperature',
      value: 21.5,
      unit: 'C',
      notes: null,
      external_id: null,
    });
    expect(data.recorded_at).toMatch(ISO_MS);
    expect(data.recorded_at >= before).toBe(true);
    expect(data.created_at).toBe(data.recorded_at);
    expect(body(res).meta).toBeUndefined();
    expect(await stored()).toEqual([data]);
    const listed = dataOf(await owner.get('/api/v1/devices'), 200);
    expect(listed[0].last_seen_at).toBe(data.created_at);
  });

  it('reads back every field it accepts; recorded_at with an offset is kept as UTC', async () => {
    const room = await addRoom(t.database, lab.workspaceId);
    const data = dataOf(
      await owner.post(
        URL,
        reading(device.id, {
          type: 'ph',
          value: -0.25,
          unit: 'pH',
          room_id: room,
          recorded_at: '2026-11-20T10:00:00+02:00',
          notes: 'after calibration',
          external_id: 'ph-1',
        }),
      ),
      201,
    );
    expect(data).toMatchObject({
      type: 'ph',
      value: -0.25,
      unit: 'pH',
      room_id: room,
      recorded_at: '2026-11-20T08:00:00.000Z',
      notes: 'after calibration',
      external_id: 'ph-1',
    });
    expect(await stored()).toEqual([data]);
  });

  it('keeps text and numbers of a batch exactly as sent, whatever characters they hold', async () => {
    const texts = [
      'say "hi"',
      'back\\slash \\" both',
      'NULL',
      'null',
      '{a,b}',
      ' padded, with commas ',
      '',
      'température ±0.5 °C — 温度 🌡',
      '\t tab and\nnewline',
    ];
    const values = [1e-7, -0.25, 1.5e300, -1.5e-300, 123456789.125, 0];
    const batch = texts.map((text, i) => ({
      ...reading(device.id, {
        recorded_at: `2026-11-20T08:00:0${i}.000Z`,
        value: values[i % values.length],
        external_id: text === '' ? 'empty' : `${text} #${i}`,
      }),
      unit: text === '' ? 'u' : text.slice(0, 20),
      notes: text,
    }));
    const data = dataOf(await owner.post(URL, { readings: batch }), 201);
    const sent = batch.map(({ value, unit, notes, external_id }) => ({
      value,
      unit,
      notes,
      external_id,
    }));
    const fieldsOf = (r: { value: number; unit: string; notes: string; external_id: string }) => ({
      value: r.value,
      unit: r.unit,
      notes: r.notes,
      external_id: r.external_id,
    });
    expect(data.map(fieldsOf)).toEqual(sent);
    const listed = (await stored()).sort((a, b) => a.recorded_at.localeCompare(b.recorded_at));
    expect(listed.map(fieldsOf)).toEqual(sent);
  });

  it("takes the device's room when a reading names none", async () => {
    const room = await addRoom(t.database, lab.workspaceId);
    const placed = await newDevice(owner, { name: 'Placed', room_id: room });
    const data = dataOf(await owner.post(URL, reading(placed.id)), 201);
    expect(data.room_id).toBe(room);
  });

  it('answers a batch with an array in the order sent', async () => {
    const batch = batchOf(device.id, 5);
    const data = dataOf(await owner.post(URL, { readings: batch }), 201);
    expect(Array.isArray(data)).toBe(true);
    expect(data.map((r: { external_id: string }) => r.external_id)).toEqual(
      batch.map((r) => r.external_id),
    );
    for (const r of data) expect(keysOf(r)).toEqual(READING_KEYS);
    expect(await stored()).toHaveLength(5);
  });

  it('accepts a batch of 500 and refuses 501 or none (422), storing nothing', async () => {
    expectError(
      await owner.post(URL, { readings: batchOf(device.id, 501) }),
      422,
      'VALIDATION_ERROR',
      /readings/,
    );
    expectError(await owner.post(URL, { readings: [] }), 422, 'VALIDATION_ERROR', /readings/);
    expect(await stored()).toEqual([]);
    expect(dataOf(await owner.post(URL, { readings: batchOf(device.id, 500) }), 201)).toHaveLength(
      500,
    );
  });

  describe('deduplication on device + external_id + recorded_at', () => {
    it('stores a repeated single reading once and answers the stored one with meta.duplicate', async () => {
      const first = dataOf(
        await owner.post(
          URL,
          reading(device.id, { external_id: 'x-1', recorded_at: '2026-11-20T08:00:00Z' }),
        ),
        201,
      );
      const again = await owner.post(
        URL,
        reading(device.id, {
          value: 99,
          external_id: 'x-1',
          recorded_at: '2026-11-20T09:00:00.000+01:00',
        }),
      );
      expect(again.statusCode).toBe(201);
      expect(body(again)).toEqual({ ok: true, data: first, meta: { duplicate: true } });
      expect(await stored()).toEqual([first]);
    });

    it('leaves repeats out of a later batch and stores only the new readings', async () => {
      const firstBatch = dataOf(await owner.post(URL, { readings: batchOf(device.id, 5) }), 201);
      const retry = dataOf(
        await owner.post(URL, { readings: batchOf(device.id, 5, { from: 3 }) }),
        201,
      );
      expect(retry.map((r: { external_id: string }) => r.external_id)).toEqual([
        'r-5',
        'r-6',
        'r-7',
      ]);
      const all = await stored();
      expect(all).toHaveLength(8);
      expect(all).toEqual(expect.arrayContaining(firstBatch));
      // The whole batch again: nothing new, an empty answer.
      expect(dataOf(await owner.post(URL, { readings: batchOf(device.id, 8) }), 201)).toEqual([]);
      expect(await stored()).toHaveLength(8);
    });

    it('stores a repeat inside one batch once; same external id at another time is another reading', async () => {
      const at = '2026-11-20T08:00:00.000Z';
      const data = dataOf(
        await owner.post(URL, {
          readings: [
            reading(device.id, { external_id: 'e', recorded_at: at, value: 1 }),
            reading(device.id, { external_id: 'e', recorded_at: '2026-11-20T08:00:00Z', value: 2 }),
            reading(device.id, { external_id: 'e', recorded_at: '2026-11-20T08:00:01Z', value: 3 }),
            reading(device.id, { external_id: 'f', recorded_at: at, value: 4 }),
            reading(device.id, { value: 5 }),
            reading(device.id, { value: 5 }),
          ],
        }),
        201,
      );
      expect(data.map((r: { value: number }) => r.value)).toEqual([1, 3, 4, 5, 5]);
      expect(await stored()).toHaveLength(5);
    });

    it('keeps readings of two devices with the same external id and time apart', async () => {
      const other = await newDevice(owner, { name: 'Other' });
      const at = '2026-11-20T08:00:00.000Z';
      const data = dataOf(
        await owner.post(URL, {
          readings: [
            reading(device.id, { external_id: 'same', recorded_at: at }),
            reading(other.id, { external_id: 'same', recorded_at: at }),
          ],
        }),
        201,
      );
      expect(data).toHaveLength(2);
      expect(new Set(data.map((r: { id: string }) => r.id)).size).toBe(2);
    });

    it('stores every reading once when the same batch is sent 6 times at once', async () => {
      const batch = batchOf(device.id, 200);
      const responses = await Promise.all(
        Array.from({ length: 6 }, () => owner.post(URL, { readings: batch })),
      );
      expect(outcomes(responses)).toEqual(Array<string>(6).fill('201'));
      const answered = responses.flatMap((r) => body(r).data as { external_id: string }[]);
      expect(answered.map((r) => r.external_id).sort()).toEqual(
        batch.map((r) => r.external_id).sort(),
      );
      expect(await stored()).toHaveLength(200);
    });

    it('needs recorded_at with external_id (422), storing nothing', async () => {
      expectError(
        await owner.post(URL, reading(device.id, { external_id: 'x' })),
        422,
        'VALIDATION_ERROR',
        /^recorded_at/,
      );
      expectError(
        await owner.post(URL, {
          readings: [...batchOf(device.id, 2), reading(device.id, { external_id: 'x' })],
        }),
        422,
        'VALIDATION_ERROR',
        /readings\[2\]\.recorded_at/,
      );
      expect(await stored()).toEqual([]);
    });
  });

  describe('all or nothing', () => {
    it('refuses a batch with one invalid reading (422 naming it) and stores none', async () => {
      const batch = batchOf(device.id, 5);
      (batch[3] as Record<string, unknown>).unit = '';
      expectError(
        await owner.post(URL, { readings: batch }),
        422,
        'VALIDATION_ERROR',
        /^readings\[3\]\.unit: /,
      );
      expect(await stored()).toEqual([]);
    });

    it.each([
      ['value: not a number', { value: 'warm' }],
      ['value: null', { value: null }],
      ['an empty type', { type: '' }],
      ['a type over 50 characters', { type: 'p'.repeat(51) }],
      [
        'recorded_at and timestamp naming two moments',
        { recorded_at: '2026-11-20T08:00:00Z', timestamp: '2026-11-20T09:00:00+02:00' },
      ],
      ['recorded_at without a zone', { recorded_at: '2026-11-20T08:00:00' }],
      ['unknown field', { sensor: 'x' }],
      ['notes too long', { notes: 'n'.repeat(501) }],
      [
        'external_id too long',
        { external_id: 'e'.repeat(201), recorded_at: '2026-11-20T08:00:00Z' },
      ],
    ])('refuses %s with 422', async (_what, fields) => {
      expectError(await owner.post(URL, reading(device.id, fields)), 422, 'VALIDATION_ERROR');
      expect(await stored()).toEqual([]);
    });

    it('refuses a value beyond a finite number (1e309) with 422', async () => {
      const res = await t.request({
        method: 'POST',
        url: URL,
        headers: { ...lab.owner.headers, 'content-type': 'application/json' },
        payload: `{"device_id":"${device.id}","type":"ph","value":1e309,"unit":"pH"}`,
      });
      expectError(res, 422, 'VALIDATION_ERROR', /value/);
      expect(await stored()).toEqual([]);
    });

    it('refuses invalid JSON with 400', async () => {
      const res = await t.request({
        method: 'POST',
        url: URL,
        headers: { ...lab.owner.headers, 'content-type': 'application/json' },
        payload: '{"device_id":',
      });
      expectError(res, 400, 'VALIDATION_ERROR');
    });

    it('answers a device of another workspace as an unknown one (404) and stores none of the batch', async () => {
      const other = await createLab(t.database, { name: 'Other lab' });
      const theirs = await newDevice(client(t, other.owner));
      const batch = (id: string) => ({ readings: [...batchOf(device.id, 3), reading(id)] });
      expectSameAnswer(
        await owner.post(URL, batch(theirs.id)),
        await owner.post(URL, batch(randomId())),
        404,
        'NOT_FOUND',
      );
      expect(await stored()).toEqual([]);
      expect(await stored(client(t, other.owner))).toEqual([]);
    });

    it('answers a room of another workspace as an unknown one (404)', async () => {
      const other = await createLab(t.database, { name: 'Other lab' });
      const theirRoom = await addRoom(t.database, other.workspaceId);
      expectSameAnswer(
        await owner.post(URL, reading(device.id, { room_id: theirRoom })),
        await owner.post(URL, reading(device.id, { room_id: randomId() })),
        404,
        'NOT_FOUND',
      );
      expect(await stored()).toEqual([]);
    });

    it.each(['paused', 'retired'])(
      'refuses readings of a %s device with 409 DEVICE_INGEST_DISABLED, storing none of the batch',
      async (status) => {
        const stopped = await newDevice(owner, { name: 'Stopped' });
        await setStatus(stopped.id, status);
        expectError(
          await owner.post(URL, reading(stopped.id)),
          409,
          'DEVICE_INGEST_DISABLED',
          new RegExp(status),
        );
        expectError(
          await owner.post(URL, { readings: [...batchOf(device.id, 3), reading(stopped.id)] }),
          409,
          'DEVICE_INGEST_DISABLED',
        );
        expect(await stored()).toEqual([]);
        await setStatus(stopped.id, 'active');
        expect((await owner.post(URL, reading(stopped.id))).statusCode).toBe(201);
      },
    );

    it.runIf(target.name === 'postgres')(
      'refuses a batch whose device is paused while the batch is checked (409, nothing stored)',
      async () => {
        let paused!: () => void;
        const pauseWritten = new Promise<void>((resolve) => (paused = resolve));
        let commit!: () => void;
        const committing = new Promise<void>((resolve) => (commit = resolve));
        // The CLI pauses the device in another transaction, not yet committed.
        const pause = inTransaction(t.database.db, async (trx) => {
          await changeDeviceStatus(trx, device.id, 'paused');
          paused();
          await committing;
        });
        await pauseWritten;
        let settled = false;
        const ingest = owner.post(URL, { readings: batchOf(device.id, 3) }).finally(() => {
          settled = true;
        });
        // The batch waits for the pause instead of reading the status from before it.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(settled).toBe(false);
        commit();
        await pause;
        expectError(await ingest, 409, 'DEVICE_INGEST_DISABLED', /paused/);
        expect(await stored()).toEqual([]);
      },
    );
  });

  describe('who may', () => {
    it('lets a device token send readings of its own device only (403 DEVICE_TOKEN_WRONG_DEVICE)', async () => {
      const other = await newDevice(owner, { name: 'Other' });
      const token = await newToken(owner, device.id);
      const asDevice = client(t, token);
      const mine = dataOf(await asDevice.post(URL, { readings: batchOf(device.id, 2) }), 201);
      expect(mine).toHaveLength(2);
      expectError(await asDevice.post(URL, reading(other.id)), 403, 'DEVICE_TOKEN_WRONG_DEVICE');
      expectError(
        await asDevice.post(URL, {
          readings: [...batchOf(device.id, 2, { from: 5 }), reading(other.id)],
        }),
        403,
        'DEVICE_TOKEN_WRONG_DEVICE',
      );
      // A device that exists nowhere, or in another workspace: the same refusal.
      expectError(await asDevice.post(URL, reading(randomId())), 403, 'DEVICE_TOKEN_WRONG_DEVICE');
      expect(await stored()).toHaveLength(2);
    });

    it('refuses a key without write:sensor_readings (403 naming the scope), storing nothing', async () => {
      const narrow = await lab.actor('owner', { scopes: ['read:sensor_readings'] });
      expectError(
        await client(t, narrow).post(URL, reading(device.id)),
        403,
        'FORBIDDEN',
        /write:sensor_readings/,
      );
      expect(await stored()).toEqual([]);
    });

    it('refuses a viewer (403 naming the role), storing nothing', async () => {
      const viewer = await lab.actor('viewer');
      expectError(
        await client(t, viewer).post(URL, reading(device.id)),
        403,
        'FORBIDDEN',
        /member/,
      );
      expect(await stored()).toEqual([]);
      expect(
        (await client(t, await lab.actor('member')).post(URL, reading(device.id))).statusCode,
      ).toBe(201);
    });

    it.each(['hobby', 'pro_lab'] as const)(
      'lets %s send readings; listing them needs Teams (402)',
      async (plan) => {
        const small = await createLab(t.database, { plan });
        const c = client(t, small.owner);
        const mine = await newDevice(c);
        expect((await c.post(URL, reading(mine.id))).statusCode).toBe(201);
        expectError(await c.get(URL), 402, 'PAID_PLAN_REQUIRED');
        expectError(await c.get('/api/v1/plants'), 402, 'PAID_PLAN_REQUIRED');
      },
    );

    it('refuses the free plan (402)', async () => {
      const free = await createLab(t.database, { plan: 'free' });
      expectError(
        await client(t, free.owner).post(URL, reading(randomId())),
        402,
        'PAID_PLAN_REQUIRED',
      );
    });

    it('replays a batch sent again with the same Idempotency-Key', async () => {
      const headers = { 'idempotency-key': 'readings-batch-0001' };
      const first = await owner.post(URL, { readings: batchOf(device.id, 3) }, headers);
      const again = await owner.post(URL, { readings: batchOf(device.id, 3) }, headers);
      expect(again.headers['idempotent-replay']).toBe('true');
      expect(body(again)).toEqual(body(first));
      expect(await stored()).toHaveLength(3);
    });
  });

  it("runs a real device's loop: register, mint, heartbeat, batches with retries, every reading once", async () => {
    const registered = await newDevice(owner, { name: 'Greenhouse probe', type: 'sensor' });
    const token = await newToken(owner, registered.id);
    const asDevice = client(t, token);
    const beat = await asDevice.post(`/api/v1/devices/${registered.id}/heartbeat`, {});
    expect(dataOf(beat, 200).received_at).toMatch(ISO_MS);
    const all = batchOf(registered.id, 30, { prefix: 'loop' });
    // Batches of 10, each sent twice (a lost answer), the last overlapping the one before.
    for (const [from, to] of [
      [0, 10],
      [0, 10],
      [10, 20],
      [5, 20],
      [20, 30],
      [20, 30],
    ] as const) {
      expect((await asDevice.post(URL, { readings: all.slice(from, to) })).statusCode).toBe(201);
    }
    const readings = (await stored()).filter(
      (r: { device_id: string }) => r.device_id === registered.id,
    );
    expect(readings.map((r: { external_id: string }) => r.external_id).sort()).toEqual(
      all.map((r) => r.external_id).sort(),
    );
  });
});
