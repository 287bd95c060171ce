import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/kernel/access.js';
import { inTransaction } from '../../src/db/transaction.js';
import { changeDeviceStatus, registerDevice } from '../../src/modules/devices/index.js';
import { updateWorkspaceSettings } from '../../src/modules/identity/index.js';
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
import { DEVICE_KEYS, newDevice, outcomes } from './helpers.js';

describeOnDatabases('Devices', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });

  /** `count` devices registered directly (fast), as the key's owner. */
  const registerMany = (workspaceId: string, count: number, memberId: string | null = null) =>
    inTransaction(t.database.db, async (trx) => {
      const rows = [];
      for (let i = 0; i < count; i++) {
        rows.push(await registerDevice(trx, { workspaceId, name: `D-${i}`, createdBy: memberId }));
      }
      return rows;
    });
  const devicesOf = (c: Client) => listAll(c, '/api/v1/devices');
  const inUse = async (c: Client) =>
    (await devicesOf(c)).filter((d: { status: string }) => d.status !== 'retired').length;

  describe('POST /devices', () => {
    it('registers with the documented defaults and lists it', async () => {
      const res = await owner.post('/api/v1/devices', { name: 'Bench sensor' });
      expect(res.statusCode).toBe(201);
      expect(res.headers['idempotent-replay']).toBe('false');
      const device = body(res).data;
      expect(keysOf(device)).toEqual(DEVICE_KEYS);
      expect(device).toMatchObject({
        name: 'Bench sensor',
        type: 'sensor',
        hardware: null,
        status: 'active',
        firmware_version: null,
        room_id: null,
        last_seen_at: null,
        metadata: {},
      });
      expect(device.created_at).toMatch(ISO_MS);
      expect(device.updated_at).toBe(device.created_at);
      expect(dataOf(await owner.get('/api/v1/devices'), 200)).toEqual([device]);
    });

    it('reads back every field it accepts', async () => {
      const room = await addRoom(t.database, lab.workspaceId);
      const sent = {
        name: 'Growth room controller',
        type: 'controller',
        hardware: 'ESP32-S3',
        firmware_version: '2.4.1',
        room_id: room,
        metadata: { mac: 'a4:cf:12:00:00:01', channels: [1, 2], calibrated: true, gain: 1.5 },
      };
      const device = await newDevice(owner, sent);
      expect(device).toMatchObject(sent);
      expect(dataOf(await owner.get('/api/v1/devices'), 200)).toEqual([device]);
    });

    it('answers a room of another workspace as an unknown one (404) and registers nothing', async () => {
      const other = await createLab(t.database, { name: 'Other lab' });
      const theirs = await addRoom(t.database, other.workspaceId);
      expectSameAnswer(
        await owner.post('/api/v1/devices', { name: 'S', room_id: theirs }),
        await owner.post('/api/v1/devices', { name: 'S', room_id: randomId() }),
        404,
        'NOT_FOUND',
      );
      expect(await devicesOf(owner)).toEqual([]);
    });

    it.each([
      [{ name: '' }, /^name: must not be empty/],
      [{ name: 'x'.repeat(101) }, /^name: must be at most 100/],
      [{}, /^name: is required/],
      [{ name: 'S', type: 'thermostat' }, /^type: must be one of: sensor, controller, gateway/],
      [{ name: 'S', hardware: 'h'.repeat(101) }, /^hardware: must be at most 100/],
      [{ name: 'S', firmware_version: 'f'.repeat(51) }, /^firmware_version: must be at most 50/],
      [{ name: 'S', room_id: 'room-1' }, /^room_id: must be a UUID/],
      [{ name: 'S', metadata: [1, 2] }, /^metadata: must be object/],
      [{ name: 'S', metadata: { blob: 'x'.repeat(10_001) } }, /^metadata: must be at most 10000/],
      [{ name: 'S', status: 'paused' }, /unknown field "status"/],
      [{ name: 'S', metadata: { note: 'a\u0000b' } }, /NUL/],
    ])('refuses %j with 422 and registers nothing', async (payload, error) => {
      expectError(await owner.post('/api/v1/devices', payload), 422, 'VALIDATION_ERROR', error);
      expect(await devicesOf(owner)).toEqual([]);
    });

    it('replays a registration sent again with the same Idempotency-Key', async () => {
      const headers = { 'idempotency-key': 'register-sensor-0001' };
      const first = await owner.post('/api/v1/devices', { name: 'Once' }, headers);
      const again = await owner.post('/api/v1/devices', { name: 'Once' }, headers);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replay']).toBe('true');
      expect(body(again)).toEqual(body(first));
      expect(await devicesOf(owner)).toHaveLength(1);
    });

    it('needs a manager: a member is refused with 403 naming the role and nothing is registered', async () => {
      const member = client(t, await lab.actor('member'));
      const res = await member.post('/api/v1/devices', { name: 'Mine' });
      expectError(res, 403, 'FORBIDDEN', /manager role/);
      expect(await devicesOf(owner)).toEqual([]);
      const manager = client(t, await lab.actor('manager'));
      expect((await manager.post('/api/v1/devices', { name: 'Ours' })).statusCode).toBe(201);
      // Any member may list them.
      const viewer = client(t, await lab.actor('viewer'));
      expect(await devicesOf(viewer)).toHaveLength(1);
    });

    it('refuses a device token with 403 DEVICE_TOKEN_NOT_ACCEPTED', async () => {
      const device = await lab.deviceToken();
      const as = client(t, device);
      expectError(await as.get('/api/v1/devices'), 403, 'DEVICE_TOKEN_NOT_ACCEPTED');
      expectError(
        await as.post('/api/v1/devices', { name: 'Rogue' }),
        403,
        'DEVICE_TOKEN_NOT_ACCEPTED',
      );
      expect(await devicesOf(owner)).toHaveLength(1);
    });
  });

  describe('device allowance (decision 7)', () => {
    it.each([
      ['hobby', 3],
      ['pro_lab', 10],
      ['teams', 100],
    ] as [Plan, number][])(
      'lets %s register %i devices, then answers 402 DEVICE_LIMIT_REACHED',
      async (plan, allowance) => {
        const planLab = await createLab(t.database, { plan });
        const c = client(t, planLab.owner);
        await registerMany(planLab.workspaceId, allowance - 1);
        expect((await c.post('/api/v1/devices', { name: 'Last one' })).statusCode).toBe(201);
        const refused = await c.post('/api/v1/devices', { name: 'One too many' });
        expectError(refused, 402, 'DEVICE_LIMIT_REACHED', new RegExp(`${allowance} devices`));
        expect(await inUse(c)).toBe(allowance);
      },
    );

    it('does not count retired devices; paused ones count', async () => {
      const hobby = await createLab(t.database, { plan: 'hobby' });
      const c = client(t, hobby.owner);
      const [first, second] = await registerMany(hobby.workspaceId, 3);
      expectError(await c.post('/api/v1/devices', { name: 'D-4' }), 402, 'DEVICE_LIMIT_REACHED');
      await inTransaction(t.database.db, (trx) => changeDeviceStatus(trx, first!.id, 'paused'));
      expectError(await c.post('/api/v1/devices', { name: 'D-4' }), 402, 'DEVICE_LIMIT_REACHED');
      await inTransaction(t.database.db, (trx) => changeDeviceStatus(trx, second!.id, 'retired'));
      expect((await c.post('/api/v1/devices', { name: 'D-4' })).statusCode).toBe(201);
      expectError(await c.post('/api/v1/devices', { name: 'D-5' }), 402, 'DEVICE_LIMIT_REACHED');
      // Re-activating is the admin's call (vitro device set-status); it is not refused.
      await inTransaction(t.database.db, (trx) => changeDeviceStatus(trx, second!.id, 'active'));
      expect(await inUse(c)).toBe(4);
    });

    it("follows the workspace's own allowance over the plan's", async () => {
      await inTransaction(t.database.db, (trx) =>
        updateWorkspaceSettings(trx, lab.workspaceId, { device_allowance: 1 }),
      );
      expect((await owner.post('/api/v1/devices', { name: 'Only' })).statusCode).toBe(201);
      expectError(
        await owner.post('/api/v1/devices', { name: 'Second' }),
        402,
        'DEVICE_LIMIT_REACHED',
        /1 device in use/,
      );
      await inTransaction(t.database.db, (trx) =>
        updateWorkspaceSettings(trx, lab.workspaceId, { device_allowance: 0 }),
      );
      expectError(await owner.post('/api/v1/devices', { name: 'S' }), 402, 'DEVICE_LIMIT_REACHED');
      await inTransaction(t.database.db, (trx) =>
        updateWorkspaceSettings(trx, lab.workspaceId, { device_allowance: null }),
      );
      expect((await owner.post('/api/v1/devices', { name: 'Second' })).statusCode).toBe(201);
    });

    it('has no limit on enterprise', async () => {
      const big = await createLab(t.database, { plan: 'enterprise' });
      const c = client(t, big.owner);
      await registerMany(big.workspaceId, 120);
      expect((await c.post('/api/v1/devices', { name: 'Number 121' })).statusCode).toBe(201);
    });

    it('holds under 20 concurrent registrations at the edge: exactly one fits', async () => {
      const hobby = await createLab(t.database, { plan: 'hobby' });
      const c = client(t, hobby.owner);
      const [retired] = await registerMany(hobby.workspaceId, 3);
      await inTransaction(t.database.db, (trx) => changeDeviceStatus(trx, retired!.id, 'retired'));
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => c.post('/api/v1/devices', { name: `Race ${i}` })),
      );
      expect(outcomes(responses)).toEqual([
        '201',
        ...Array<string>(19).fill('402 DEVICE_LIMIT_REACHED'),
      ]);
      expect(await inUse(c)).toBe(3);
    });

    it('holds under 20 concurrent registrations with room for 10', async () => {
      const pro = await createLab(t.database, { plan: 'pro_lab' });
      const c = client(t, pro.owner);
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => c.post('/api/v1/devices', { name: `Race ${i}` })),
      );
      expect(outcomes(responses)).toEqual([
        ...Array<string>(10).fill('201'),
        ...Array<string>(10).fill('402 DEVICE_LIMIT_REACHED'),
      ]);
      expect(await inUse(c)).toBe(10);
    });

    it.runIf(target.name === 'postgres')(
      'answers 503 DEVICE_LIMIT_UNAVAILABLE when the allowance cannot be checked in time',
      async () => {
        let locked!: () => void;
        const lockTaken = new Promise<void>((resolve) => (locked = resolve));
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        // Another writer holds the workspace (an import, say) past the 2 s the check waits.
        const holder = inTransaction(t.database.db, async (trx) => {
          await sql`select id from workspaces where id = ${lab.workspaceId} for update`.execute(
            trx,
          );
          locked();
          await released;
        });
        await lockTaken;
        const res = await owner.post('/api/v1/devices', { name: 'Waiting' });
        release();
        await holder;
        expectError(res, 503, 'DEVICE_LIMIT_UNAVAILABLE');
        expect(res.headers['retry-after']).toBe('1');
        expect(await devicesOf(owner)).toEqual([]);
      },
    );
  });

  describe('GET /devices', () => {
    it('lists newest first with a stable order, pages by cursor and by offset', async () => {
      const created = [];
      for (let i = 0; i < 5; i++) created.push(await newDevice(owner, { name: `D-${i}` }));
      const newestFirst = [...created].reverse();
      expect(await listAll(owner, '/api/v1/devices', 2)).toEqual(newestFirst);
      const second = dataOf(await owner.get('/api/v1/devices?limit=2&offset=2'), 200);
      expect(second).toEqual(newestFirst.slice(2, 4));
      expectError(
        await owner.get('/api/v1/devices?offset=1&cursor=abc'),
        422,
        'VALIDATION_ERROR',
        /cursor and offset/,
      );
      expectError(await owner.get('/api/v1/devices?cursor=abc.def'), 422, 'INVALID_CURSOR');
      expectError(await owner.get('/api/v1/devices?limit=0'), 422, 'VALIDATION_ERROR', /limit/);
    });

    it('pages 200 by default and caps larger pages at 200', async () => {
      const big = await createLab(t.database, { plan: 'enterprise' });
      const c = client(t, big.owner);
      await registerMany(big.workspaceId, 205);
      const first = await c.get('/api/v1/devices');
      expect(dataOf(first, 200)).toHaveLength(200);
      expect(body(first).meta.next_cursor).toEqual(expect.any(String));
      const capped = await c.get('/api/v1/devices?limit=1000');
      expect(dataOf(capped, 200)).toHaveLength(200);
      const rest = await c.get(
        `/api/v1/devices?cursor=${encodeURIComponent(body(capped).meta.next_cursor as string)}`,
      );
      expect(dataOf(rest, 200)).toHaveLength(5);
      expect(body(rest).meta.next_cursor).toBeNull();
    });

    it("never shows another workspace's devices", async () => {
      const other = await createLab(t.database, { name: 'Other lab' });
      await newDevice(client(t, other.owner), { name: 'Theirs' });
      const mine = await newDevice(owner, { name: 'Mine' });
      expect(await devicesOf(owner)).toEqual([mine]);
    });
  });

  describe('plans', () => {
    it.each(['hobby', 'pro_lab'] as Plan[])('lets %s list and register devices', async (plan) => {
      const small = await createLab(t.database, { plan });
      const c = client(t, small.owner);
      const device = await newDevice(c);
      expect(dataOf(await c.get('/api/v1/devices'), 200)).toEqual([device]);
    });

    it('refuses the free plan with 402 PAID_PLAN_REQUIRED', async () => {
      const free = await createLab(t.database, { plan: 'free' });
      const c = client(t, free.owner);
      expectError(await c.get('/api/v1/devices'), 402, 'PAID_PLAN_REQUIRED');
      expectError(await c.post('/api/v1/devices', { name: 'S' }), 402, 'PAID_PLAN_REQUIRED');
    });
  });
});
