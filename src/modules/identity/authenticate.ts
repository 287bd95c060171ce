import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.js';
import {
  effectiveFeatures,
  isFeature,
  isPlan,
  isRole,
  isScope,
  DEVICE_TOKEN_SCOPES,
  type Feature,
} from '../../kernel/access.js';
import { parseCredential, type Environment } from '../../kernel/credentials.js';
import { errors } from '../../kernel/errors.js';
import { parseJsonArray } from '../../kernel/json.js';
import type { Authenticator, Principal } from '../../kernel/principal.js';
import { findDeviceTokenForAuth, touchDeviceToken } from '../devices/devices.repository.js';
import { findKeyForAuth, touchApiKey } from './identity.repository.js';

/** `last_used_at` is kept to the minute: writing it on every request would cost a write per read. */
const TOUCH_INTERVAL_MS = 60_000;

function staleSince(lastUsedAt: string | null, nowMs: number): boolean {
  return lastUsedAt === null || Date.parse(lastUsedAt) < nowMs - TOUCH_INTERVAL_MS;
}

function readFeatures(text: string | null): Feature[] | null {
  if (text === null) return null;
  return parseJsonArray(text).filter((f): f is Feature => typeof f === 'string' && isFeature(f));
}

export function createAuthenticator(db: Db, log: FastifyBaseLogger): Authenticator {
  const touch = (work: Promise<void>) => {
    work.catch((error: unknown) => log.warn({ err: error }, 'could not record credential use'));
  };

  return async (authorization) => {
    if (authorization === undefined || authorization === '') {
      throw errors.unauthorized('Missing API key: send Authorization: Bearer <key>');
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw errors.unauthorized('Authorization header must be "Bearer <key>"');
    // Malformed or mistyped (bad checksum): refused without reading the database.
    const parsed = parseCredential(match[1]!);
    if (parsed === null) throw errors.unauthorized('Malformed API key');

    const nowMs = Date.now();
    if (parsed.kind === 'key') {
      const row = await findKeyForAuth(db, parsed.hash);
      if (
        row === undefined ||
        row.revoked_at !== null ||
        row.member_status !== 'active' ||
        row.member_workspace_id !== row.workspace_id ||
        !isRole(row.role) ||
        !isPlan(row.plan)
      ) {
        throw errors.unauthorized('Unknown or revoked API key');
      }
      if (staleSince(row.last_used_at, nowMs)) {
        touch(touchApiKey(db, row.id, new Date(nowMs).toISOString()));
      }
      const principal: Principal = {
        kind: 'key',
        credentialId: row.id,
        workspaceId: row.workspace_id,
        plan: row.plan,
        features: effectiveFeatures(row.plan, readFeatures(row.features)),
        memberId: row.member_id,
        role: row.role,
        deviceId: null,
        scopes: parseJsonArray(row.scopes).filter(
          (s): s is Principal['scopes'][number] => typeof s === 'string' && isScope(s),
        ),
        key: {
          name: row.name,
          prefix: row.prefix,
          environment: row.environment as Environment,
          createdAt: row.created_at,
          lastUsedAt: row.last_used_at,
        },
      };
      return principal;
    }

    const row = await findDeviceTokenForAuth(db, parsed.hash);
    if (
      row === undefined ||
      row.revoked_at !== null ||
      row.device_status !== 'active' ||
      row.device_workspace_id !== row.workspace_id ||
      !isPlan(row.plan)
    ) {
      throw errors.unauthorized('Unknown or revoked device token');
    }
    if (staleSince(row.last_used_at, nowMs)) {
      touch(touchDeviceToken(db, row.id, new Date(nowMs).toISOString()));
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
  };
}
