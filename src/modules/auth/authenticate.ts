import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';
import {
  effectiveFeatures,
  isFeature,
  isPlan,
  isRole,
  isScope,
  DEVICE_TOKEN_SCOPES,
  type Feature,
} from '../../kernel/access.js';
import {
  parseCredential,
  type CredentialLookup,
  type Environment,
} from '../../kernel/credentials.js';
import { errors } from '../../kernel/errors.js';
import { parseJsonArray } from '../../kernel/json.js';
import type { Authenticator, Principal } from '../../kernel/principal.js';
import { deviceTokenSignIn, type DeviceTokenSignInRow } from '../devices/index.js';
import { apiKeySignIn, type ApiKeySignInRow } from '../identity/index.js';

/** `last_used_at` is kept to the minute: writing it on every request would cost a write per read. */
const TOUCH_INTERVAL_MS = 60_000;

function staleSince(lastUsedAt: string | null, nowMs: number): boolean {
  return lastUsedAt === null || Date.parse(lastUsedAt) < nowMs - TOUCH_INTERVAL_MS;
}

/**
 * Parsed scope and feature lists by their stored JSON text. Keys share a few
 * distinct lists, and parsing one on every request is a measurable share of a
 * fast read. Bounded: a full cache starts over.
 */
const parsedLists = new Map<string, readonly string[]>();
const PARSED_LISTS_MAX = 1000;

function parseList<T extends string>(
  text: string,
  keep: (value: string) => value is T,
): readonly T[] {
  const cached = parsedLists.get(text);
  if (cached !== undefined) return cached as readonly T[];
  const parsed = Object.freeze(
    parseJsonArray(text).filter((v): v is T => typeof v === 'string' && keep(v)),
  );
  if (parsedLists.size >= PARSED_LISTS_MAX) parsedLists.clear();
  parsedLists.set(text, parsed);
  return parsed;
}

function readFeatures(text: string | null): readonly Feature[] | null {
  return text === null ? null : parseList(text, isFeature);
}

const AUTH_ROWS_MAX = 10_000;

/**
 * Credential rows reused only while the database's change generation stands still:
 * any write, by this process or another, makes the next request read again, so a
 * revoked key, a removed member or a new plan counts from the very next request.
 */
export function generationCache<T>() {
  const rows = new Map<string, { generation: number; row: T }>();
  return {
    get: (hash: string, generation: number | null): T | undefined => {
      if (generation === null) return undefined;
      const hit = rows.get(hash);
      return hit !== undefined && hit.generation === generation ? hit.row : undefined;
    },
    set: (hash: string, generation: number | null, row: T) => {
      if (generation === null) return;
      if (rows.size >= AUTH_ROWS_MAX) rows.clear();
      rows.set(hash, { generation, row });
    },
  };
}

/**
 * A credential's row with the principal it makes, or null when it is refused. Both
 * follow from the row alone, so they are kept together: a request whose row is
 * reused builds nothing.
 */
interface SignIn<R> {
  readonly row: R;
  readonly principal: Principal | null;
}

function keyPrincipal(row: ApiKeySignInRow): Principal | null {
  if (
    row.revoked_at !== null ||
    row.member_status !== 'active' ||
    row.member_workspace_id !== row.workspace_id ||
    !isRole(row.role) ||
    !isPlan(row.plan)
  ) {
    return null;
  }
  return {
    kind: 'key',
    credentialId: row.id,
    workspaceId: row.workspace_id,
    plan: row.plan,
    features: effectiveFeatures(row.plan, readFeatures(row.features)),
    memberId: row.member_id,
    role: row.role,
    deviceId: null,
    scopes: parseList(row.scopes, isScope),
    key: {
      name: row.name,
      prefix: row.prefix,
      environment: row.environment as Environment,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
    },
  };
}

function tokenPrincipal(row: DeviceTokenSignInRow): Principal | null {
  if (
    row.revoked_at !== null ||
    row.device_status !== 'active' ||
    row.device_workspace_id !== row.workspace_id ||
    !isPlan(row.plan)
  ) {
    return null;
  }
  return {
    kind: 'device',
    credentialId: row.id,
    workspaceId: row.workspace_id,
    plan: row.plan,
    features: effectiveFeatures(row.plan, readFeatures(row.features)),
    memberId: null,
    role: null,
    deviceId: row.device_id,
    scopes: DEVICE_TOKEN_SCOPES,
    key: null,
  };
}

export function createAuthenticator(
  database: Pick<Database, 'db' | 'changeGeneration'>,
  log: FastifyBaseLogger,
): Authenticator {
  const { db } = database;
  const touch = (work: Promise<void>) => {
    work.catch((error: unknown) => log.warn({ err: error }, 'could not record credential use'));
  };
  /** Who a credential of one kind is, by its hash, or 401 with `refusal`. */
  const signInWith = <R extends { id: string; last_used_at: string | null }>(
    lookup: CredentialLookup<R>,
    principalOf: (row: R) => Principal | null,
    refusal: string,
  ) => {
    const rows = generationCache<SignIn<R>>();
    return async (hash: string, nowMs: number): Promise<Principal> => {
      const generation = database.changeGeneration();
      let signIn = rows.get(hash, generation);
      if (signIn === undefined) {
        const row = await lookup.find(db, hash);
        if (row !== undefined) {
          signIn = { row, principal: principalOf(row) };
          rows.set(hash, generation, signIn);
        }
      }
      if (signIn === undefined || signIn.principal === null) throw errors.unauthorized(refusal);
      if (staleSince(signIn.row.last_used_at, nowMs)) {
        touch(lookup.recordUse(db, signIn.row.id, new Date(nowMs).toISOString()));
      }
      return signIn.principal;
    };
  };
  const keys = signInWith(apiKeySignIn, keyPrincipal, 'Unknown or revoked API key');
  const tokens = signInWith(deviceTokenSignIn, tokenPrincipal, 'Unknown or revoked device token');

  return async (authorization) => {
    if (authorization === undefined || authorization === '') {
      throw errors.unauthorized('Missing API key: send Authorization: Bearer <key>');
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw errors.unauthorized('Authorization header must be "Bearer <key>"');
    // Malformed or mistyped (bad checksum): refused without reading the database.
    const parsed = parseCredential(match[1]!);
    if (parsed === null) throw errors.unauthorized('Malformed API key');
    return (parsed.kind === 'key' ? keys : tokens)(parsed.hash, Date.now());
  };
}
