import { beforeEach, expect, it } from 'vitest';
import { checkSilentSensors } from '../../src/modules/alerts/silence.js';
import { newDevice } from '../devices/helpers.js';
import { addRoom, dataOf, expectError, GENEROUS_LIMITS, listAll } from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON loosely
type Json = any;

const T0 = Date.parse('2026-11-20T08:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

describeOnDatabases('sensor alerts', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });
  let roomId: string;
  let device: Json;
  beforeEach(async () => {
    roomId = await addRoom(t.database, lab.workspaceId);
    device = await newDevice(owner, { room_id: roomId });
  });

  const send = async (values: [minute: number, value: number][], deviceId = device.id) =>
    dataOf(
      await owner.post('/api/v1/sensor-readings', {
        readings: values.map(([minute, value]) => ({
          device_id: deviceId,
          type: 'temperature',
          value,
          unit: 'C',
          recorded_at: at(minute),
        })),
      }),
      201,
    );
  const rule = async (fields: Record<string, unknown>) =>
    dataOf(
      await owner.post('/api/v1/alert-rules', {
        name: 'Growth room too warm',
        sensor_type: 'temperature',
        room_id: roomId,
        condition: 'above',
        threshold: 28,
        duration_minutes: 10,
        hysteresis: 0.5,
        ...fields,
      }),
      201,
    );
  const alertEvents = () => listAll(owner, '/api/v1/events?entity=sensor_alert');

  it('opens once the range is left for the duration, and resolves once back inside by the hysteresis', async () => {
    const created = await rule({});
    expect(created).toMatchObject({ state: 'ok', enabled: true, open_alert_id: null });
    // Out of range for 9 minutes, then back: no alert.
    await send([
      [0, 29],
      [9, 29.5],
      [10, 27],
    ]);
    expect(await alertEvents()).toEqual([]);
    // Out of range again from minute 20; at minute 30 it has held for 10 minutes.
    await send([
      [20, 28.5],
      [25, 30],
    ]);
    expect(dataOf(await owner.get(`/api/v1/alert-rules/${created.id}`), 200)).toMatchObject({
      state: 'breaching',
      breach_started_at: at(20),
    });
    await send([[30, 29]]);
    const [opened] = dataOf(await owner.get('/api/v1/alerts?status=open'), 200);
    expect(opened).toMatchObject({
      rule_id: created.id,
      status: 'open',
      started_at: at(20),
      opened_at: at(30),
      opened_value: 29,
      room_id: roomId,
      condition: 'above',
      threshold: 28,
    });
    // Hovering at the threshold (27.8 is inside the range but not by the 0.5 hysteresis)
    // keeps the one episode open: no flapping.
    await send([
      [31, 27.8],
      [32, 28.3],
      [33, 27.6],
      [34, 29],
    ]);
    expect(await alertEvents()).toHaveLength(1);
    await send([[40, 27.5]]);
    const events = await alertEvents();
    expect(events.map((e: Json) => e.event_type)).toEqual(['opened', 'resolved']);
    expect(
      events.every((e: Json) => e.entity_type === 'sensor_alert' && e.entity_id === opened.id),
    ).toBe(true);
    expect(events[0].payload).toMatchObject({ id: opened.id, status: 'open' });
    expect(events[1].payload).toMatchObject({
      status: 'resolved',
      resolved_at: at(40),
      resolved_value: 27.5,
      resolution: 'recovered',
    });
    expect(events[1].event_time).toBe(at(40));
    expect(dataOf(await owner.get('/api/v1/alerts?status=open'), 200)).toEqual([]);
    expect(dataOf(await owner.get(`/api/v1/alerts/${opened.id}`), 200)).toEqual(events[1].payload);
    // The plant and explant history is untouched by alerts.
    expect(await listAll(owner, '/api/v1/events?entity=plant')).toEqual([]);
  });

  it('judges a device rule on that device only, and below a threshold', async () => {
    const other = await newDevice(owner, { room_id: roomId, name: 'Sensor B' });
    await rule({
      room_id: undefined,
      device_id: device.id,
      condition: 'below',
      threshold: 18,
      duration_minutes: 0,
    });
    await send([[0, 10]], other.id);
    expect(await alertEvents()).toEqual([]);
    await send([[1, 17.9]]);
    expect((await alertEvents()).map((e: Json) => e.event_type)).toEqual(['opened']);
  });

  it('opens a no_readings alert by the timer, and resolves it with the next reading', async () => {
    const created = await rule({
      condition: 'no_readings',
      threshold: undefined,
      duration_minutes: 15,
    });
    await send([[0, 22]]);
    const createdAt = Date.parse(created.created_at);
    // Silent for 15 minutes since the rule was made (its newest reading is older). The
    // check covers every workspace of the database, so this one's alerts are counted.
    const openAlerts = async () =>
      (dataOf(await owner.get('/api/v1/alerts?status=open'), 200) as Json[]).length;
    await checkSilentSensors(t.database, createdAt + 14 * 60_000);
    expect(await openAlerts()).toBe(0);
    await checkSilentSensors(t.database, createdAt + 15 * 60_000);
    expect(await openAlerts()).toBe(1);
    // Checking again (another process, the next tick) opens nothing more.
    await checkSilentSensors(t.database, createdAt + 16 * 60_000);
    expect(await openAlerts()).toBe(1);
    const [open] = dataOf(await owner.get('/api/v1/alerts?status=open'), 200);
    expect(open).toMatchObject({ condition: 'no_readings', opened_value: null });
    await send([[1, 22]]);
    expect((await alertEvents()).map((e: Json) => e.event_type)).toEqual(['opened', 'resolved']);
  });

  it('refuses rules that cannot work, and answers 404 for rooms and devices of others', async () => {
    expectError(
      await owner.post('/api/v1/alert-rules', {
        name: 'x',
        sensor_type: 'temperature',
        room_id: roomId,
        device_id: device.id,
        condition: 'above',
        threshold: 1,
      }),
      422,
      'VALIDATION_ERROR',
      /exactly one of room_id and device_id/,
    );
    expectError(
      await owner.post('/api/v1/alert-rules', {
        name: 'x',
        sensor_type: 'temperature',
        room_id: roomId,
        condition: 'above',
      }),
      422,
      'VALIDATION_ERROR',
      /threshold: is required for above/,
    );
    expectError(
      await owner.post('/api/v1/alert-rules', {
        name: 'x',
        sensor_type: 'humidity',
        device_id: '0190a0c0-0000-7000-8000-000000000000',
        condition: 'no_readings',
        duration_minutes: 5,
      }),
      404,
      'NOT_FOUND',
    );
    expect(await listAll(owner, '/api/v1/alert-rules')).toEqual([]);
  });

  it('resolves the open alert when its rule is disabled or deleted', async () => {
    const created = await rule({ duration_minutes: 0 });
    await send([[0, 30]]);
    dataOf(await owner.patch(`/api/v1/alert-rules/${created.id}`, { enabled: false }), 200);
    const events = await alertEvents();
    expect(events.map((e: Json) => [e.event_type, e.payload.resolution])).toEqual([
      ['opened', null],
      ['resolved', 'rule_disabled'],
    ]);
    // A disabled rule judges nothing.
    await send([[1, 35]]);
    expect(await alertEvents()).toHaveLength(2);
  });

  it('opens one alert for an episode, however many batches arrive together', async () => {
    await rule({ duration_minutes: 0 });
    const devices = [device];
    for (let i = 0; i < 4; i++) {
      devices.push(await newDevice(owner, { room_id: roomId, name: `Sensor ${i}` }));
    }
    await Promise.all(
      devices.map((d: Json, i: number) =>
        send(
          [
            [i, 30],
            [i + 5, 31],
          ],
          d.id,
        ),
      ),
    );
    expect((await alertEvents()).map((e: Json) => e.event_type)).toEqual(['opened']);
    expect(dataOf(await owner.get('/api/v1/alerts?status=open'), 200)).toHaveLength(1);
  });
});
