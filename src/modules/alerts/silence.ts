import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import { every, type Repeating } from '../../lib/every.js';
import { newestReadingAt } from '../readings/index.js';
import { quietRuleCandidates, rulesByIds } from './alerts.repository.js';
import { openAlert } from './episodes.js';

/** How often a process looks for silent sensors. */
export const SILENCE_CHECK_MS = 30_000;
const RULES_PER_CHECK = 1000;

/**
 * Opens the alert of every `no_readings` rule whose sensor has been silent for its
 * `duration_minutes` (counted from its newest reading, or from the rule's creation when
 * it has none). The rule is locked and judged again before the alert opens, so of many
 * processes checking at once one opens it. Answers how many opened.
 */
export async function checkSilentSensors(database: Database, nowMs: number): Promise<number> {
  const { db } = database;
  let opened = 0;
  for (const rule of await quietRuleCandidates(db, RULES_PER_CHECK)) {
    const newest = await newestReadingAt(db, rule.workspace_id, {
      type: rule.sensor_type,
      deviceId: rule.device_id,
      roomId: rule.device_id === null ? rule.room_id : null,
    });
    const since = newest !== null && newest > rule.created_at ? newest : rule.created_at;
    if (nowMs - Date.parse(since) < rule.duration_minutes * 60_000) continue;
    const now = new Date(nowMs).toISOString();
    opened += await inTransaction(db, async (trx) => {
      const [locked] = await rulesByIds(trx, rule.workspace_id, [rule.id], true);
      if (locked === undefined || locked.enabled !== 1 || locked.open_alert_id !== null) return 0;
      await openAlert(trx, locked, { startedAt: since, openedAt: now, value: null, now });
      return 1;
    });
  }
  return opened;
}

/** Checks for silent sensors every 30 seconds until stopped. */
export function startSilenceTimer(
  database: Database,
  log: FastifyBaseLogger,
  intervalMs: number = SILENCE_CHECK_MS,
): Repeating {
  return every(
    intervalMs,
    () => checkSilentSensors(database, Date.now()),
    (error) => log.warn({ err: error }, 'could not check alert rules for silent sensors'),
  );
}
