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
import { AppError } from './errors.js';
import type { Principal } from './principal.js';

/** What a route demands of its caller, declared as data on the route. */
export interface AccessRule {
  /** `key`: workspace API keys only; `key+device`: device tokens too. */
  readonly credentials: 'key' | 'key+device';
  readonly scope: Scope | null;
  readonly plan: PlanRequirement;
  readonly feature: Feature | null;
  /** Minimum role of the key's owner; by default the one the scope needs. */
  readonly role: Role | null;
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
 * Checks, in the documented order: device-token acceptance (403), plan (402),
 * feature (402), scope (403 naming the scope), role (403 naming the role).
 */
export function authorize(principal: Principal, rule: AccessRule): void {
  if (principal.kind === 'device' && rule.credentials !== 'key+device') {
    throw new AppError(
      'DEVICE_TOKEN_NOT_ACCEPTED',
      'Device tokens are not accepted here; use a workspace API key',
    );
  }
  if (!planAllows(principal.plan, rule.plan)) throw planRefusal(principal, rule.plan);
  if (rule.feature !== null && !principal.features.includes(rule.feature)) {
    throw new AppError(
      'FEATURE_NOT_INCLUDED',
      `The ${rule.feature} feature is not included in this workspace's plan`,
    );
  }
  if (rule.scope !== null && !principal.scopes.includes(rule.scope)) {
    throw new AppError('FORBIDDEN', `This key lacks the scope ${rule.scope}`);
  }
  if (principal.kind === 'key') {
    const needed = rule.role ?? (rule.scope === null ? 'guest' : minimumRoleForScope(rule.scope));
    if (principal.role === null || !roleAtLeast(principal.role, needed)) {
      throw new AppError(
        'FORBIDDEN',
        `This operation needs the ${needed} role or above; the key's owner is a ${principal.role ?? 'non-member'}`,
      );
    }
  }
}
