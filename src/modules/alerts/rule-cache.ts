import type { Db } from '../../db/database.js';
import { enabledRules, type AlertRuleRow } from './alerts.repository.js';

/**
 * The enabled rules of each workspace, kept in this process so that a batch of
 * readings no rule watches costs no query. The process that changes a rule drops its
 * workspace's entry at once; other processes (PostgreSQL, many of them) read the rules
 * again at most a second later. A rule the cache names is always read again, as
 * stored, before it is judged: an edit elsewhere never judges with stale settings.
 */
const REFRESH_MS = 1000;
const MAX_WORKSPACES = 10_000;

interface Entry {
  readonly loadedAt: number;
  /** Rules by `type|device:ID` and `type|room:ID`. */
  readonly byTarget: ReadonlyMap<string, readonly string[]>;
}

const cache = new Map<string, Entry>();

export const deviceKey = (type: string, deviceId: string) => `${type}|device:${deviceId}`;
export const roomKey = (type: string, roomId: string) => `${type}|room:${roomId}`;

function index(rules: readonly AlertRuleRow[]): Map<string, string[]> {
  const byTarget = new Map<string, string[]>();
  for (const rule of rules) {
    const key =
      rule.device_id !== null
        ? deviceKey(rule.sensor_type, rule.device_id)
        : roomKey(rule.sensor_type, rule.room_id ?? '');
    byTarget.set(key, [...(byTarget.get(key) ?? []), rule.id]);
  }
  return byTarget;
}

/** The ids of the workspace's enabled rules, by what they watch. */
export async function rulesByTarget(
  db: Db,
  workspaceId: string,
  nowMs: number = Date.now(),
): Promise<ReadonlyMap<string, readonly string[]>> {
  const held = cache.get(workspaceId);
  if (held !== undefined && nowMs - held.loadedAt < REFRESH_MS) return held.byTarget;
  const byTarget = index(await enabledRules(db, workspaceId));
  if (cache.size >= MAX_WORKSPACES) cache.clear();
  cache.set(workspaceId, { loadedAt: nowMs, byTarget });
  return byTarget;
}

/** Called by whatever changes a workspace's rules, in the changing process. */
export function forgetRules(workspaceId: string): void {
  cache.delete(workspaceId);
}
