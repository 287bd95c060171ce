import type { Trx } from '../../../db/database.js';
import type { MadeAttempt } from './attempt.js';
import { failPendingDeliveries } from '../deliveries.repository.js';
import {
  disableEndpointRow,
  recordEndpointHealth,
  type EndpointRow,
} from '../endpoints.repository.js';
import { FAILING_DISABLES_AFTER_MS } from './schedule.js';
import { STOPPED } from './sender.js';

/**
 * Applies attempts' outcomes (oldest first) to their endpoint: a success ends a
 * failing streak; `410 Gone`, or a streak of three days, disables the endpoint with
 * the reason shown, and its pending deliveries fail. Answers the reason, if disabled.
 */
export async function applyHealth(
  trx: Trx,
  endpoint: Pick<EndpointRow, 'id' | 'workspace_id'>,
  attempts: readonly MadeAttempt[],
  now: string,
): Promise<string | null> {
  // An attempt cut short by this process stopping says nothing about the endpoint.
  const judged = attempts.filter((made) => made.result.error !== STOPPED);
  if (judged.length === 0) return null;
  let successAt: string | null = null;
  let failingSince: string | null = null;
  for (const made of judged) {
    if (made.result.outcome === 'delivered') {
      successAt = made.at;
      failingSince = null;
    } else {
      failingSince ??= made.at;
    }
  }
  const streak = await recordEndpointHealth(trx, endpoint.id, { successAt, failingSince });
  const gone = judged.find((made) => made.result.outcome === 'gone');
  let reason: string | null = null;
  if (gone !== undefined) {
    reason = `the endpoint answered 410 Gone at ${gone.at}`;
  } else if (streak !== null && Date.parse(now) - Date.parse(streak) >= FAILING_DISABLES_AFTER_MS) {
    const last = judged[judged.length - 1]!;
    reason = `every delivery failed for 3 days (since ${streak}); the last: ${last.result.error ?? 'failed'}`;
  }
  if (reason !== null) {
    await disableEndpointRow(trx, endpoint.workspace_id, endpoint.id, reason, now);
    await failPendingDeliveries(
      trx,
      endpoint.workspace_id,
      endpoint.id,
      `endpoint disabled: ${reason}`,
      now,
    );
  }
  return reason;
}
