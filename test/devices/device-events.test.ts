import { beforeEach, describe, expect, it } from 'vitest';
import {
  client,
  dataOf,
  expectError,
  expectSameAnswer,
  GENEROUS_LIMITS,
  ISO_MS,
  keysOf,
  randomId,
} from '../support/helpers.js';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { newDevice, newToken, send } from './helpers.js';

const EVENT_KEYS = [
  'created_at',
  'device_id',
  'event_type',
  'external_id',
  'id',
  'occurred_at',
  'payload',
  'team_id',
];

describeOnDatabases('Heartbeats and device events', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });
  let device: { id: string };
  beforeEach(async () => {
    device = await newDevice(owner);
  });

  const lastSeen = async (id = device.id): Promise<string | null> =>
    (
      dataOf(await owner.get('/api/v1/devices'), 200) as { id: string; last_seen_at: string }[]
    ).find((d) => d.id === id)!.last_seen_at;
  const eventRows = () =>
    t.database.db
      .selectFrom('device_events')
      .selectAll()
      .where('workspace_id', '=', lab.workspaceId)
      .execute();

  describe('POST /devices/{deviceId}/heartbeat', () => {
    const url = (id = device.id) => `/api/v1/devices/${id}/heartbeat`;

    it('stamps last_seen_at with the time of receipt, with no body, {}, or any JSON object', async () => {
      expect(await lastSeen()).toBeNull();
      const bodies: { payload?: string; headers?: Record<string, string> }[] = [
        {},
        { payload: '{}', headers: { 'content-type': 'application/json' } },
        { payload: '', headers: { 'content-type': 'application/json' } },
        {
          payload: JSON.stringify({ firmware: '1.2.3', uptime: 42, nested: { a: [1, 2] } }),
          headers: { 'content-type': 'application/json' },
        },
        // Firmware that sends JSON with no Content-Type, or another one (Tasmota's WebSend).
        { payload: '{}' },
        { payload: '{"rssi":-61}', headers: { 'content-type': 'text/plain' } },
      ];
      let previous = '';
      for (const options of bodies) {
        const res = await send(t, lab.owner, 'POST', url(), options);
        const data = dataOf(res, 200);
        expect(keysOf(data)).toEqual(['device_id', 'last_seen_at', 'received_at']);
        expect(data).toMatchObject({ device_id: device.id, last_seen_at: data.received_at });
        expect(data.received_at).toMatch(ISO_MS);
        expect(data.received_at >= previous).toBe(true);
        expect(await lastSeen()).toBe(data.received_at);
        previous = data.received_at;
      }
    });

    it('lets a device token beat for its own device only (403 DEVICE_TOKEN_WRONG_DEVICE)', async () => {
      const other = await newDevice(owner, { name: 'Other' });
      const token = await newToken(owner, device.id);
      expect((await send(t, token, 'POST', url())).statusCode).toBe(200);
      expectError(await send(t, token, 'POST', url(other.id)), 403, 'DEVICE_TOKEN_WRONG_DEVICE');
      expectError(await send(t, token, 'POST', url(randomId())), 403, 'DEVICE_TOKEN_WRONG_DEVICE');
      expect(await lastSeen(other.id)).toBeNull();
    });

    it('answers a device of another workspace, an unknown one and a malformed id alike (404)', async () => {
      const other = await createLab(t.database, { name: 'Other lab' });
      const theirs = await newDevice(client(t, other.owner));
      const reference = await send(t, lab.owner, 'POST', url(randomId()));
      expectSameAnswer(
        await send(t, lab.owner, 'POST', url(theirs.id)),
        reference,
        404,
        'NOT_FOUND',
      );
      expectSameAnswer(await send(t, lab.owner, 'POST', url('nope')), reference, 404, 'NOT_FOUND');
      expect(
        (
          dataOf(await client(t, other.owner).get('/api/v1/devices'), 200) as {
            last_seen_at: null;
          }[]
        )[0]!.last_seen_at,
      ).toBeNull();
    });

    it('needs write:devices and a manager; refusals change nothing', async () => {
      const member = await lab.actor('member');
      expectError(await send(t, member, 'POST', url()), 403, 'FORBIDDEN', /manager/);
      const narrow = await lab.actor('owner', { scopes: ['read:devices'] });
      expectError(await send(t, narrow, 'POST', url()), 403, 'FORBIDDEN', /write:devices/);
      expect(await lastSeen()).toBeNull();
    });

    it.each(['hobby', 'pro_lab'] as const)('works on %s', async (plan) => {
      const small = await createLab(t.database, { plan });
      const c = client(t, small.owner);
      const mine = await newDevice(c);
      expect((await send(t, small.owner, 'POST', url(mine.id))).statusCode).toBe(200);
    });
  });

  describe('POST /device-events', () => {
    const URL = '/api/v1/device-events';

    it('records an event with the documented fields and defaults', async () => {
      const before = new Date().toISOString();
      const res = await owner.post(URL, { device_id: device.id, event_type: 'alert' });
      const data = dataOf(res, 201);
      expect(keysOf(data)).toEqual(EVENT_KEYS);
      expect(data).toMatchObject({
        device_id: device.id,
        team_id: lab.workspaceId,
        event_type: 'alert',
        payload: {},
        external_id: null,
      });
      expect(data.occurred_at).toMatch(ISO_MS);
      expect(data.occurred_at >= before).toBe(true);
      expect(data.created_at).toBe(data.occurred_at);
      expect(body(res).meta).toBeUndefined();
    });

    it('reads back every field it accepts; occurred_at with an offset is kept as UTC', async () => {
      const data = dataOf(
        await owner.post(URL, {
          device_id: device.id,
          event_type: 'firmware_update',
          payload: { from: '1.0', to: '1.1', ok: true, steps: [1, 2], extra: null },
          occurred_at: '2026-11-20T10:00:00-03:00',
          external_id: 'fw-7',
        }),
        201,
      );
      expect(data).toMatchObject({
        event_type: 'firmware_update',
        payload: { from: '1.0', to: '1.1', ok: true, steps: [1, 2], extra: null },
        occurred_at: '2026-11-20T13:00:00.000Z',
        external_id: 'fw-7',
      });
      const [row] = await eventRows();
      expect(row).toMatchObject({ id: data.id, occurred_at: '2026-11-20T13:00:00.000Z' });
    });

    it('stores a repeat of device + external_id once and answers the stored event with meta.duplicate', async () => {
      const sent = { device_id: device.id, event_type: 'error', external_id: 'err-1' };
      const first = dataOf(await owner.post(URL, { ...sent, payload: { n: 1 } }), 201);
      const again = await owner.post(URL, { ...sent, payload: { n: 2 } });
      expect(again.statusCode).toBe(201);
      expect(body(again)).toEqual({ ok: true, data: first, meta: { duplicate: true } });
      // Another device may use the same external id; without one, every event is stored.
      const other = await newDevice(owner, { name: 'Other' });
      dataOf(await owner.post(URL, { ...sent, device_id: other.id }), 201);
      dataOf(await owner.post(URL, { device_id: device.id, event_type: 'other' }), 201);
      dataOf(await owner.post(URL, { device_id: device.id, event_type: 'other' }), 201);
      expect(await eventRows()).toHaveLength(4);
    });

    it('stores one event when the same external id arrives 8 times at once', async () => {
      const sent = { device_id: device.id, event_type: 'alert', external_id: 'race' };
      const responses = await Promise.all(Array.from({ length: 8 }, () => owner.post(URL, sent)));
      expect(responses.map((r) => r.statusCode)).toEqual(Array<number>(8).fill(201));
      expect(new Set(responses.map((r) => body(r).data.id)).size).toBe(1);
      expect(responses.filter((r) => body(r).meta === undefined)).toHaveLength(1);
      expect(await eventRows()).toHaveLength(1);
    });

    it.each([
      ['an empty event_type', { event_type: '' }],
      ['an event_type over 50 characters', { event_type: 'r'.repeat(51) }],
      [
        'occurred_at and timestamp naming two moments',
        {
          occurred_at: '2026-11-20T10:00:00Z',
          timestamp: '2026-11-20T10:00:01Z',
        },
      ],
      ['occurred_at without a zone', { occurred_at: '2026-11-20T10:00:00' }],
      ['a payload that is not an object', { payload: [1, 2] }],
      ['a payload over 10,000 bytes', { payload: { big: 'x'.repeat(10_001) } }],
      ['an empty external_id', { external_id: '' }],
      ['an unknown field', { severity: 'high' }],
    ])('refuses %s with 422, storing nothing', async (_what, fields) => {
      expectError(
        await owner.post(URL, { device_id: device.id, event_type: 'alert', ...fields }),
        422,
        'VALIDATION_ERROR',
      );
      expect(await eventRows()).toEqual([]);
    });

    it('answers a device of another workspace as an unknown one (404)', async () => {
      const other = await createLab(t.database, { name: 'Other lab' });
      const theirs = await newDevice(client(t, other.owner));
      expectSameAnswer(
        await owner.post(URL, { device_id: theirs.id, event_type: 'alert' }),
        await owner.post(URL, { device_id: randomId(), event_type: 'alert' }),
        404,
        'NOT_FOUND',
      );
      expect(await eventRows()).toEqual([]);
    });

    it('lets a device token record events of its own device only (403 DEVICE_TOKEN_WRONG_DEVICE)', async () => {
      const other = await newDevice(owner, { name: 'Other' });
      const asDevice = client(t, await newToken(owner, device.id));
      dataOf(await asDevice.post(URL, { device_id: device.id, event_type: 'config_change' }), 201);
      expectError(
        await asDevice.post(URL, { device_id: other.id, event_type: 'alert' }),
        403,
        'DEVICE_TOKEN_WRONG_DEVICE',
      );
      expect(await eventRows()).toHaveLength(1);
    });

    it('needs write:device_events; a viewer is refused; nothing is stored', async () => {
      const narrow = await lab.actor('owner', { scopes: ['write:devices'] });
      expectError(
        await client(t, narrow).post(URL, { device_id: device.id, event_type: 'alert' }),
        403,
        'FORBIDDEN',
        /write:device_events/,
      );
      const viewer = await lab.actor('viewer');
      expectError(
        await client(t, viewer).post(URL, { device_id: device.id, event_type: 'alert' }),
        403,
        'FORBIDDEN',
      );
      expect(await eventRows()).toEqual([]);
    });
  });

  describe('a device token elsewhere', () => {
    it.each([
      ['GET', '/api/v1/devices'],
      ['POST', '/api/v1/devices'],
      ['GET', '/api/v1/sensor-readings'],
      ['GET', '/api/v1/plants'],
      ['GET', '/api/v1/workspaces'],
      ['GET', '/api/v1/events?entity=plant'],
    ] as const)('answers %s %s with 403 DEVICE_TOKEN_NOT_ACCEPTED', async (method, url) => {
      const token = await newToken(owner, device.id);
      const res = await send(
        t,
        token,
        method,
        url,
        method === 'POST' ? { payload: { name: 'X' } } : {},
      );
      expectError(res, 403, 'DEVICE_TOKEN_NOT_ACCEPTED');
    });

    it('is refused on the device routes once revoked (401)', async () => {
      const token = await newToken(owner, device.id);
      expect(
        (await send(t, lab.owner, 'DELETE', `/api/v1/devices/${device.id}/tokens/${token.id}`))
          .statusCode,
      ).toBe(200);
      expectError(
        await send(t, token, 'POST', `/api/v1/devices/${device.id}/heartbeat`),
        401,
        'UNAUTHORIZED',
      );
      expectError(
        await client(t, token).post('/api/v1/device-events', {
          device_id: device.id,
          event_type: 'alert',
        }),
        401,
        'UNAUTHORIZED',
      );
    });
  });
});
