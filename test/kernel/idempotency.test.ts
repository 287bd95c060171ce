import { expect, it } from 'vitest';
import Type from 'typebox';
import { newId } from '../../src/kernel/ids.js';
import { purgeExpiredIdempotencyKeys, requestFingerprint } from '../../src/kernel/idempotency.js';
import type { Routes } from '../../src/kernel/routes/index.js';
import { upsertRoom } from '../../src/modules/lab/lab.repository.js';
import { body, createLab, type Lab } from '../support/harness.js';
import { appSuite, describeOnDatabases } from '../support/suite.js';

const failedOnce = new Set<string>();
/** What the prepare step of `rooms-prepared` left behind and `discard` has not undone. */
const leftBehind = new Set<string>();

function idempotencyTestRoutes(routes: Routes) {
  const RoomBody = Type.Object({ name: Type.String() }, { additionalProperties: false });
  const Room = Type.Object({ id: Type.String(), name: Type.String(), signed: Type.String() });
  const writeRoom = async (
    db: Parameters<typeof upsertRoom>[0],
    workspaceId: string,
    name: string,
  ) => {
    const room = {
      id: newId(),
      workspace_id: workspaceId,
      name,
      created_at: new Date().toISOString(),
      archived_at: null,
    };
    await upsertRoom(db, room);
    return room;
  };
  routes.write({
    method: 'POST',
    url: '/api/v1/test/rooms-flaky',
    operationId: 'testRoomsFlaky',
    tags: ['Account'],
    summary: 'fails on the first attempt for each name',
    scope: 'write:plants',
    failureCode: 'PLANT_CREATE_FAILED',
    body: RoomBody,
    data: Room,
    handler: async (req, ctx) => {
      const room = await writeRoom(ctx.trx, ctx.principal.workspaceId, req.body.name);
      if (!failedOnce.has(req.body.name)) {
        failedOnce.add(req.body.name);
        throw new Error('transient failure after the write');
      }
      return { data: { ...room, signed: 'first' } };
    },
  });
  routes.write({
    method: 'POST',
    url: '/api/v1/test/rooms-lease-lost',
    operationId: 'testRoomsLeaseLost',
    tags: ['Account'],
    summary: 'loses its idempotency lease while writing',
    scope: 'write:plants',
    failureCode: 'PLANT_CREATE_FAILED',
    body: RoomBody,
    data: Room,
    handler: async (req, ctx) => {
      const room = await writeRoom(ctx.trx, ctx.principal.workspaceId, req.body.name);
      // Another worker took the claim over (our lease ran out): the write must not commit.
      await ctx.trx
        .updateTable('idempotency_keys')
        .set({ lease_token: 'taken-over' })
        .where('idempotency_key', '=', String(req.headers['idempotency-key']))
        .execute();
      return { data: { ...room, signed: 'never' } };
    },
  });
  routes.write({
    method: 'POST',
    url: '/api/v1/test/rooms-signed',
    operationId: 'testRoomsSigned',
    tags: ['Account'],
    summary: 'refreshes part of a replayed body',
    scope: 'write:plants',
    failureCode: 'PLANT_CREATE_FAILED',
    body: RoomBody,
    data: Room,
    onReplay: (payload) => ({
      ...payload,
      data: { ...(payload.data as object), signed: 'refreshed' },
    }),
    handler: async (req, ctx) => ({
      data: {
        ...(await writeRoom(ctx.trx, ctx.principal.workspaceId, req.body.name)),
        signed: 'first',
      },
    }),
  });
  routes.prepareAndWrite({
    method: 'POST',
    url: '/api/v1/test/rooms-slow',
    operationId: 'testRoomsSlow',
    tags: ['Account'],
    summary: 'slow work outside the transaction, then the write',
    scope: 'write:plants',
    failureCode: 'PLANT_CREATE_FAILED',
    body: Type.Object(
      { name: Type.String(), fail: Type.Optional(Type.Boolean()) },
      { additionalProperties: false },
    ),
    data: Room,
    onReplay: (payload) => ({
      ...payload,
      data: { ...(payload.data as object), signed: 'replayed' },
    }),
    prepare: async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
    },
    write: async (req, ctx) => {
      const room = await writeRoom(ctx.trx, ctx.principal.workspaceId, req.body.name);
      if (req.body.fail === true) throw new Error('failed after the write');
      return { data: { ...room, signed: 'fresh' } };
    },
  });
  routes.prepareAndWrite({
    method: 'POST',
    url: '/api/v1/test/rooms-prepared',
    operationId: 'testRoomsPrepared',
    tags: ['Account'],
    summary: 'prepares outside the transaction; a failed write discards what was prepared',
    scope: 'write:plants',
    failureCode: 'PLANT_CREATE_FAILED',
    body: Type.Object(
      { name: Type.String(), fail: Type.Optional(Type.Boolean()) },
      { additionalProperties: false },
    ),
    data: Room,
    prepare: async (req) => {
      leftBehind.add(req.body.name);
      return { blob: req.body.name };
    },
    write: async (req, ctx, prepared) => {
      const room = await writeRoom(ctx.trx, ctx.principal.workspaceId, prepared.blob);
      if (req.body.fail === true) throw new Error('failed after the write');
      return { data: { ...room, signed: 'prepared' } };
    },
    discard: async (prepared) => {
      leftBehind.delete(prepared.blob);
    },
  });
  routes.write({
    method: 'POST',
    url: '/api/v1/test/rooms-secret',
    operationId: 'testRoomsSecret',
    tags: ['Account'],
    summary: 'carries a secret: never stored',
    scope: 'write:plants',
    failureCode: 'PLANT_CREATE_FAILED',
    idempotency: 'ignore',
    body: RoomBody,
    data: Room,
    handler: async (req, ctx) => ({
      data: {
        ...(await writeRoom(ctx.trx, ctx.principal.workspaceId, req.body.name)),
        signed: 'secret',
      },
    }),
  });
}

