import { expect, it } from 'vitest';
import { body } from '../support/harness.js';
import { dataOf, listAll } from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { newDevice } from './helpers.js';

/**
 * The product's public device clients, request by request as they send them (their
 * bodies, headers and what each treats as success), run unchanged against Vitro:
 * an ESP32 sketch, a Raspberry Pi gateway in Python, ESPHome and Tasmota rules.
 */
describeOnDatabases('Device clients', (target) => {
  const { t, lab, owner } = labSuite(target);

  const post = (url: string, payload: string, headers: Record<string, string>) =>
    t.request({ method: 'POST', url, payload, headers: { ...lab.owner.headers, ...headers } });
  const readings = () => listAll(owner, '/api/v1/sensor-readings');

  it('the ESP32 sketch: compact JSON, its own User-Agent, success only on 201 and 200', async () => {
    const device = await newDevice(owner);
    const headers = { 'content-type': 'application/json', 'user-agent': 'ESP32HTTPClient' };
    const temperature = await post(
      '/api/v1/sensor-readings',
      `{"device_id":"${device.id}","type":"temperature","value":24.5,"unit":"C"}`,
      headers,
    );
    expect(temperature.statusCode).toBe(201);
    const humidity = await post(
      '/api/v1/sensor-readings',
      `{"device_id":"${device.id}","type":"humidity","value":61.3,"unit":"%"}`,
      headers,
    );
    expect(humidity.statusCode).toBe(201);
    const beat = await post(`/api/v1/devices/${device.id}/heartbeat`, '{"rssi":-61}', headers);
    expect(beat.statusCode).toBe(200);
    expect((await readings()).map((r) => [r.type, r.value, r.unit]).sort()).toEqual([
      ['humidity', 61.3, '%'],
      ['temperature', 24.5, 'C'],
    ]);
  });

  it("the Pi gateway: a reading's time as timestamp (Python's isoformat, microseconds)", async () => {
    const device = await newDevice(owner);
    const headers = { 'content-type': 'application/json', 'user-agent': 'python-requests/2.31.0' };
    const res = await post(
      '/api/v1/sensor-readings',
      JSON.stringify({
        device_id: device.id,
        type: 'temperature',
        value: 24.13,
        unit: 'C',
        timestamp: '2026-11-28T16:59:58.123456+00:00',
      }),
      headers,
    );
    expect([200, 201]).toContain(res.statusCode);
    expect(dataOf(res, 201).recorded_at).toBe('2026-11-28T16:59:58.123Z');
    const beat = await post(`/api/v1/devices/${device.id}/heartbeat`, '{}', headers);
    expect(dataOf(beat, 200)).toMatchObject({ device_id: device.id });
    // The device's last_seen_at says it is alive; the device reads back by id with the key.
    const read = dataOf(await owner.get(`/api/v1/devices/${device.id}`), 200);
    expect(read.last_seen_at).toBe(dataOf(beat, 200).last_seen_at);
  });

  it('ESPHome: JSON laid out over lines, its own User-Agent, a heartbeat of "{}"', async () => {
    const device = await newDevice(owner);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'ESPHome xPlant Gateway/1.0',
    };
    const res = await post(
      '/api/v1/sensor-readings',
      `{ "device_id": "${device.id}", "type": "humidity", "value": 70.400002, "unit": "%" }`,
      headers,
    );
    expect(res.statusCode).toBe(201);
    expect((await post(`/api/v1/devices/${device.id}/heartbeat`, '{}', headers)).statusCode).toBe(
      200,
    );
  });

  it('Tasmota rules: JSON sent with no Content-Type, readings and heartbeat alike', async () => {
    const device = await newDevice(owner);
    const res = await post(
      '/api/v1/sensor-readings',
      `{"device_id":"${device.id}","type":"temperature","value":23.9,"unit":"C"}`,
      {},
    );
    expect(res.statusCode).toBe(201);
    expect((await post(`/api/v1/devices/${device.id}/heartbeat`, '{}', {})).statusCode).toBe(200);
    const event = await post(
      '/api/v1/device-events',
      `{"device_id":"${device.id}","event_type":"alert","payload":{"temp":31}}`,
      { 'content-type': 'text/plain' },
    );
    expect(event.statusCode).toBe(201);
    // Any other operation still takes JSON only.
    const plant = await post('/api/v1/plants', '{"species":"Ficus"}', {
      'content-type': 'text/plain',
    });
    expect(plant.statusCode).toBe(415);
    expect(body(plant).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('older names: timestamp on device events, event and reading types outside the list', async () => {
    const device = await newDevice(owner);
    const headers = { 'content-type': 'application/json' };
    const event = dataOf(
      await post(
        '/api/v1/device-events',
        JSON.stringify({
          device_id: device.id,
          event_type: 'reboot',
          payload: { reason: 'watchdog' },
          timestamp: '2026-11-28T10:00:00+01:00',
        }),
        headers,
      ),
      201,
    );
    expect(event).toMatchObject({
      event_type: 'other',
      payload: { original_event_type: 'reboot', reason: 'watchdog' },
      occurred_at: '2026-11-28T09:00:00.000Z',
    });
    const batch = dataOf(
      await post(
        '/api/v1/sensor-readings',
        JSON.stringify({
          readings: [
            { device_id: device.id, type: 'light_lux', value: 5400, unit: 'lx' },
            { device_id: device.id, type: 'Temperature', value: 22, unit: 'C' },
            { device_id: device.id, type: 'soil_moisture', value: 31, unit: '%', notes: 'bed 2' },
          ],
        }),
        headers,
      ),
      201,
    );
    expect(batch.map((r: { type: string; notes: string | null }) => [r.type, r.notes])).toEqual([
      ['light', null],
      ['temperature', null],
      ['other', 'type sent: soil_moisture; bed 2'],
    ]);
    // The same moment under both names is one time, not a conflict.
    const same = await post(
      '/api/v1/sensor-readings',
      JSON.stringify({
        device_id: device.id,
        type: 'ph',
        value: 5.8,
        unit: 'pH',
        recorded_at: '2026-11-28T09:00:00Z',
        timestamp: '2026-11-28T10:00:00+01:00',
      }),
      headers,
    );
    expect(dataOf(same, 201).recorded_at).toBe('2026-11-28T09:00:00.000Z');
  });
});
