import { createHash, randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import { AppError, errors } from './errors.js';
import { newId } from './ids.js';
import { canonicalJson } from './json.js';

export const IDEMPOTENCY_KEY_PATTERN = '^[A-Za-z0-9._:~-]+$';
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * How long a claim holds its key without a sign of life. Short, so that the claim
 * of a crashed worker is taken over within seconds; a write that works longer
 * keeps its lease alive (`keepLeaseAlive`), renewing it every IDEMPOTENCY_LEASE_RENEW_MS.
 */
export const IDEMPOTENCY_LEASE_MS = 10 * 1000;
export const IDEMPOTENCY_LEASE_RENEW_MS = 3 * 1000;
/**
 * A lease renewed (or claimed) within this long is held by a live request: two
 * renewal intervals, so one late renewal (a busy event loop, a slow statement)
 * does not make a live holder look dead.
 */
export const IDEMPOTENCY_LEASE_ALIVE_MS = 2 * IDEMPOTENCY_LEASE_RENEW_MS;

export interface ClaimRequest {
  credentialId: string;
  /** Method and route template, e.g. `POST /api/v1/stages`. */
  operation: string;
  key: string;
  fingerprint: string;
}

export interface Claim {
  readonly id: string;
  readonly leaseToken: string;
}

export type ClaimOutcome =
  { kind: 'claimed'; claim: Claim } | { kind: 'replay'; status: number; body: string };

/** SHA-256 over method, concrete path and canonical JSON body. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method}\n${path}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

function isoAfter(base: number, ms: number): string {
  return new Date(base + ms).toISOString();
}

/**
 * 409 IDEMPOTENCY_IN_FLIGHT with a Retry-After in whole seconds. A claim or renewal
 * writes `lease_expires_at` as its own time plus the lease, so the row tells when the
 * holder last showed a sign of life. A live holder answers in milliseconds (or keeps
 * renewing while it works): 1 second. A lease that stopped being renewed belongs to a
 * worker that died; it is free when it ends: the seconds until then (at least 1).
 */
function inFlightUntil(leaseExpiresAt: string, nowMs: number): AppError {
  const expiresMs = Date.parse(leaseExpiresAt);
  const alive = nowMs - (expiresMs - IDEMPOTENCY_LEASE_MS) <= IDEMPOTENCY_LEASE_ALIVE_MS;
  const seconds = alive ? 1 : Math.max(1, Math.ceil((expiresMs - nowMs) / 1000));
  return new AppError(
    'IDEMPOTENCY_IN_FLIGHT',
    'A request with this Idempotency-Key is still in progress; retry after Retry-After seconds',
    { 'retry-after': String(seconds) },
  );
}

const COLUMNS = [
  'id',
  'fingerprint',
  'state',
  'lease_token',
  'lease_expires_at',
  'response_status',
  'response_body',
  'created_at',
] as const;

/**
 * Claims an idempotency key atomically. Exactly one caller wins a fresh key;
 * the others see a replay (completed), 409 (in flight) or 422 (different request).
 * A claim whose lease ran out (its worker crashed) is taken over.
 */
export async function claimIdempotencyKey(
  db: Db,
  request: ClaimRequest,
  nowMs?: number,
): Promise<ClaimOutcome> {
  // Read the clock where it is used: a time read before a statement that waited can
  // be older than the lease another claim just wrote (a Retry-After over the lease).
  const now = () => nowMs ?? Date.now();
  for (let attempt = 0; attempt < 5; attempt++) {
    const leaseToken = randomUUID();
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({
        id: newId(),
        credential_id: request.credentialId,
        operation: request.operation,
        idempotency_key: request.key,
        fingerprint: request.fingerprint,
        state: 'in_flight',
        lease_token: leaseToken,
        lease_expires_at: isoAfter(now(), IDEMPOTENCY_LEASE_MS),
        response_status: null,
        response_body: null,
        created_at: new Date(now()).toISOString(),
        completed_at: null,
      })
      .onConflict((oc) => oc.columns(['credential_id', 'operation', 'idempotency_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted !== undefined) return { kind: 'claimed', claim: { id: inserted.id, leaseToken } };

    const row = await db
      .selectFrom('idempotency_keys')
      .select(COLUMNS)
      .where('credential_id', '=', request.credentialId)
      .where('operation', '=', request.operation)
      .where('idempotency_key', '=', request.key)
      .executeTakeFirst();
    if (row === undefined) continue;

    if (row.created_at < isoAfter(now(), -IDEMPOTENCY_WINDOW_MS)) {
      await db
        .deleteFrom('idempotency_keys')
        .where('id', '=', row.id)
        .where('lease_token', '=', row.lease_token)
        .execute();
      continue;
    }
    if (row.fingerprint !== request.fingerprint) {
      throw errors.validation(
        'Idempotency-Key was already used with a different request; use a new key for a new write',
      );
    }
    if (row.state === 'completed' && row.response_status !== null && row.response_body !== null) {
      return { kind: 'replay', status: row.response_status, body: row.response_body };
    }
    const checkedAt = now();
    if (row.lease_expires_at > new Date(checkedAt).toISOString()) {
      throw inFlightUntil(row.lease_expires_at, checkedAt);
    }

    const taken = await db
      .updateTable('idempotency_keys')
      .set({ lease_token: leaseToken, lease_expires_at: isoAfter(now(), IDEMPOTENCY_LEASE_MS) })
      .where('id', '=', row.id)
      .where('lease_token', '=', row.lease_token)
      .where('state', '=', 'in_flight')
      .executeTakeFirst();
    if (taken.numUpdatedRows > 0n) return { kind: 'claimed', claim: { id: row.id, leaseToken } };
  }
  throw errors.idempotencyInFlight();
}

/**
 * Stores the response of a claimed key. Call it inside the transaction of the
 * write so both commit together; if the lease was lost to another worker the
 * write must not commit, so this throws and the transaction rolls back.
 */
export async function completeIdempotencyKey(
  trx: Db,
  claim: Claim,
  status: number,
  body: string,
): Promise<void> {
  const result = await trx
    .updateTable('idempotency_keys')
    .set({
      state: 'completed',
      response_status: status,
      response_body: body,
      completed_at: new Date().toISOString(),
    })
    .where('id', '=', claim.id)
    .where('lease_token', '=', claim.leaseToken)
    .where('state', '=', 'in_flight')
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) {
    throw new AppError(
      'IDEMPOTENCY_IN_FLIGHT',
      'This request took longer than its Idempotency-Key lease and another attempt took over',
      { 'retry-after': '1' },
    );
  }
}

/**
 * Extends the lease of a claim still held: the row is in flight and its lease token
 * is still ours (not taken over, not completed or released). Returns whether it was.
 */
export async function renewIdempotencyLease(
  db: Db,
  claim: Claim,
  nowMs: number = Date.now(),
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ lease_expires_at: isoAfter(nowMs, IDEMPOTENCY_LEASE_MS) })
    .where('id', '=', claim.id)
    .where('lease_token', '=', claim.leaseToken)
    .where('state', '=', 'in_flight')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Renews the lease of `claim` every `intervalMs` while slow work runs (a download
 * before the transaction, the transaction itself); returns the function that stops
 * it. Renewing stops by itself once the claim is no longer held. A failed renewal
 * is reported to `onError` and retried at the next interval; if the lease runs out
 * meanwhile and another worker takes over, the completion in the write's
 * transaction finds the lease token changed and rolls the write back.
 * Use the database, never the write's transaction: a renewal must commit at once.
 */
export function keepLeaseAlive(
  db: Db,
  claim: Claim,
  intervalMs: number = IDEMPOTENCY_LEASE_RENEW_MS,
  onError: (error: unknown) => void = () => undefined,
): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(renew, intervalMs);
    timer.unref();
  };
  const renew = () => {
    renewIdempotencyLease(db, claim).then(
      (held) => {
        if (!held) stopped = true;
        schedule();
      },
      (error: unknown) => {
        onError(error);
        schedule();
      },
    );
  };
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** Frees a claim after a failure so a retry with the same key really retries. */
export async function releaseIdempotencyKey(db: Db, claim: Claim): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('id', '=', claim.id)
    .where('lease_token', '=', claim.leaseToken)
    .where('state', '=', 'in_flight')
    .execute();
}

export async function purgeExpiredIdempotencyKeys(
  db: Db,
  nowMs: number = Date.now(),
): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', isoAfter(nowMs, -IDEMPOTENCY_WINDOW_MS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
