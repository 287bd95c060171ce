import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import * as idempotency from '../../src/kernel/idempotency.js';
import {
  body,
  createLab,
  databaseTargets,
  startTestApp,
  type Lab,
  type TestApp,
} from '../support/harness.js';

const { claimIdempotencyKey, completeIdempotencyKey, IDEMPOTENCY_LEASE_MS, requestFingerprint } =
  idempotency;

const OPERATION = 'POST /api/v1/plants';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(databaseTargets())('idempotency leases on $name', (target) => {
  let t: TestApp;
  let lab: Lab;
  beforeAll(async () => {
    t = await startTestApp(target);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    lab = await createLab(t.database);
  });

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
  });

  it('says in Retry-After when the lease really ends (whole seconds, at least 1)', async () => {
    await inFlightRow('lease-7500ms', 7500);
    const res = await post('lease-7500ms');
    expect(res.statusCode).toBe(409);
    expect(body(res).code).toBe('IDEMPOTENCY_IN_FLIGHT');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(7);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(8);

    await inFlightRow('lease-200ms', 200);
    expect((await post('lease-200ms')).headers['retry-after']).toBe('1');

    await claimedAgo('fresh-claim', 0);
    const fresh = Number((await post('fresh-claim')).headers['retry-after']);
    expect(fresh).toBeGreaterThan(IDEMPOTENCY_LEASE_MS / 1000 - 2);
    expect(fresh).toBeLessThanOrEqual(IDEMPOTENCY_LEASE_MS / 1000);
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
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(IDEMPOTENCY_LEASE_MS / 1000 - 2);
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
