import { beforeEach, expect, it } from 'vitest';
import { SCOPES, type Scope } from '../../src/kernel/access.js';
import { body, createLab } from '../support/harness.js';
import {
  addRoom,
  client,
  dataOf,
  expectError,
  expectSameAnswer,
  GENEROUS_LIMITS,
  listAll,
  newExplant,
  newPlant,
  randomId,
} from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

/** GET /rooms and GET /rooms/{id}, with what a Today screen shows of each; on both databases. */
describeOnDatabases('Rooms', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });
  let rooms: { a: string; b: string; empty: string };
  beforeEach(async () => {
    rooms = {
      b: await addRoom(t.database, lab.workspaceId, 'Growth room B'),
      a: await addRoom(t.database, lab.workspaceId, 'Growth room A'),
      empty: await addRoom(t.database, lab.workspaceId, 'Media prep'),
    };
  });

  const device = async (roomId: string, name = 'Sensor') =>
    dataOf(await owner.post('/api/v1/devices', { name, room_id: roomId }), 201).id as string;
  const reading = (deviceId: string, type: string, value: number, at: string, unit = 'C') => ({
    device_id: deviceId,
    type,
    value,
    unit,
    recorded_at: at,
  });

  it('lists rooms by name with device, plant and explant counts and the latest value of each sensor type', async () => {
    const sensorA = await device(rooms.a, 'A1');
    const sensorA2 = await device(rooms.a, 'A2');
    await device(rooms.b, 'B1');
    const retired = await device(rooms.b, 'B-old');
    await t.database.db
      .updateTable('devices')
      .set({ status: 'retired' })
      .where('id', '=', retired)
      .execute();
    dataOf(
      await owner.post('/api/v1/sensor-readings', {
        readings: [
          reading(sensorA, 'temperature', 21.5, '2026-11-27T06:00:00Z'),
          reading(sensorA2, 'temperature', 22.5, '2026-11-27T07:00:00Z'),
          reading(sensorA, 'humidity', 61, '2026-11-27T06:30:00Z', '%'),
          reading(sensorA, 'humidity', 58, '2026-11-27T05:00:00Z', '%'),
        ],
      }),
      201,
    );
    const plant = await newPlant(owner, { room_id: rooms.a });
    await newPlant(owner, { room_id: rooms.b });
    const archived = await newPlant(owner, { room_id: rooms.a });
    dataOf(await owner.post(`/api/v1/plants/${archived.id}/archive`, {}), 200);
    await newExplant(owner, { plant_id: plant.id, initial_stage: 'initiation', room_id: rooms.a });
    const moved = await newExplant(owner, { initial_stage: 'initiation', room_id: rooms.a });
    dataOf(
      await owner.post('/api/v1/stages', {
        explant_id: moved.id,
        stage: 'elongation',
        room_id: rooms.b,
      }),
      201,
    );

    const list = dataOf(await owner.get('/api/v1/rooms'), 200);
    expect(list.map((room: { name: string }) => room.name)).toEqual([
      'Growth room A',
      'Growth room B',
      'Media prep',
    ]);
    expect(list[0]).toEqual({
      id: rooms.a,
      name: 'Growth room A',
      created_at: expect.any(String),
      archived_at: null,
      device_count: 2,
      plant_count: 1,
      explant_count: 1,
      latest_readings: [
        {
          type: 'humidity',
          value: 61,
          unit: '%',
          recorded_at: '2026-11-27T06:30:00.000Z',
          device_id: sensorA,
          out_of_range: false,
        },
        {
          type: 'temperature',
          value: 22.5,
          unit: 'C',
          recorded_at: '2026-11-27T07:00:00.000Z',
          device_id: sensorA2,
          out_of_range: false,
        },
      ],
    });
    expect(list[1]).toMatchObject({
      device_count: 1,
      plant_count: 1,
      explant_count: 1,
      latest_readings: [],
    });
    expect(list[2]).toMatchObject({
      device_count: 0,
      plant_count: 0,
      explant_count: 0,
      latest_readings: [],
    });
    expect(dataOf(await owner.get(`/api/v1/rooms/${rooms.a}`), 200)).toEqual(list[0]);
    expect(await listAll(owner, '/api/v1/rooms', 1)).toEqual(list);
  });

  it('flags a latest value no sensor of its type can report, which is stored as sent', async () => {
    const sensor = await device(rooms.b, 'B1');
    dataOf(
      await owner.post('/api/v1/sensor-readings', {
        readings: [
          reading(sensor, 'humidity', 250, '2026-11-27T06:00:00Z', '%'),
          reading(sensor, 'temperature', 21, '2026-11-27T06:00:00Z', '°C'),
          reading(sensor, 'ph', -1, '2026-11-27T06:00:00Z', 'pH'),
          reading(sensor, 'co2', 400, '2026-11-27T06:00:00Z', 'ppm'),
          reading(sensor, 'light', 1e9, '2026-11-27T06:00:00Z', 'parsec'),
        ],
      }),
      201,
    );
    const room = dataOf(await owner.get(`/api/v1/rooms/${rooms.b}`), 200);
    expect(
      room.latest_readings.map((r: { type: string; value: number; out_of_range: boolean }) => [
        r.type,
        r.value,
        r.out_of_range,
      ]),
    ).toEqual([
      ['co2', 400, false],
      ['humidity', 250, true],
      // A unit without a known range is never flagged.
      ['light', 1e9, false],
      ['ph', -1, true],
      ['temperature', 21, false],
    ]);
  });

  it('leaves out (null) what the key may not read, and answers guests', async () => {
    const readOnly = (scopes: Scope[]) => lab.actor('guest', { scopes });
    const bare = client(t, await readOnly(['read:workspace']));
    const [room] = dataOf(await bare.get(`/api/v1/rooms?limit=1`), 200);
    expect(room).toMatchObject({
      device_count: null,
      plant_count: null,
      explant_count: null,
      latest_readings: null,
    });
    const some = client(t, await readOnly(['read:workspace', 'read:plants', 'read:devices']));
    expect(dataOf(await some.get(`/api/v1/rooms/${rooms.a}`), 200)).toMatchObject({
      device_count: 0,
      plant_count: 0,
      explant_count: null,
      latest_readings: null,
    });
    const guest = client(t, await readOnly([...SCOPES]));
    expect(dataOf(await guest.get(`/api/v1/rooms/${rooms.a}`), 200)).toMatchObject({
      device_count: 0,
      latest_readings: [],
    });
    const narrow = client(t, await lab.actor('owner', { scopes: ['read:plants'] }));
    expectError(await narrow.get('/api/v1/rooms'), 403, 'FORBIDDEN', /read:workspace/);
  });

  it("answers an unknown, malformed or other workspace's room alike (404); never lists theirs", async () => {
    const theirs = await createLab(t.database);
    const theirRoom = await addRoom(t.database, theirs.workspaceId, 'Their room');
    const reference = await owner.get(`/api/v1/rooms/${randomId()}`);
    expectSameAnswer(await owner.get(`/api/v1/rooms/${theirRoom}`), reference, 404, 'NOT_FOUND');
    expectSameAnswer(await owner.get('/api/v1/rooms/nope'), reference, 404, 'NOT_FOUND');
    const names = (await listAll(owner, '/api/v1/rooms')).map((room) => room.name);
    expect(names).not.toContain('Their room');
    // A parameter the list does not take (a cache-buster) is ignored.
    expect(body(await owner.get('/api/v1/rooms?name=A&_=1732791200'))).toEqual(
      body(await owner.get('/api/v1/rooms')),
    );
  });
});
