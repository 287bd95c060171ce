import { createHash, randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import { AppError, errors } from './errors.js';
import { newId } from './ids.js';
import { canonicalJson } from './json.js';

export const IDEMPOTENCY_KEY_PATTERN = '^[A-Za-z0-9._:~-]+$';
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_LEASE_MS = 60 * 1000;

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
  nowMs: number = Date.now(),
): Promise<ClaimOutcome> {
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
        lease_expires_at: isoAfter(nowMs, IDEMPOTENCY_LEASE_MS),
        response_status: null,
        response_body: null,
        created_at: new Date(nowMs).toISOString(),
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

    if (row.created_at < isoAfter(nowMs, -IDEMPOTENCY_WINDOW_MS)) {
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
    if (row.lease_expires_at > new Date(nowMs).toISOString()) throw errors.idempotencyInFlight();

    const taken = await db
      .updateTable('idempotency_keys')
      .set({ lease_token: leaseToken, lease_expires_at: isoAfter(nowMs, IDEMPOTENCY_LEASE_MS) })
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
