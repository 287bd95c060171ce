import Type from 'typebox';
import { expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import * as idempotency from '../../src/kernel/idempotency.js';
import type { Routes } from '../../src/kernel/routes/index.js';
import { body } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

const { claimIdempotencyKey, completeIdempotencyKey, IDEMPOTENCY_LEASE_MS, requestFingerprint } =
  idempotency;

const OPERATION = 'POST /api/v1/plants';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Requests to the held route wait here (outside any transaction) until the test lets them go. */
const holds: { entered: () => void; released: Promise<void> }[] = [];

function heldRoute(routes: Routes) {
  routes.prepareAndWrite({
    method: 'POST',
    url: '/api/v1/test/held',
    operationId: 'testHeld',
    tags: ['Account'],
    summary: 'works until the test lets it answer',
    scope: 'write:plants',
    failureCode: 'PLANT_CREATE_FAILED',
    body: Type.Object({ name: Type.String() }, { additionalProperties: false }),
    data: Type.Object({ name: Type.String() }),
    prepare: async () => {
      const hold = holds.shift();
      if (hold === undefined) return;
      hold.entered();
      await hold.released;
    },
    write: async (req) => ({ data: { name: req.body.name } }),
  });
}

/** The next request to the held route waits in its prepare step until `release()`. */
function holdNext() {
  let entered!: () => void;
  let release!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  holds.push({ entered, released: new Promise<void>((resolve) => (release = resolve)) });
  return { inside, release };
}

describeOnDatabases('idempotency leases', (target) => {
  const { t, lab } = labSuite(target, { extraRoutes: heldRoute });

  const payload = { species: 'Leased' };
  const post = (key: string) =>
    t.request({
      method: 'POST',
      url: '/api/v1/plants',
      headers: { ...lab.owner.headers, 'idempotency-key': key },
      payload,
    });
  const claimRequest = (key: string) => ({
    credentialId: lab.owner.keyId,
    operation: OPERATION,
    key,
    fingerprint: requestFingerprint('POST', '/api/v1/plants', payload),
  });
  /** A claim made `agoMs` ago by a worker that then stopped (crashed, or is still busy). */
  const claimedAgo = async (key: string, agoMs: number) => {
    const outcome = await claimIdempotencyKey(t.database.db, claimRequest(key), Date.now() - agoMs);
    if (outcome.kind !== 'claimed') throw new Error('expected a fresh claim');
    return outcome.claim;
  };
  /** An in-flight row whose lease ends at `leaseEndsInMs` from now. */
  const inFlightRow = (key: string, leaseEndsInMs: number) =>
    t.database.db
      .insertInto('idempotency_keys')
      .values({
        id: newId(),
        credential_id: lab.owner.keyId,
        operation: OPERATION,
        idempotency_key: key,
        fingerprint: requestFingerprint('POST', '/api/v1/plants', payload),
        state: 'in_flight',
        lease_token: 'crashed-worker',
        lease_expires_at: new Date(Date.now() + leaseEndsInMs).toISOString(),
        response_status: null,
        response_body: null,
        created_at: new Date().toISOString(),
        completed_at: null,
      })
      .execute();
  const countPlants = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('plants')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('workspace_id', '=', lab.workspaceId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('keeps leases short: a few seconds, renewed while the write works', () => {
    expect(IDEMPOTENCY_LEASE_MS).toBeLessThanOrEqual(10_000);
    expect(idempotency.IDEMPOTENCY_LEASE_RENEW_MS).toBeLessThan(IDEMPOTENCY_LEASE_MS / 2);
    // A holder that missed one renewal still counts as alive; its lease has time left.
    expect(idempotency.IDEMPOTENCY_LEASE_ALIVE_MS).toBeGreaterThan(
      idempotency.IDEMPOTENCY_LEASE_RENEW_MS,
    );
    expect(idempotency.IDEMPOTENCY_LEASE_ALIVE_MS).toBeLessThan(IDEMPOTENCY_LEASE_MS);
  });

  it('tells a client that finds the key held by a live request to retry in 1 second, not the whole lease', async () => {
    const key = 'held-by-a-live-request';
    const held = holdNext();
    const send = () =>
      t.request({
        method: 'POST',
        url: '/api/v1/test/held',
        headers: { ...lab.owner.headers, 'idempotency-key': key },
        payload: { name: 'held' },
      });
    const first = send();
    await held.inside;
    const blocked = await send();
    expect(blocked.statusCode).toBe(409);
    expect(body(blocked).code).toBe('IDEMPOTENCY_IN_FLIGHT');
    expect(blocked.headers['retry-after']).toBe('1');
    held.release();
    const answered = await first;
    expect(answered.statusCode).toBe(201);
    const retried = await send();
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replay']).toBe('true');
    expect(retried.body).toBe(answered.body);
  });

  it('says 1 second while the holder shows signs of life: claimed or renewed within two renewal intervals', async () => {
    await claimedAgo('fresh-claim', 0);
    expect((await post('fresh-claim')).headers['retry-after']).toBe('1');
    // Working for 5 s, renewal late: still alive.
    await claimedAgo('claimed-5s-ago', 5000);
    expect((await post('claimed-5s-ago')).headers['retry-after']).toBe('1');
  });

  it('gives the time left once the lease stopped being renewed (whole seconds, at least 1)', async () => {
    // Last renewed 7 s ago: the holder died; its lease ends in 3 s.
    await claimedAgo('silent-7s', 7000);
    const silent = await post('silent-7s');
    expect(silent.statusCode).toBe(409);
    expect(body(silent).code).toBe('IDEMPOTENCY_IN_FLIGHT');
    expect(silent.headers['retry-after']).toBe('3');

    await inFlightRow('lease-3500ms', 3500);
    expect((await post('lease-3500ms')).headers['retry-after']).toBe('4');

    await inFlightRow('lease-200ms', 200);
    expect((await post('lease-200ms')).headers['retry-after']).toBe('1');
  });

  it('takes a crashed claim over within seconds: a client following Retry-After gets through', async () => {
    // The worker claimed the key 8 s ago and died without releasing it.
    await claimedAgo('crashed-8s-ago', 8000);
    const started = Date.now();
    const blocked = await post('crashed-8s-ago');
    expect(blocked.statusCode).toBe(409);
    const wait = Number(blocked.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(3);
    await sleep(wait * 1000);
    const retried = await post('crashed-8s-ago');
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replay']).toBe('false');
    expect(Date.now() - started).toBeLessThan(4000);
    expect((await post('crashed-8s-ago')).headers['idempotent-replay']).toBe('true');
    expect(await countPlants()).toBe(1);
  });

  it('does not take over a lease that is being renewed, and stops renewing once it is let go', async () => {
    // Half a second of lease left, but the worker is alive and renews it.
    const claim = await claimedAgo('renewed-lease', IDEMPOTENCY_LEASE_MS - 500);
    const stop = idempotency.keepLeaseAlive(t.database.db, claim, 100);
    try {
      await sleep(1200);
      const res = await post('renewed-lease');
      expect(res.statusCode).toBe(409);
      // Alive: answer soon, whatever its lease said before it was renewed.
      expect(res.headers['retry-after']).toBe('1');
    } finally {
      stop();
    }
    expect(await idempotency.renewIdempotencyLease(t.database.db, claim)).toBe(true);
    await t.database.db
      .transaction()
      .execute((trx) => completeIdempotencyKey(trx, claim, 201, '{"ok":true,"data":{}}'));
    // Completed: nothing left to renew.
    expect(await idempotency.renewIdempotencyLease(t.database.db, claim)).toBe(false);
    const replay = await post('renewed-lease');
    expect(replay.headers['idempotent-replay']).toBe('true');
    expect(await countPlants()).toBe(0);
  });

  it('never renews a lease another worker took over', async () => {
    const stale = await claimedAgo('taken-over', IDEMPOTENCY_LEASE_MS + 1000);
    expect((await post('taken-over')).statusCode).toBe(201);
    expect(await idempotency.renewIdempotencyLease(t.database.db, stale)).toBe(false);
    const row = await t.database.db
      .selectFrom('idempotency_keys')
      .select(['state', 'lease_token'])
      .where('idempotency_key', '=', 'taken-over')
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('completed');
    expect(row.lease_token).not.toBe(stale.leaseToken);
  });

  it('lets exactly one of many concurrent retries take an expired claim over', async () => {
    await inFlightRow('expired-race', -1000);
    const responses = await Promise.all(Array.from({ length: 20 }, () => post('expired-race')));
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const first = responses.filter((r) => r.headers['idempotent-replay'] === 'false');
    expect(first).toHaveLength(1);
    const ids = new Set(responses.filter((r) => r.statusCode === 201).map((r) => body(r).data.id));
    expect(ids.size).toBe(1);
    expect(await countPlants()).toBe(1);
  });
});
