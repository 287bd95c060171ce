/** Roles, scopes, plans and features: the data every access decision is made from. */

export const ROLES = ['guest', 'viewer', 'member', 'manager', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(minimum);
}

export const SCOPES = [
  'read:workspace',
  'write:workspace',
  'read:plants',
  'write:plants',
  'read:explants',
  'write:explants',
  'read:contaminations',
  'write:contaminations',
  'read:tasks',
  'write:tasks',
  'write:demand',
  'read:comments',
  'write:comments',
  'read:assets',
  'write:assets',
  'read:media_recipes',
  'write:media_recipes',
  'read:media_batches',
  'write:media_batches',
  'read:stock',
  'write:stock',
  'read:transfers',
  'write:transfers',
  'read:sops',
  'write:sops',
  'read:sop_runs',
  'write:sop_runs',
  'write:sop_steps',
  'read:labels',
  'write:label_scans',
  'read:devices',
  'write:devices',
  'read:sensor_readings',
  'write:sensor_readings',
  'write:device_events',
  'read:equipment',
  'write:equipment',
  'write:equipment_events',
  'read:pricing',
  'read:commerce',
  'read:events',
  'read:webhooks',
  'write:webhooks',
  'read:notifications',
  'write:notifications',
  'read:insights',
] as const;
export type Scope = (typeof SCOPES)[number];

const SCOPE_SET: ReadonlySet<string> = new Set(SCOPES);

export function isScope(value: string): value is Scope {
  return SCOPE_SET.has(value);
}

/** Scopes that need more than the default role of their kind (DESIGN §4). */
const MANAGER_SCOPES: ReadonlySet<Scope> = new Set<Scope>([
  'write:workspace',
  'write:sops',
  'write:equipment',
  'read:pricing',
  'read:commerce',
  'write:demand',
  'write:devices',
]);

/** Webhook endpoints hold signing secrets and send the lab's data out: admins only. */
const ADMIN_SCOPES: ReadonlySet<Scope> = new Set<Scope>(['read:webhooks', 'write:webhooks']);

/** A person's own inbox: every member reads and marks their own, guests too. */
const ANY_ROLE_SCOPES: ReadonlySet<Scope> = new Set<Scope>(['write:notifications']);

/** The weakest role whose keys may use a scope: reads any member, writes `member`. */
export function minimumRoleForScope(scope: Scope): Role {
  if (ADMIN_SCOPES.has(scope)) return 'admin';
  if (MANAGER_SCOPES.has(scope)) return 'manager';
  if (ANY_ROLE_SCOPES.has(scope)) return 'guest';
  return scope.startsWith('write:') ? 'member' : 'guest';
}

/** What a device token may do: the device operations and nothing else. */
export const DEVICE_TOKEN_SCOPES: readonly Scope[] = [
  'write:devices',
  'write:device_events',
  'write:sensor_readings',
];

/** Scopes that still work on the devices-only plans (hobby, pro_lab). */
export const DEVICE_PLAN_SCOPES: ReadonlySet<Scope> = new Set<Scope>([
  'read:devices',
  'write:devices',
  'write:device_events',
  'write:sensor_readings',
]);

export const PLANS = ['free', 'hobby', 'pro_lab', 'teams', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

export const PLAN_NAMES: Record<Plan, string> = {
  free: 'Free',
  hobby: 'Hobby',
  pro_lab: 'Pro Lab',
  teams: 'Teams',
  enterprise: 'Enterprise',
};

/** How much of the API a plan opens: everything, device operations, or only GET /me. */
export type PlanAccess = 'full' | 'devices' | 'none';

export function planAccess(plan: Plan): PlanAccess {
  if (plan === 'teams' || plan === 'enterprise') return 'full';
  if (plan === 'hobby' || plan === 'pro_lab') return 'devices';
  return 'none';
}

/** What a route needs of the plan: any plan at all, a devices plan or better, or the full API. */
export type PlanRequirement = 'any' | 'devices' | 'full';

export function planAllows(plan: Plan, requirement: PlanRequirement): boolean {
  const access = planAccess(plan);
  if (requirement === 'any') return true;
  if (requirement === 'devices') return access !== 'none';
  return access === 'full';
}

export const FEATURES = ['pricing', 'commerce', 'equipment_calibration'] as const;
export type Feature = (typeof FEATURES)[number];

export function isFeature(value: string): value is Feature {
  return (FEATURES as readonly string[]).includes(value);
}

/** Features in force: the workspace's explicit set, else all of them on a full-API plan. */
export function effectiveFeatures(plan: Plan, explicit: readonly Feature[] | null): Feature[] {
  if (planAccess(plan) !== 'full') return [];
  return explicit === null ? [...FEATURES] : [...explicit];
}

/** Device allowance by plan (resources.md decision 7); null = unlimited. */
export function defaultDeviceAllowance(plan: Plan): number | null {
  switch (plan) {
    case 'free':
      return 0;
    case 'hobby':
      return 3;
    case 'pro_lab':
      return 10;
    case 'teams':
      return 100;
    case 'enterprise':
      return null;
  }
}

/**
 * Narrowed lists by the key's scope list (the same array for every request of a key:
 * authentication keeps parsed lists), then by role and plan. GET /me answers one on
 * every call, and narrowing runs through every scope there is.
 */
const narrowed = new WeakMap<readonly Scope[], Map<string, readonly Scope[]>>();

/** A key's scopes narrowed to what its owner's role and the workspace plan allow. */
export function effectiveScopes(scopes: readonly Scope[], role: Role, plan: Plan): Scope[] {
  let byRole = narrowed.get(scopes);
  if (byRole === undefined) {
    byRole = new Map();
    narrowed.set(scopes, byRole);
  }
  const key = `${role} ${plan}`;
  let found = byRole.get(key);
  if (found === undefined) {
    const access = planAccess(plan);
    found = SCOPES.filter(
      (scope) =>
        scopes.includes(scope) &&
        roleAtLeast(role, minimumRoleForScope(scope)) &&
        (access === 'full' || (access === 'devices' && DEVICE_PLAN_SCOPES.has(scope))),
    );
    byRole.set(key, found);
  }
  return [...found];
}

/** A record created by someone else may be edited or moved by a manager or above only. */
export function mayChangeRecordOf(
  actor: { memberId: string | null; role: Role | null },
  createdBy: string | null,
): boolean {
  if (actor.memberId !== null && actor.memberId === createdBy) return true;
  return actor.role !== null && roleAtLeast(actor.role, 'manager');
}
