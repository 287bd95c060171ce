import type { Trx } from '../../db/database.js';
import { alertRules, rulesByIds, type AlertRuleRow } from './alerts.repository.js';
import { openAlert, resolveAlert } from './episodes.js';
import { deviceKey, roomKey, rulesByTarget } from './rule-cache.js';

/** What a rule needs of a stored reading. */
export interface CheckedReading {
  readonly device_id: string;
  readonly room_id: string | null;
  readonly type: string;
  readonly value: number;
  readonly recorded_at: string;
}

type Step =
  | { kind: 'open'; startedAt: string; at: string; value: number }
  | { kind: 'resolve'; at: string; value: number };

interface Judgement {
  readonly steps: Step[];
  /** The rule's pending breach after the readings (null: none). */
  readonly breachStartedAt: string | null;
}

const minutes = (n: number) => n * 60_000;

/**
 * Walks one rule's readings, oldest first. Above/below: a reading out of range starts
 * a breach; one still out of range `duration_minutes` after the breach began opens the
 * alert; one back in range before that ends the breach. An open alert resolves only
 * on a reading back inside the range by the rule's hysteresis, so a value hovering at
 * the threshold opens and resolves one episode, not many. No readings: any reading
 * resolves the open alert (the timer opens it).
 */
export function judge(rule: AlertRuleRow, readings: readonly CheckedReading[]): Judgement {
  const steps: Step[] = [];
  let open = rule.open_alert_id !== null;
  let breach = rule.breach_started_at;
  const threshold = rule.threshold ?? 0;
  for (const reading of readings) {
    if (rule.condition === 'no_readings') {
      if (open) {
        steps.push({ kind: 'resolve', at: reading.recorded_at, value: reading.value });
        open = false;
        breach = null;
      }
      continue;
    }
    const above = rule.condition === 'above';
    if (open) {
      const recovered = above
        ? reading.value <= threshold - rule.hysteresis
        : reading.value >= threshold + rule.hysteresis;
      if (recovered) {
        steps.push({ kind: 'resolve', at: reading.recorded_at, value: reading.value });
        open = false;
        breach = null;
      }
      continue;
    }
    const outside = above ? reading.value > threshold : reading.value < threshold;
    if (!outside) {
      breach = null;
      continue;
    }
    breach ??= reading.recorded_at;
    if (Date.parse(reading.recorded_at) - Date.parse(breach) >= minutes(rule.duration_minutes)) {
      steps.push({
        kind: 'open',
        startedAt: breach,
        at: reading.recorded_at,
        value: reading.value,
      });
      open = true;
    }
  }
  return { steps, breachStartedAt: breach };
}

function watchedBy(
  byTarget: ReadonlyMap<string, readonly string[]>,
  readings: readonly CheckedReading[],
): Map<string, CheckedReading[]> {
  const byRule = new Map<string, CheckedReading[]>();
  const add = (key: string, reading: CheckedReading) => {
    for (const id of byTarget.get(key) ?? []) {
      const list = byRule.get(id);
      if (list === undefined) byRule.set(id, [reading]);
      else list.push(reading);
    }
  };
  for (const reading of readings) {
    add(deviceKey(reading.type, reading.device_id), reading);
    if (reading.room_id !== null) add(roomKey(reading.type, reading.room_id), reading);
  }
  return byRule;
}

const byTime = (a: CheckedReading, b: CheckedReading) =>
  a.recorded_at < b.recorded_at ? -1 : a.recorded_at > b.recorded_at ? 1 : 0;

/**
 * Checks a batch of stored readings against the workspace's alert rules, inside the
 * ingest's transaction: an alert that opens or resolves commits with the readings
 * that caused it. Readings no rule watches cost nothing (the rules are cached); those
 * a rule watches cost one read of those rules, and a write only when an episode
 * starts, opens, ends or resolves.
 */
export async function checkReadings(
  trx: Trx,
  workspaceId: string,
  readings: readonly CheckedReading[],
  now: string,
): Promise<void> {
  if (readings.length === 0) return;
  const byTarget = await rulesByTarget(trx, workspaceId);
  if (byTarget.size === 0) return;
  const byRule = watchedBy(byTarget, readings);
  if (byRule.size === 0) return;
  const ids = [...byRule.keys()];
  const changing = (await rulesByIds(trx, workspaceId, ids, false)).filter((rule) => {
    const judgement = judge(rule, byRule.get(rule.id)!.sort(byTime));
    return judgement.steps.length > 0 || judgement.breachStartedAt !== rule.breach_started_at;
  });
  if (changing.length === 0) return;
  // Judged again under the rows' locks: a batch that committed meanwhile is seen.
  const locked = await rulesByIds(
    trx,
    workspaceId,
    changing.map((rule) => rule.id),
    true,
  );
  for (const rule of locked) {
    if (rule.enabled !== 1) continue;
    await applyJudgement(trx, rule, judge(rule, byRule.get(rule.id)!), now);
  }
}

async function applyJudgement(
  trx: Trx,
  stored: AlertRuleRow,
  judgement: Judgement,
  now: string,
): Promise<void> {
  let rule = stored;
  for (const step of judgement.steps) {
    if (step.kind === 'open') {
      const alert = await openAlert(trx, rule, {
        startedAt: step.startedAt,
        openedAt: step.at,
        value: step.value,
        now,
      });
      rule = { ...rule, open_alert_id: alert.id, breach_started_at: step.startedAt };
    } else {
      await resolveAlert(trx, rule, {
        resolvedAt: step.at,
        value: step.value,
        resolution: 'recovered',
        now,
      });
      rule = { ...rule, open_alert_id: null, breach_started_at: null };
    }
  }
  if (rule.breach_started_at !== judgement.breachStartedAt) {
    await alertRules.update(trx, rule.workspace_id, rule.id, {
      breach_started_at: judgement.breachStartedAt,
    });
  }
}
