import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { inTransaction } from '../../src/db/transaction.js';
import type { Plan } from '../../src/kernel/access.js';
import { hashCredential } from '../../src/kernel/credentials.js';
import { changeDeviceStatus, mintDeviceToken } from '../../src/modules/devices/index.js';
import {
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
import { body, createLab, testConfig, twoHandles } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  del,
  expectNoStore,
  nestedArrays,
  newDevice,
  newToken,
  reading,
  send,
  TOKEN_KEYS,
} from './helpers.js';

describeOnDatabases('Device tokens', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });
  let device: { id: string };
  beforeEach(async () => {
    device = await newDevice(owner);
  });

  const tokensUrl = () => `/api/v1/devices/${device.id}/tokens`;
  const tokensOf = (c: Client, deviceId = device.id) =>
    listAll(c, `/api/v1/devices/${deviceId}/tokens`);
  /** A call only a working token can make: a heartbeat of its device. */
  const heartbeat = (headers: { authorization: string }, deviceId = device.id) =>
    send(t, { headers }, 'POST', `/api/v1/devices/${deviceId}/heartbeat`);
  const storedRow = (id: string) =>
    t.database.db.selectFrom('device_tokens').selectAll().where('id', '=', id).executeTakeFirst();
  /** A token's last use is written after the response that used it: wait until it lands. */
  const usedOnce = (id: string) =>
    expect.poll(async () => (await storedRow(id))?.last_used_at ?? null).not.toBeNull();

  describe('POST /devices/{deviceId}/tokens', () => {
    it('shows the token once and keeps only its SHA-256', async () => {
      const res = await owner.post(tokensUrl(), { name: 'Greenhouse gateway' });
      expect(res.statusCode).toBe(201);
      expectNoStore(res);
      const minted = body(res).data;
      expect(keysOf(minted)).toEqual(
        [...TOKEN_KEYS, 'token']
          .filter((k) => !['status', 'lastUsedAt', 'revokedAt'].includes(k))
          .sort(),
      );
      expect(minted).toMatchObject({
        deviceId: device.id,
        name: 'Greenhouse gateway',
        environment: 'production',
      });
      expect(minted.token).toMatch(/^xpd_live_[0-9A-Za-z]{38}$/);
      expect(minted.token.startsWith(minted.prefix)).toBe(true);
      expect(minted.prefix).toHaveLength('xpd_live_'.length + 4);
      expect(minted.createdAt).toMatch(ISO_MS);
      const row = await storedRow(minted.id);
      expect(row!.token_hash).toBe(hashCredential(minted.token));
      expect(JSON.stringify(row)).not.toContain(minted.token.slice(9));
      const listed = await tokensOf(owner);
      expect(listed).toHaveLength(1);
      expect(JSON.stringify(listed)).not.toContain(minted.token.slice(9));
      expect((await heartbeat({ authorization: `Bearer ${minted.token}` })).statusCode).toBe(200);
    });

    it('mints xpd_dev_ tokens for development', async () => {
      const minted = await newToken(owner, device.id, { environment: 'development' });
      expect(minted.token).toMatch(/^xpd_dev_/);
      expect(minted.environment).toBe('development');
      expect((await heartbeat(minted.headers)).statusCode).toBe(200);
    });

    it('takes no body, {}, or an empty body sent as JSON; refuses what is not JSON', async () => {
      const none = await send(t, lab.owner, 'POST', tokensUrl());
      const empty = await send(t, lab.owner, 'POST', tokensUrl(), { payload: {} });
      const blank = await send(t, lab.owner, 'POST', tokensUrl(), {
        payload: '',
        headers: { 'content-type': 'application/json' },
      });
      for (const res of [none, empty, blank]) {
        expect(dataOf(res, 201)).toMatchObject({ name: null, environment: 'production' });
      }
      expectError(
        await send(t, lab.owner, 'POST', tokensUrl(), {
          payload: '{"name":',
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'VALIDATION_ERROR',
      );
      expectError(await owner.post(tokensUrl(), { name: '' }), 422, 'VALIDATION_ERROR', /^name:/);
      expectError(
        await owner.post(tokensUrl(), { environment: 'staging' }),
        422,
        'VALIDATION_ERROR',
        /^environment:/,
      );
      expectError(await owner.post(tokensUrl(), { scopes: [] }), 422, 'VALIDATION_ERROR');
      expect(await tokensOf(owner)).toHaveLength(3);
    });

    it('never stores or replays a minting: a retry with the same Idempotency-Key mints another token', async () => {
      const key = { 'idempotency-key': 'mint-gateway-0001' };
      const first = await owner.post(tokensUrl(), { name: 'gw' }, key);
      const retry = await owner.post(tokensUrl(), { name: 'gw' }, key);
      for (const res of [first, retry]) {
        expect(res.statusCode).toBe(201);
        expectNoStore(res);
      }
      const [a, b] = [body(first).data, body(retry).data];
      expect(a.id).not.toBe(b.id);
      expect(a.token).not.toBe(b.token);
      for (const token of [a.token, b.token]) {
        expect((await heartbeat({ authorization: `Bearer ${token}` })).statusCode).toBe(200);
      }
      const stored = await t.database.db
        .selectFrom('idempotency_keys')
        .select('response_body')
        .where('idempotency_key', '=', 'mint-gateway-0001')
        .execute();
      expect(stored).toEqual([]);
      expect(await tokensOf(owner)).toHaveLength(2);
    });

    it('refuses a paused or retired device with 422 and mints nothing', async () => {
      for (const status of ['paused', 'retired']) {
        await inTransaction(t.database.db, (trx) => changeDeviceStatus(trx, device.id, status));
        expectError(
          await owner.post(tokensUrl(), {}),
          422,
          'VALIDATION_ERROR',
          new RegExp(`device is ${status}`),
        );
      }
      await inTransaction(t.database.db, (trx) => changeDeviceStatus(trx, device.id, 'active'));
      expect((await owner.post(tokensUrl(), {})).statusCode).toBe(201);
      expect(await tokensOf(owner)).toHaveLength(1);
    });
  });

  describe('GET /devices/{deviceId}/tokens', () => {
    it('lists active and revoked tokens newest first, camelCase, with their last use', async () => {
      const first = await newToken(owner, device.id, { name: 'one' });
      const second = await newToken(owner, device.id, { name: 'two' });
      expect((await heartbeat(first.headers)).statusCode).toBe(200);
      await usedOnce(first.id);
      dataOf(await del(t, lab.owner, `${tokensUrl()}/${second.id}`), 200);
      const listed = await tokensOf(owner);
      expect(listed.map((tok) => tok.id)).toEqual([second.id, first.id]);
      for (const tok of listed) expect(keysOf(tok)).toEqual(TOKEN_KEYS);
      expect(listed[0]).toMatchObject({ name: 'two', status: 'revoked', lastUsedAt: null });
      expect(listed[0].revokedAt).toMatch(ISO_MS);
      expect(listed[1]).toMatchObject({ name: 'one', status: 'active', revokedAt: null });
      expect(listed[1].lastUsedAt).toMatch(ISO_MS);
      expect(listed[1].prefix).toBe(first.prefix);
    });

    it('pages 200 by default, caps at 200, and follows cursors', async () => {
      await inTransaction(t.database.db, async (trx) => {
        for (let i = 0; i < 203; i++) {
          await mintDeviceToken(trx, { workspaceId: lab.workspaceId, deviceId: device.id });
        }
      });
      const page = await owner.get(tokensUrl());
      expect(dataOf(page, 200)).toHaveLength(200);
      expect(dataOf(await owner.get(`${tokensUrl()}?limit=500`), 200)).toHaveLength(200);
      const rest = await owner.get(
        `${tokensUrl()}?cursor=${encodeURIComponent(body(page).meta.next_cursor as string)}`,
      );
      expect(dataOf(rest, 200)).toHaveLength(3);
      expect(body(rest).meta.next_cursor).toBeNull();
      expect(await tokensOf(owner)).toHaveLength(203);
    });
  });

  describe('DELETE /devices/{deviceId}/tokens/{tokenId}', () => {
    it('revokes at once and repeatably, keeping the first revokedAt', async () => {
      const minted = await newToken(owner, device.id);
      expect((await heartbeat(minted.headers)).statusCode).toBe(200);
      await usedOnce(minted.id);
      const revoked = dataOf(await del(t, lab.owner, `${tokensUrl()}/${minted.id}`), 200);
      expect(keysOf(revoked)).toEqual(TOKEN_KEYS);
      expect(revoked).toMatchObject({ id: minted.id, status: 'revoked', deviceId: device.id });
      expectError(await heartbeat(minted.headers), 401, 'UNAUTHORIZED');
      await new Promise((resolve) => setTimeout(resolve, 5));
      const again = dataOf(await del(t, lab.owner, `${tokensUrl()}/${minted.id}`), 200);
      expect(again).toEqual(revoked);
      expect((await tokensOf(owner))[0]).toEqual(revoked);
    });

    it('leaves the other tokens of the device working', async () => {
      const [a, b] = [await newToken(owner, device.id), await newToken(owner, device.id)];
      dataOf(await del(t, lab.owner, `${tokensUrl()}/${a.id}`), 200);
      expectError(await heartbeat(a.headers), 401, 'UNAUTHORIZED');
      expect((await heartbeat(b.headers)).statusCode).toBe(200);
    });

    it('answers a token of another device, of another workspace or malformed as an unknown one', async () => {
      const minted = await newToken(owner, device.id);
      const sibling = await newDevice(owner, { name: 'Sibling' });
      const other = await createLab(t.database, { name: 'Other lab' });
      const theirDevice = await newDevice(client(t, other.owner));
      const theirToken = await newToken(client(t, other.owner), theirDevice.id);
      const unknown = await del(t, lab.owner, `${tokensUrl()}/${randomId()}`);
      for (const url of [
        `/api/v1/devices/${sibling.id}/tokens/${minted.id}`,
        `/api/v1/devices/${theirDevice.id}/tokens/${theirToken.id}`,
        `${tokensUrl()}/${theirToken.id}`,
        `/api/v1/devices/${randomId()}/tokens/${minted.id}`,
        `${tokensUrl()}/not-a-token`,
        `/api/v1/devices/not-a-device/tokens/${minted.id}`,
      ]) {
        expectSameAnswer(await del(t, lab.owner, url), unknown, 404, 'NOT_FOUND');
      }
      expect((await heartbeat(minted.headers)).statusCode).toBe(200);
      expect(
        (await heartbeat(theirToken.headers as { authorization: string }, theirDevice.id))
          .statusCode,
      ).toBe(200);
    });

    it('replays a revocation sent again with the same Idempotency-Key', async () => {
      const minted = await newToken(owner, device.id);
      const headers = { 'idempotency-key': 'revoke-gw-000001' };
      const first = await send(t, lab.owner, 'DELETE', `${tokensUrl()}/${minted.id}`, { headers });
      const again = await send(t, lab.owner, 'DELETE', `${tokensUrl()}/${minted.id}`, { headers });
      expect(first.headers['idempotent-replay']).toBe('false');
      expect(again.headers['idempotent-replay']).toBe('true');
      expect(body(again)).toEqual(body(first));
    });

    it('ignores a body sent anyway, also with an Idempotency-Key: any JSON, however deep', async () => {
      const [a, b] = [await newToken(owner, device.id), await newToken(owner, device.id)];
      const json = { 'content-type': 'application/json' };
      const deep = nestedArrays(20_000);
      const plain = dataOf(
        await send(t, lab.owner, 'DELETE', `${tokensUrl()}/${a.id}`, {
          payload: deep,
          headers: json,
        }),
        200,
      );
      expect(plain).toMatchObject({ id: a.id, status: 'revoked' });
      const headers = { ...json, 'idempotency-key': 'revoke-gw-000002' };
      const first = await send(t, lab.owner, 'DELETE', `${tokensUrl()}/${b.id}`, {
        payload: deep,
        headers,
      });
      expect(dataOf(first, 200)).toMatchObject({ id: b.id, status: 'revoked' });
      // The body is no part of the request: another one with the same key is a replay.
      const again = await send(t, lab.owner, 'DELETE', `${tokensUrl()}/${b.id}`, {
        payload: { reason: 'lost' },
        headers,
      });
      expect(again.headers['idempotent-replay']).toBe('true');
      expect(body(again)).toEqual(body(first));
      expectError(await heartbeat(b.headers), 401, 'UNAUTHORIZED');
    });
  });

  describe('who may', () => {
    it('answers an unknown device, one of another workspace or a malformed id alike (404)', async () => {
      const other = await createLab(t.database, { name: 'Other lab' });
      const theirs = await newDevice(client(t, other.owner));
      for (const method of ['GET', 'POST'] as const) {
        const reference = await send(t, lab.owner, method, `/api/v1/devices/${randomId()}/tokens`);
        for (const id of [theirs.id, 'nope', '00000000-0000-0000-0000-00000000000g']) {
          expectSameAnswer(
            await send(t, lab.owner, method, `/api/v1/devices/${id}/tokens`),
            reference,
            404,
            'NOT_FOUND',
          );
        }
      }
      expect(await tokensOf(client(t, other.owner), theirs.id)).toEqual([]);
    });

    it('refuses device tokens on the token operations (403 DEVICE_TOKEN_NOT_ACCEPTED)', async () => {
      const minted = await newToken(owner, device.id);
      const asDevice = { headers: minted.headers };
      for (const [method, url] of [
        ['GET', tokensUrl()],
        ['POST', tokensUrl()],
        ['DELETE', `${tokensUrl()}/${minted.id}`],
      ] as const) {
        expectError(await send(t, asDevice, method, url), 403, 'DEVICE_TOKEN_NOT_ACCEPTED');
      }
      expect(await tokensOf(owner)).toHaveLength(1);
      expect((await heartbeat(minted.headers)).statusCode).toBe(200);
    });

    it('lets any member list, a manager mint and revoke; a member is refused and nothing changes', async () => {
      const minted = await newToken(owner, device.id);
      const viewer = client(t, await lab.actor('viewer'));
      expect(await tokensOf(viewer)).toHaveLength(1);
      const member = await lab.actor('member');
      expectError(await client(t, member).post(tokensUrl(), {}), 403, 'FORBIDDEN', /manager/);
      expectError(await del(t, member, `${tokensUrl()}/${minted.id}`), 403, 'FORBIDDEN');
      expect((await tokensOf(owner)).map((tok) => tok.status)).toEqual(['active']);
      const manager = await lab.actor('manager');
      expect((await client(t, manager).post(tokensUrl(), {})).statusCode).toBe(201);
      expect((await del(t, manager, `${tokensUrl()}/${minted.id}`)).statusCode).toBe(200);
    });

    it.each(['hobby', 'pro_lab'] as Plan[])('works on %s', async (plan) => {
      const small = await createLab(t.database, { plan });
      const c = client(t, small.owner);
      const mine = await newDevice(c);
      const minted = await newToken(c, mine.id);
      expect(await tokensOf(c, mine.id)).toHaveLength(1);
      expect((await heartbeat(minted.headers, mine.id)).statusCode).toBe(200);
      expect(
        (await del(t, small.owner, `/api/v1/devices/${mine.id}/tokens/${minted.id}`)).statusCode,
      ).toBe(200);
    });
  });

  it('revokes every token when the device is paused; re-activating brings none back', async () => {
    const [a, b] = [await newToken(owner, device.id), await newToken(owner, device.id)];
    await inTransaction(t.database.db, (trx) => changeDeviceStatus(trx, device.id, 'paused'));
    await inTransaction(t.database.db, (trx) => changeDeviceStatus(trx, device.id, 'active'));
    for (const token of [a, b]) expectError(await heartbeat(token.headers), 401, 'UNAUTHORIZED');
    expect((await tokensOf(owner)).map((tok) => tok.status)).toEqual(['revoked', 'revoked']);
  });
});

