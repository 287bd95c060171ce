import {
  minimumRoleForScope,
  PLAN_NAMES,
  planAccess,
  planAllows,
  roleAtLeast,
  type Feature,
  type PlanRequirement,
  type Role,
  type Scope,
} from './access.js';
import { AppError, errors } from './errors.js';
import type { Principal } from './principal.js';

export type Credentials = 'key' | 'key+device' | 'session' | 'sign-in-link';

/** What a route demands of its caller, declared as data on the route. */
export interface AccessRule {
  /**
   * `key`: workspace API keys and console sessions; `key+device`: device tokens
   * too; `session`: console sessions only (what only the console needs: members,
   * keys, sign-in links); `sign-in-link`: a sign-in link, exchanged for a session.
   */
  readonly credentials: Credentials;
  readonly scope: Scope | null;
  readonly plan: PlanRequirement;
  readonly feature: Feature | null;
  /** Minimum role of the key's owner; by default the one the scope needs. */
  readonly role: Role | null;
}

function roleRefusal(principal: Principal, needed: Role): AppError {
  const who = principal.kind === 'session' ? 'you are' : "the key's owner is";
  return new AppError(
    'FORBIDDEN',
    `This operation needs the ${needed} role or above; ${who} a ${principal.role ?? 'non-member'}`,
  );
}

function planRefusal(principal: Principal, requirement: PlanRequirement): AppError {
  const plan = PLAN_NAMES[principal.plan];
  const message =
    planAccess(principal.plan) === 'none'
      ? `The ${plan} plan does not include API access; upgrade to a paid plan`
      : requirement === 'full'
        ? `The ${plan} plan includes device access only; this operation needs the Teams or Enterprise plan`
        : `The ${plan} plan does not include this operation`;
  return new AppError('PAID_PLAN_REQUIRED', message);
}

/**
 * Checks, in the documented order: device-token acceptance (403), a key on a
 * console operation (403), plan (402), feature (402), scope (403 naming the
 * scope), role (403 naming the role).
 */
export function authorize(principal: Principal, rule: AccessRule): void {
  if (principal.kind === 'device' && rule.credentials !== 'key+device') {
    throw new AppError(
      'DEVICE_TOKEN_NOT_ACCEPTED',
      'Device tokens are not accepted here; use a workspace API key',
    );
  }
  if (principal.kind === 'sign-in-link' && rule.credentials !== 'sign-in-link') {
    throw errors.unauthorized('A sign-in link only signs in (POST /api/v1/session)');
  }
  if (rule.credentials === 'session' && principal.kind !== 'session') {
    throw new AppError(
      'SESSION_REQUIRED',
      'Members, API keys, sign-in links and device status are managed in the console, ' +
        'signed in as an admin or owner; API keys cannot manage them (the CLI can: vitro --help)',
    );
  }
  if (!planAllows(principal.plan, rule.plan)) throw planRefusal(principal, rule.plan);
  if (rule.feature !== null && !principal.features.includes(rule.feature)) {
    throw new AppError(
      'FEATURE_NOT_INCLUDED',
      `The ${rule.feature} feature is not included in this workspace's plan`,
    );
  }
  const needed = rule.role ?? (rule.scope === null ? 'guest' : minimumRoleForScope(rule.scope));
  if (rule.scope !== null && !principal.scopes.includes(rule.scope)) {
    // A session holds every scope its role allows: what it lacks, its role lacks.
    if (principal.kind === 'session') throw roleRefusal(principal, needed);
    throw new AppError('FORBIDDEN', `This key lacks the scope ${rule.scope}`);
  }
  if (principal.kind === 'key' || principal.kind === 'session') {
    if (principal.role === null || !roleAtLeast(principal.role, needed)) {
      throw roleRefusal(principal, needed);
    }
  }
}
