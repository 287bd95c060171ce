import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';
import {
  effectiveFeatures,
  isFeature,
  isPlan,
  isRole,
  minimumRoleForScope,
  roleAtLeast,
  SCOPES,
  type Feature,
  type Plan,
  type Role,
  type Scope,
} from '../../kernel/access.js';
import { hashCredential } from '../../kernel/credentials.js';
import { errors } from '../../kernel/errors.js';
import { parseJsonArray } from '../../kernel/json.js';
import type { Principal, SessionAuthenticator } from '../../kernel/principal.js';
import { generationCache } from '../auth/index.js';
import { LINK_PREFIX, SESSION_PREFIX, sessionCookieName, sessionEndsAt } from './cookie.js';
import { findSessionForAuth, findSignInLinkForAuth, touchSession } from './sessions.repository.js';

/** `last_used_at` is kept to the minute, as for keys: a write per read would cost too much. */
const TOUCH_INTERVAL_MS = 60_000;

/** Every scope a role allows: a session acts with all of them. */
const scopesByRole = new Map<Role, readonly Scope[]>();
export function scopesOfRole(role: Role): readonly Scope[] {
  let scopes = scopesByRole.get(role);
  if (scopes === undefined) {
    scopes = Object.freeze(SCOPES.filter((s) => roleAtLeast(role, minimumRoleForScope(s))));
    scopesByRole.set(role, scopes);
  }
  return scopes;
}

function features(plan: Plan, text: string | null): Feature[] {
  const explicit =
    text === null
      ? null
      : parseJsonArray(text).filter((f): f is Feature => typeof f === 'string' && isFeature(f));
  return effectiveFeatures(plan, explicit);
}

/**
 * A person of the console: a session acts with every scope its role allows; a
 * sign-in link only exchanges itself for a session, with no scope at all.
 */
function personPrincipal(
  kind: 'session' | 'sign-in-link',
  row: {
    id: string;
    workspace_id: string;
    member_id: string;
    role: Role;
    plan: Plan;
    features: string | null;
  },
  key: Principal['key'],
): Principal {
  return {
    kind,
    credentialId: row.id,
    workspaceId: row.workspace_id,
    plan: row.plan,
    features: features(row.plan, row.features),
    memberId: row.member_id,
    role: row.role,
    deviceId: null,
    scopes: kind === 'session' ? scopesOfRole(row.role) : [],
    key,
  };
}

const NEW_LINK = 'ask an admin or owner for a new one (Members page, or vitro member link)';

/**
 * Sessions and sign-in links, looked up by the SHA-256 of their secret. Rows are
 * reused only while the database's change generation stands still (as for keys),
 * so a member removed or a role changed in any process counts from the next request.
 */
export function createSessionAuthenticator(
  database: Pick<Database, 'db' | 'changeGeneration'>,
  log: FastifyBaseLogger,
  options: { publicUrl: string; lifetimeMs: number },
): SessionAuthenticator {
  const { publicUrl, lifetimeMs } = options;
  const { db } = database;
  const sessionRows =
    generationCache<NonNullable<Awaited<ReturnType<typeof findSessionForAuth>>>>();

  return {
    cookieName: sessionCookieName(publicUrl),

    async session(token) {
      const ended = () => errors.unauthorized('Your console session has ended; sign in again');
      if (!token.startsWith(SESSION_PREFIX) || token.length > 100) throw ended();
      const hash = hashCredential(token);
      const generation = database.changeGeneration();
      let row = sessionRows.get(hash, generation);
      if (row === undefined) {
        row = await findSessionForAuth(db, hash);
        if (row !== undefined) sessionRows.set(hash, generation, row);
      }
      const nowMs = Date.now();
      if (
        row === undefined ||
        row.ended_at !== null ||
        Date.parse(sessionEndsAt(row, lifetimeMs)) <= nowMs ||
        row.member_status !== 'active' ||
        row.member_workspace_id !== row.workspace_id ||
        !isRole(row.role) ||
        !isPlan(row.plan)
      ) {
        throw ended();
      }
      if (Date.parse(row.last_used_at) < nowMs - TOUCH_INTERVAL_MS) {
        touchSession(db, row.id, new Date(nowMs).toISOString()).catch((error: unknown) =>
          log.warn({ err: error }, 'could not record session use'),
        );
      }
      return personPrincipal(
        'session',
        { ...row, role: row.role, plan: row.plan },
        {
          name: 'Console session',
          prefix: 'session',
          environment: 'production',
          createdAt: row.created_at,
          lastUsedAt: row.last_used_at,
        },
      );
    },

    async signInLink(secret) {
      if (!secret.startsWith(LINK_PREFIX) || secret.length > 100) {
        throw errors.unauthorized(`This is not a sign-in link of this server; ${NEW_LINK}`);
      }
      // Read fresh every time: a link works once, and is read once or twice.
      const row = await findSignInLinkForAuth(db, hashCredential(secret));
      if (row === undefined) {
        throw errors.unauthorized(`This is not a sign-in link of this server; ${NEW_LINK}`);
      }
      if (row.used_at !== null) {
        throw errors.unauthorized(
          `This sign-in link was already used (each link works once); ${NEW_LINK}`,
        );
      }
      if (row.revoked_at !== null) {
        throw errors.unauthorized(
          'This sign-in link was revoked (a newer link was made for its person, they signed ' +
            `out everywhere, or an admin revoked their links); ${NEW_LINK}`,
        );
      }
      if (Date.parse(row.expires_at) <= Date.now()) {
        throw errors.unauthorized(
          `This sign-in link expired at ${row.expires_at} (links work for 15 minutes); ${NEW_LINK}`,
        );
      }
      if (
        row.member_status !== 'active' ||
        row.member_workspace_id !== row.workspace_id ||
        !isRole(row.role) ||
        !isPlan(row.plan)
      ) {
        throw errors.unauthorized(`${row.member_name} is no longer a member of this workspace`);
      }
      return personPrincipal('sign-in-link', { ...row, role: row.role, plan: row.plan }, null);
    },
  };
}