/** Two servers on one database: a token revoked through one is refused by the other at once. */
describeOnDatabases('Device token revocation across instances', (target) => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  it('refuses the token on the very next request to the other instance', async () => {
    const [one, two] = await twoHandles(target);
    const appOne = await buildApp(testConfig(GENEROUS_LIMITS), { database: one, logger: false });
    const appTwo = await buildApp(testConfig(GENEROUS_LIMITS), { database: two, logger: false });
    closers.push(async () => {
      await appOne.close();
      await appTwo.close();
      await one.close();
      await two.close();
    });
    const lab = await createLab(one);
    const device = dataOf(
      await appOne.inject({
        method: 'POST',
        url: '/api/v1/devices',
        headers: lab.owner.headers,
        payload: { name: 'Shared' },
      }),
      201,
    );
    const minted = dataOf(
      await appOne.inject({
        method: 'POST',
        url: `/api/v1/devices/${device.id}/tokens`,
        headers: lab.owner.headers,
      }),
      201,
    );
    const ingest = () =>
      appTwo.inject({
        method: 'POST',
        url: '/api/v1/sensor-readings',
        headers: { authorization: `Bearer ${minted.token}` },
        payload: reading(device.id),
      });
    // Warm: the second instance has read the token (SQLite reuses rows until a change).
    expect((await ingest()).statusCode).toBe(201);
    expect((await ingest()).statusCode).toBe(201);
    const revoked = await appOne.inject({
      method: 'DELETE',
      url: `/api/v1/devices/${device.id}/tokens/${minted.id}`,
      headers: lab.owner.headers,
    });
    expect(revoked.statusCode).toBe(200);
    expectError(await ingest(), 401, 'UNAUTHORIZED');
  });
});
