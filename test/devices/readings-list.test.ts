import { beforeEach, expect, it } from 'vitest';
import {
  addRoom,
  client,
  dataOf,
  expectError,
  GENEROUS_LIMITS,
  listAll,
  randomId,
} from '../support/helpers.js';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { batchOf, newDevice, newToken, reading } from './helpers.js';

const URL = '/api/v1/sensor-readings';

interface Reading {
  id: string;
  device_id: string;
  room_id: string | null;
  type: string;
  recorded_at: string;
}

/** Newest first by recorded_at, then by id (descending): the documented order. */
const newestFirst = (readings: Reading[]) =>
  [...readings].sort((a, b) =>
    a.recorded_at === b.recorded_at
      ? b.id.localeCompare(a.id)
      : b.recorded_at.localeCompare(a.recorded_at),
  );

describeOnDatabases('GET /sensor-readings', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });
  let device: { id: string };
  beforeEach(async () => {
    device = await newDevice(owner);
  });

  const ingest = async (readings: object[]): Promise<Reading[]> =>
    dataOf(await owner.post(URL, { readings }), 201);
  const ids = (readings: Reading[]) => readings.map((r) => r.id);

  /** 12 readings over 4 instants (3 per instant: ties), two devices, two rooms, two types. */
  async function seed() {
    const [roomA, roomB] = [
      await addRoom(t.database, lab.workspaceId, 'A'),
      await addRoom(t.database, lab.workspaceId, 'B'),
    ];
    const other = await newDevice(owner, { name: 'Other' });
    const readings: object[] = [];
    for (let i = 0; i < 4; i++) {
      const recorded_at = `2026-11-20T08:0${i}:00.000Z`;
      readings.push(
        reading(device.id, { recorded_at, room_id: roomA }),
        reading(device.id, { recorded_at, type: 'humidity', unit: '%', room_id: roomB }),
        reading(other.id, { recorded_at, external_id: `o-${i}` }),
      );
    }
    const stored = await ingest(readings);
    return { stored, roomA, roomB, other };
  }

  it('lists newest first, equal times in a fixed order, with no reading skipped or repeated across pages', async () => {
    const { stored } = await seed();
    const expected = newestFirst(stored);
    expect(ids(dataOf(await owner.get(URL), 200))).toEqual(ids(expected));
    for (const size of [1, 2, 5]) {
      expect(ids(await listAll(owner, URL, size))).toEqual(ids(expected));
    }
    const page = await owner.get(`${URL}?limit=5&offset=5`);
    expect(ids(dataOf(page, 200))).toEqual(ids(expected.slice(5, 10)));
    expect(body(page).meta).toEqual({ next_cursor: expect.any(String) });
    const last = await owner.get(`${URL}?limit=5&offset=10`);
    expect(ids(dataOf(last, 200))).toEqual(ids(expected.slice(10)));
    expect(body(last).meta).toEqual({ next_cursor: null });
  });

  it('filters by device, room, type, since and until (inclusive), each alone and together', async () => {
    const { stored, roomA, roomB, other } = await seed();
    const expectFilter = async (query: string, keep: (r: Reading) => boolean) => {
      const listed = await listAll(owner, `${URL}?${query}`, 2);
      expect(ids(listed)).toEqual(ids(newestFirst(stored.filter(keep))));
      expect(listed.length).toBeGreaterThan(0);
    };
    await expectFilter(`device_id=${other.id}`, (r) => r.device_id === other.id);
    await expectFilter(`device_id=${device.id}`, (r) => r.device_id === device.id);
    await expectFilter(`room_id=${roomA}`, (r) => r.room_id === roomA);
    await expectFilter('type=humidity', (r) => r.type === 'humidity');
    await expectFilter(
      'since=2026-11-20T08:01:00Z',
      (r) => r.recorded_at >= '2026-11-20T08:01:00.000Z',
    );
    await expectFilter(
      'until=2026-11-20T08:02:00.000Z',
      (r) => r.recorded_at <= '2026-11-20T08:02:00.000Z',
    );
    // `+` written %2B: 10:01+02:00 is 08:01Z.
    await expectFilter(
      'since=2026-11-20T10:01:00%2B02:00&until=2026-11-20T10:02:00%2B02:00',
      (r) =>
        r.recorded_at >= '2026-11-20T08:01:00.000Z' && r.recorded_at <= '2026-11-20T08:02:00.000Z',
    );
    await expectFilter(
      `device_id=${device.id}&room_id=${roomB}&type=humidity&since=2026-11-20T08:02:00Z`,
      (r) =>
        r.device_id === device.id &&
        r.room_id === roomB &&
        r.type === 'humidity' &&
        r.recorded_at >= '2026-11-20T08:02:00.000Z',
    );
    expect(dataOf(await owner.get(`${URL}?since=2026-11-20T08:03:00.001Z`), 200)).toEqual([]);
  });

  it('pages 100 by default and caps larger pages at 1000', async () => {
    await ingest(batchOf(device.id, 500, { prefix: 'a' }));
    await ingest(batchOf(device.id, 500, { prefix: 'b' }));
    await ingest(batchOf(device.id, 5, { prefix: 'c' }));
    const first = await owner.get(URL);
    expect(dataOf(first, 200)).toHaveLength(100);
    const capped = await owner.get(`${URL}?limit=5000`);
    expect(dataOf(capped, 200)).toHaveLength(1000);
    const rest = await owner.get(
      `${URL}?limit=1000&cursor=${encodeURIComponent(body(capped).meta.next_cursor as string)}`,
    );
    expect(dataOf(rest, 200)).toHaveLength(5);
    expect(body(rest).meta.next_cursor).toBeNull();
    expect(dataOf(await owner.get(`${URL}?limit=1000`), 200)).toHaveLength(1000);
  });

  it.each([
    ['device_id=not-a-uuid', /device_id/],
    ['room_id=123', /room_id/],
    ['type=pressure', /type/],
    ['since=yesterday', /since/],
    ['until=2026-11-20T08:00:00', /until/],
    ['since=2026-11-20T09:00:00Z&until=2026-11-20T08:00:00Z', /until|since/],
    ['limit=0', /limit/],
    ['limit=1.5', /limit/],
    ['limit=ten', /limit/],
    ['offset=-1', /offset/],
    ['offset=1&cursor=abc', /cursor/],
  ])('refuses %s with 422 VALIDATION_ERROR naming the parameter', async (query, named) => {
    expectError(await owner.get(`${URL}?${query}`), 422, 'VALIDATION_ERROR', named);
  });

  it('refuses a malformed cursor, or one from other filters or another list (422 INVALID_CURSOR)', async () => {
    await ingest(batchOf(device.id, 3));
    const cursor = body(await owner.get(`${URL}?limit=1&type=temperature`)).meta
      .next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    const encoded = encodeURIComponent(cursor);
    expect((await owner.get(`${URL}?limit=1&type=temperature&cursor=${encoded}`)).statusCode).toBe(
      200,
    );
    expectError(
      await owner.get(`${URL}?limit=1&type=humidity&cursor=${encoded}`),
      422,
      'INVALID_CURSOR',
    );
    expectError(await owner.get(`${URL}?limit=1&cursor=${encoded}`), 422, 'INVALID_CURSOR');
    expectError(await owner.get(`/api/v1/devices?cursor=${encoded}`), 422, 'INVALID_CURSOR');
    expectError(await owner.get(`${URL}?cursor=abc.def`), 422, 'INVALID_CURSOR');
  });

  it("never shows another workspace's readings; its ids filter like unknown ones", async () => {
    await ingest(batchOf(device.id, 2));
    const other = await createLab(t.database, { name: 'Other lab' });
    const them = client(t, other.owner);
    const theirs = await newDevice(them);
    const theirRoom = await addRoom(t.database, other.workspaceId);
    dataOf(await them.post(URL, reading(theirs.id, { room_id: theirRoom })), 201);
    expect(dataOf(await them.get(URL), 200)).toHaveLength(1);
    expect((await listAll(owner, URL)).map((r: Reading) => r.device_id)).toEqual([
      device.id,
      device.id,
    ]);
    const empty = { ok: true, data: [], meta: { next_cursor: null } };
    expect(body(await owner.get(`${URL}?device_id=${theirs.id}`))).toEqual(empty);
    expect(body(await owner.get(`${URL}?device_id=${randomId()}`))).toEqual(empty);
    expect(dataOf(await owner.get(`${URL}?room_id=${theirRoom}`), 200)).toEqual([]);
  });

  it('refuses a device token (403 DEVICE_TOKEN_NOT_ACCEPTED) and a key without the scope (403)', async () => {
    const token = await newToken(owner, device.id);
    expectError(await client(t, token).get(URL), 403, 'DEVICE_TOKEN_NOT_ACCEPTED');
    const narrow = await lab.actor('owner', { scopes: ['write:sensor_readings'] });
    expectError(await client(t, narrow).get(URL), 403, 'FORBIDDEN', /read:sensor_readings/);
    // Any member may read.
    const viewer = await lab.actor('viewer');
    expect((await client(t, viewer).get(URL)).statusCode).toBe(200);
  });
});