describeOnDatabases('idempotency', (target) => {
  const { t } = appSuite(target, { extraRoutes: idempotencyTestRoutes });

  const post = (
    lab: Lab,
    url: string,
    payload: unknown,
    key?: string,
    headers = lab.owner.headers,
  ) =>
    t.request({
      method: 'POST',
      url,
      headers: key === undefined ? headers : { ...headers, 'idempotency-key': key },
      payload: payload as object,
    });
  const countPlants = async (workspaceId: string) =>
    (
      await t.database.db
        .selectFrom('plants')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirstOrThrow()
    ).n;
  const countRooms = async (workspaceId: string, name: string) =>
    (
      await t.database.db
        .selectFrom('rooms')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .where('name', '=', name)
        .executeTakeFirstOrThrow()
    ).n;

  it('replays the first response within 24 hours, marking it', async () => {
    const lab = await createLab(t.database);
    const first = await post(lab, '/api/v1/plants', { species: 'Alocasia' }, 'replay-key-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replay']).toBe('false');
    const second = await post(lab, '/api/v1/plants', { species: 'Alocasia' }, 'replay-key-1');
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replay']).toBe('true');
    expect(second.body).toBe(first.body);
    expect(Number(await countPlants(lab.workspaceId))).toBe(1);
    const without = await post(lab, '/api/v1/plants', { species: 'Alocasia' });
    expect(without.headers['idempotent-replay']).toBe('false');
    expect(Number(await countPlants(lab.workspaceId))).toBe(2);
  });

  it('refuses a reused key with a different request (422) and a malformed key (422), writing nothing', async () => {
    const lab = await createLab(t.database);
    expect((await post(lab, '/api/v1/plants', { species: 'A' }, 'reused-key-1')).statusCode).toBe(
      201,
    );
    const different = await post(lab, '/api/v1/plants', { species: 'B' }, 'reused-key-1');
    expect(different.statusCode).toBe(422);
    expect(body(different)).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: expect.stringContaining('Idempotency-Key'),
    });
    for (const key of ['short', 'x'.repeat(256), 'has space', 'slash/key1', 'ünïcode-key']) {
      const res = await post(lab, '/api/v1/plants', { species: 'C' }, key);
      expect(res.statusCode, key).toBe(422);
      expect(body(res).error).toContain('Idempotency-Key');
    }
    expect(Number(await countPlants(lab.workspaceId))).toBe(1);
    const longest = await post(
      lab,
      '/api/v1/plants',
      { species: 'D' },
      `a.b_c:d~e-${'z'.repeat(245)}`,
    );
    expect(longest.statusCode).toBe(201);
  });

  it('stores only 2xx: a refused request frees its key for a corrected retry', async () => {
    const lab = await createLab(t.database);
    const invalid = await post(lab, '/api/v1/plants', { species: '' }, 'fix-me-key');
    expect(invalid.statusCode).toBe(422);
    const fixed = await post(lab, '/api/v1/plants', { species: 'Ficus' }, 'fix-me-key');
    expect(fixed.statusCode).toBe(201);
    expect(fixed.headers['idempotent-replay']).toBe('false');
  });

  it('really retries after a 500 with the same key, and the failed attempt wrote nothing', async () => {
    const lab = await createLab(t.database);
    const name = `flaky-${newId()}`;
    const failed = await post(lab, '/api/v1/test/rooms-flaky', { name }, 'flaky-key-1');
    expect(failed.statusCode).toBe(500);
    expect(body(failed).code).toBe('PLANT_CREATE_FAILED');
    expect(Number(await countRooms(lab.workspaceId, name))).toBe(0);
    const retried = await post(lab, '/api/v1/test/rooms-flaky', { name }, 'flaky-key-1');
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replay']).toBe('false');
    const replayed = await post(lab, '/api/v1/test/rooms-flaky', { name }, 'flaky-key-1');
    expect(replayed.headers['idempotent-replay']).toBe('true');
    expect(Number(await countRooms(lab.workspaceId, name))).toBe(1);
  });

  it('commits the write and the key together: a lost lease rolls the write back', async () => {
    const lab = await createLab(t.database);
    const name = `lease-${newId()}`;
    const res = await post(lab, '/api/v1/test/rooms-lease-lost', { name }, 'lease-lost-key');
    expect(res.statusCode).toBe(409);
    expect(body(res).code).toBe('IDEMPOTENCY_IN_FLIGHT');
    expect(res.headers['retry-after']).toBe('1');
    expect(Number(await countRooms(lab.workspaceId, name))).toBe(0);
  });

  it('runs a replay hook to refresh the stored body', async () => {
    const lab = await createLab(t.database);
    const first = await post(lab, '/api/v1/test/rooms-signed', { name: 'signed' }, 'signed-key-1');
    expect(body(first).data.signed).toBe('first');
    const again = await post(lab, '/api/v1/test/rooms-signed', { name: 'signed' }, 'signed-key-1');
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(body(again).data).toEqual({ ...body(first).data, signed: 'refreshed' });
  });

  it('lets a handler work outside the transaction, then commit write and key together', async () => {
    const lab = await createLab(t.database);
    const name = `slow-${newId()}`;
    const slow = post(lab, '/api/v1/test/rooms-slow', { name }, 'slow-key-1');
    // While the slow part runs, another writer is not held up (on SQLite an open
    // transaction would hold the only connection until the slow part ends).
    await new Promise((resolve) => setTimeout(resolve, 80));
    const started = Date.now();
    const other = await post(lab, '/api/v1/plants', { species: 'Meanwhile' });
    expect(other.statusCode).toBe(201);
    expect(Date.now() - started).toBeLessThan(150);
    const first = await slow;
    expect(first.statusCode).toBe(201);
    expect(body(first).data.signed).toBe('fresh');
    const replay = await post(lab, '/api/v1/test/rooms-slow', { name }, 'slow-key-1');
    expect(replay.headers['idempotent-replay']).toBe('true');
    expect(body(replay).data).toEqual({ ...body(first).data, signed: 'replayed' });
    expect(Number(await countRooms(lab.workspaceId, name))).toBe(1);

    const failing = `slow-fail-${newId()}`;
    const failed = await post(
      lab,
      '/api/v1/test/rooms-slow',
      { name: failing, fail: true },
      'slow-key-2',
    );
    expect(failed.statusCode).toBe(500);
    expect(Number(await countRooms(lab.workspaceId, failing))).toBe(0);
    // The failure freed the key: the corrected retry writes, once.
    const retried = await post(lab, '/api/v1/test/rooms-slow', { name: failing }, 'slow-key-2');
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replay']).toBe('false');
    expect(Number(await countRooms(lab.workspaceId, failing))).toBe(1);
  });

  it('discards what the prepare step made when the write fails, and keeps it when it commits', async () => {
    const lab = await createLab(t.database);
    const failing = `prepared-fail-${newId()}`;
    const failed = await post(
      lab,
      '/api/v1/test/rooms-prepared',
      { name: failing, fail: true },
      'prep-key-01',
    );
    expect(failed.statusCode).toBe(500);
    expect(leftBehind.has(failing)).toBe(false);
    expect(Number(await countRooms(lab.workspaceId, failing))).toBe(0);
    const kept = `prepared-ok-${newId()}`;
    const ok = await post(lab, '/api/v1/test/rooms-prepared', { name: kept }, 'prep-key-02');
    expect(ok.statusCode).toBe(201);
    expect(leftBehind.has(kept)).toBe(true);
    expect(Number(await countRooms(lab.workspaceId, kept))).toBe(1);
  });

  it('never stores a response that carries a secret', async () => {
    const lab = await createLab(t.database);
    const a = await post(lab, '/api/v1/test/rooms-secret', { name: 'secret' }, 'secret-key-1');
    const b = await post(lab, '/api/v1/test/rooms-secret', { name: 'secret' }, 'secret-key-1');
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(body(a).data.id).not.toBe(body(b).data.id);
    expect(b.headers['idempotent-replay']).toBeUndefined();
    expect(Number(await countRooms(lab.workspaceId, 'secret'))).toBe(2);
  });

  it('scopes keys to the API key and the operation', async () => {
    const lab = await createLab(t.database);
    const other = await lab.actor('member');
    const a = await post(lab, '/api/v1/plants', { species: 'Same' }, 'shared-key-1');
    const b = await post(lab, '/api/v1/plants', { species: 'Same' }, 'shared-key-1', other.headers);
    expect(b.headers['idempotent-replay']).toBe('false');
    expect(body(b).data.id).not.toBe(body(a).data.id);
    const patch = await t.request({
      method: 'PATCH',
      url: `/api/v1/plants/${body(a).data.id}`,
      headers: { ...lab.owner.headers, 'idempotency-key': 'shared-key-1' },
      payload: { notes: 'hello' },
    });
    expect(patch.statusCode).toBe(200);
    expect(patch.headers['idempotent-replay']).toBe('false');
  });

  it('50 concurrent requests with one key make exactly one write; the rest replay or get 409', async () => {
    const lab = await createLab(t.database);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        post(lab, '/api/v1/plants', { species: 'Racer' }, 'concurrent-key-1'),
      ),
    );
    const created = responses.filter((r) => r.statusCode === 201);
    const inFlight = responses.filter((r) => r.statusCode === 409);
    expect(created.length + inFlight.length).toBe(50);
    expect(created.filter((r) => r.headers['idempotent-replay'] === 'false')).toHaveLength(1);
    expect(new Set(created.map((r) => body(r).data.id)).size).toBe(1);
    for (const r of inFlight) {
      expect(body(r).code).toBe('IDEMPOTENCY_IN_FLIGHT');
      // The winner is alive and answers in milliseconds.
      expect(r.headers['retry-after']).toBe('1');
    }
    expect(Number(await countPlants(lab.workspaceId))).toBe(1);
    const events = await t.database.db
      .selectFrom('events')
      .select('id')
      .where('workspace_id', '=', lab.workspaceId)
      .execute();
    expect(events).toHaveLength(1);
    const after = await post(lab, '/api/v1/plants', { species: 'Racer' }, 'concurrent-key-1');
    expect(after.headers['idempotent-replay']).toBe('true');
  });

  it('answers 409 while a claim is live and takes over a claim whose lease ran out', async () => {
    const lab = await createLab(t.database);
    const payload = { species: 'Crashed' };
    const claim = (key: string, leaseExpiresAt: string) =>
      t.database.db
        .insertInto('idempotency_keys')
        .values({
          id: newId(),
          credential_id: lab.owner.keyId,
          operation: 'POST /api/v1/plants',
          idempotency_key: key,
          fingerprint: requestFingerprint('POST', '/api/v1/plants', payload),
          state: 'in_flight',
          lease_token: 'crashed-worker',
          lease_expires_at: leaseExpiresAt,
          response_status: null,
          response_body: null,
          created_at: new Date().toISOString(),
          completed_at: null,
        })
        .execute();
    await claim('live-claim-key', new Date(Date.now() + 60_000).toISOString());
    const live = await post(lab, '/api/v1/plants', payload, 'live-claim-key');
    expect(live.statusCode).toBe(409);
    // The lease was written just now: its holder is alive and answers soon.
    expect(live.headers['retry-after']).toBe('1');

    await claim('dead-claim-key', new Date(Date.now() - 1000).toISOString());
    const takeover = await post(lab, '/api/v1/plants', payload, 'dead-claim-key');
    expect(takeover.statusCode).toBe(201);
    expect(takeover.headers['idempotent-replay']).toBe('false');
    const replay = await post(lab, '/api/v1/plants', payload, 'dead-claim-key');
    expect(replay.headers['idempotent-replay']).toBe('true');
    expect(Number(await countPlants(lab.workspaceId))).toBe(1);
  });

  it('forgets keys after 24 hours and purges expired rows', async () => {
    const lab = await createLab(t.database);
    const first = await post(lab, '/api/v1/plants', { species: 'Old' }, 'old-key-1234');
    expect(first.statusCode).toBe(201);
    const dayAndAnHourAgo = new Date(Date.now() - 25 * 3600_000).toISOString();
    await t.database.db
      .updateTable('idempotency_keys')
      .set({ created_at: dayAndAnHourAgo })
      .where('credential_id', '=', lab.owner.keyId)
      .execute();
    const later = await post(lab, '/api/v1/plants', { species: 'Old' }, 'old-key-1234');
    expect(later.headers['idempotent-replay']).toBe('false');
    expect(body(later).data.id).not.toBe(body(first).data.id);

    await post(lab, '/api/v1/plants', { species: 'Fresh' }, 'fresh-key-1234');
    await t.database.db
      .updateTable('idempotency_keys')
      .set({ created_at: dayAndAnHourAgo })
      .where('idempotency_key', '=', 'old-key-1234')
      .execute();
    expect(await purgeExpiredIdempotencyKeys(t.database.db)).toBeGreaterThanOrEqual(1);
    const left = await t.database.db
      .selectFrom('idempotency_keys')
      .select('idempotency_key')
      .where('credential_id', '=', lab.owner.keyId)
      .execute();
    expect(left.map((r) => r.idempotency_key)).toEqual(['fresh-key-1234']);
  });
});
