import { inTransaction } from '../../../db/transaction.js';
import { findEvents, type EventRow } from '../../events/index.js';
import { attempt, attemptRow, lastAttemptColumns, outcomeOf, type MadeAttempt } from './attempt.js';
import { inOrder, isoAt, type DeliveryContext } from './delivery-context.js';
import {
  claimDueDeliveries,
  completeDelivery,
  insertAttempts,
  type DeliveryRow,
} from '../deliveries.repository.js';
import { endpointsByIds, type EndpointRow } from '../endpoints.repository.js';
import { applyHealth } from './health.js';

/** Retries of one endpoint taken at once. */
const RETRY_BATCH = 50;
/** Retries in flight to one endpoint at once. */
const RETRY_LANES = 8;

async function eventsOf(
  ctx: DeliveryContext,
  due: readonly DeliveryRow[],
): Promise<Map<string, EventRow>> {
  const byWorkspace = new Map<string, string[]>();
  for (const row of due) {
    byWorkspace.set(row.workspace_id, [...(byWorkspace.get(row.workspace_id) ?? []), row.event_id]);
  }
  const events = new Map<string, EventRow>();
  for (const [workspaceId, ids] of byWorkspace) {
    for (const event of await findEvents(ctx.database.db, workspaceId, ids)) {
      events.set(event.id, event);
    }
  }
  return events;
}

interface Done {
  readonly delivery: DeliveryRow;
  readonly endpoint: EndpointRow | undefined;
  readonly made: MadeAttempt | null;
}

/**
 * Sends one endpoint's retries that are due (and redeliveries asked for by hand), a
 * batch of them. Each is taken with a lease (see claimDueDeliveries): a process that
 * dies while sending leaves it due again when the lease runs out, to be sent again
 * with the same `webhook-id`. Answers the attempts made.
 */
export async function sendDueRetries(ctx: DeliveryContext, endpointId: string): Promise<number> {
  const { db } = ctx.database;
  const claimed = ctx.now();
  const due = await claimDueDeliveries(
    db,
    endpointId,
    ctx.owner,
    isoAt(claimed),
    isoAt(claimed + ctx.leaseMs),
    RETRY_BATCH,
  );
  if (due.length === 0) return 0;
  const endpoints = new Map(
    (await endpointsByIds(db, [...new Set(due.map((row) => row.endpoint_id))])).map((row) => [
      row.id,
      row,
    ]),
  );
  const events = await eventsOf(ctx, due);
  const done = await inOrder(due, RETRY_LANES, async (delivery): Promise<Done> => {
    const endpoint = endpoints.get(delivery.endpoint_id);
    const event = events.get(delivery.event_id);
    if (endpoint?.status !== 'enabled' || event === undefined) {
      return { delivery, endpoint, made: null };
    }
    return {
      delivery,
      endpoint,
      made: await attempt(ctx.sender, endpoint, event, ctx.now(), ctx.abort),
    };
  });
  const now = isoAt(ctx.now());
  await inTransaction(db, async (trx) => {
    const byEndpoint = new Map<string, MadeAttempt[]>();
    for (const { delivery, endpoint, made } of done) {
      if (made === null) {
        const reason =
          endpoint === undefined || endpoint.status === 'enabled'
            ? 'the event no longer exists'
            : `endpoint disabled: ${endpoint.disabled_reason ?? 'by hand'}`;
        await completeDelivery(trx, delivery.id, ctx.owner, {
          status: 'failed',
          next_attempt_at: null,
          lease_owner: null,
          last_error: reason,
          updated_at: now,
        });
        continue;
      }
      const outcome = outcomeOf(made, delivery.schedule_step, ctx.random(), delivery.created_at);
      const held = await completeDelivery(trx, delivery.id, ctx.owner, {
        ...outcome,
        ...lastAttemptColumns(made),
        attempts: delivery.attempts + 1,
        lease_owner: null,
      });
      // A delivery sent again by hand meanwhile is due anew; this attempt is not its own.
      if (!held) continue;
      await insertAttempts(trx, [attemptRow(made, delivery, outcome.next_attempt_at)]);
      byEndpoint.set(delivery.endpoint_id, [...(byEndpoint.get(delivery.endpoint_id) ?? []), made]);
    }
    for (const [endpointId, made] of byEndpoint) {
      const endpoint = endpoints.get(endpointId)!;
      made.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
      await applyHealth(trx, endpoint, made, now);
    }
  });
  return done.filter((one) => one.made !== null).length;
}
