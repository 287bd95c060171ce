import { effectiveFeatures, isFeature, isPlan, type Feature } from '../kernel/access.js';
import type { ListedApiKey, MemberRow, WorkspaceRow } from '../modules/identity/index.js';

/* What the list commands print of each row. */

/** A workspace as `vitro workspace list` shows it: the features in effect for its plan. */
export function workspaceSummary(w: WorkspaceRow) {
  return {
    id: w.id,
    name: w.name,
    type: w.type,
    plan: w.plan,
    features: isPlan(w.plan)
      ? effectiveFeatures(w.plan, w.features === null ? null : parseFeatures(w.features))
      : [],
    created_at: w.created_at,
  };
}

function parseFeatures(text: string): Feature[] {
  const list: unknown = JSON.parse(text);
  return Array.isArray(list)
    ? list.filter((f): f is Feature => typeof f === 'string' && isFeature(f))
    : [];
}

/** A member as `vitro member list` shows it. */
export function memberSummary(m: MemberRow) {
  return {
    id: m.id,
    name: m.name,
    email: m.email,
    role: m.role,
    status: m.status,
    created_at: m.created_at,
  };
}

/** A key as `vitro key list` shows it: prefix, scopes, last use; never the secret. */
export function keySummary(k: ListedApiKey) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    member_id: k.member_id,
    environment: k.environment,
    scopes: JSON.parse(k.scopes) as unknown,
    created_at: k.created_at,
    last_used_at: k.last_used_at,
    revoked_at: k.revoked_at,
  };
}
