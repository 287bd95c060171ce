import { beforeEach, expect, it } from 'vitest';
import {
  addRoom,
  dataOf,
  expectError,
  GENEROUS_LIMITS,
  ISO_MS,
  randomId,
} from '../support/helpers.js';
import { body } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { newDevice, reading } from './helpers.js';

const URL = '/api/v1/sensor-readings';

/**
 * PostgreSQL keeps readings in uuid and timestamptz columns, SQLite in text: the
 * API must not show the difference.
 */
describeOnDatabases('sensor readings stored', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS, readingsMaintenance: false });
  let device: { id: string };
  beforeEach(async () => {
    device = await newDevice(owner);
  });

  it('matches ids in any case: devices, rooms, filters and repeats', async () => {
    const room = await addRoom(t.database, lab.workspaceId, 'Upper');
    const sent = reading(device.id.toUpperCase(), {
      room_id: room.toUpperCase(),
      external_id: 'case-1',
      recorded_at: '2026-11-20T08:00:00.000Z',
    });
    const stored = dataOf(await owner.post(URL, sent), 201);
    expect(stored).toMatchObject({ device_id: device.id, room_id: room });
    // The same reading with the id in lower case is a repeat.
    const again = await owner.post(URL, { ...sent, device_id: device.id });
    expect(body(again)).toMatchObject({ data: { id: stored.id }, meta: { duplicate: true } });
    for (const query of [
      `device_id=${device.id.toUpperCase()}`,
      `room_id=${room.toUpperCase()}`,
      `device_id=${device.id}&room_id=${room.toUpperCase()}&type=temperature`,
    ]) {
      expect(dataOf(await owner.get(`${URL}?${query}`), 200), query).toEqual([stored]);
    }
  });

  it('answers malformed and unknown ids as before: 422 for a malformed one, 404 for an unknown device', async () => {
    for (const id of ['not-a-uuid', '00000000-0000-0000-0000-000000000000', `${device.id}0`]) {
      expectError(await owner.post(URL, reading(id)), 422, 'VALIDATION_ERROR', /device_id/);
      expectError(await owner.get(`${URL}?device_id=${id}`), 422, 'VALIDATION_ERROR', /device_id/);
    }
    expectError(await owner.post(URL, reading(randomId())), 404, 'NOT_FOUND');
    expect(dataOf(await owner.get(`${URL}?room_id=${randomId()}`), 200)).toEqual([]);
  });

  it('gives times back as ISO 8601 UTC with milliseconds, whatever was sent', async () => {
    const cases: [string, string][] = [
      ['2026-11-20T10:00:00+02:00', '2026-11-20T08:00:00.000Z'],
      ['2026-11-20T08:00:00.5Z', '2026-11-20T08:00:00.500Z'],
      ['2026-11-20T08:00:00.123456Z', '2026-11-20T08:00:00.123Z'],
      ['2026-11-20T08:00:00.120Z', '2026-11-20T08:00:00.120Z'],
      ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
      ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ];
    const stored = dataOf(
      await owner.post(URL, {
        readings: cases.map(([sent], i) => reading(device.id, { recorded_at: sent, value: i })),
      }),
      201,
    ) as { recorded_at: string; created_at: string; value: number }[];
    expect(stored.map((r) => r.recorded_at)).toEqual(cases.map(([, back]) => back));
    const listed = dataOf(await owner.get(`${URL}?device_id=${device.id}`), 200) as typeof stored;
    expect(listed.map((r) => [r.value, r.recorded_at]).sort()).toEqual(
      cases.map(([, back], i) => [i, back]).sort(),
    );
    for (const r of listed) expect(r.created_at).toMatch(ISO_MS);
    // Bounds past the years readings may carry filter like the last ones they may carry.
    const all = `since=0000-01-01T00:00:00Z&until=${encodeURIComponent('9999-12-31T23:30:00-01:00')}`;
    expect(dataOf(await owner.get(`${URL}?${all}`), 200)).toHaveLength(cases.length);
  });

  it.each(['0000-12-31T23:59:59.999Z', '0001-01-01T00:30:00+01:00', '9999-12-31T23:30:00-01:00'])(
    'refuses a reading taken outside the years 0001 to 9999 (UTC): %s',
    async (recordedAt) => {
      expectError(
        await owner.post(URL, {
          readings: [reading(device.id), reading(device.id, { recorded_at: recordedAt })],
        }),
        422,
        'VALIDATION_ERROR',
        /readings\[1\]\.recorded_at/,
      );
      expect(dataOf(await owner.get(URL), 200)).toEqual([]);
    },
  );
});
