import { inTransaction } from '../../../db/transaction.js';
import { parseJsonArray } from '../../../kernel/json.js';
import { newId } from '../../../kernel/ids.js';
import { eventTypeOf, listEventsAfter, type EventRow } from '../../events/index.js';
import { attempt, attemptRow, lastAttemptColumns, outcomeOf, type MadeAttempt } from './attempt.js';
import { inOrder, isoAt, type DeliveryContext } from './delivery-context.js';
import {
  insertAttempts,
  insertDeliveries,
  type AttemptRow,
  type DeliveryRow,
} from '../deliveries.repository.js';
import {
  finishStream,
  renewStream,
  takeStream,
  type EndpointRow,
} from '../endpoints.repository.js';
import { applyHealth } from './health.js';

/** Events read from the feed per batch. */
export const STREAM_BATCH = 100;

/** First attempts in flight to one endpoint at once, started in feed order. */
export const STREAM_WINDOW = 8;

class LostLease extends Error {}

function wanted(endpoint: EndpointRow, events: readonly EventRow[]): EventRow[] {
  if (endpoint.event_types === null) return [...events];
  const types = new Set(parseJsonArray(endpoint.event_types));
  return events.filter((event) => types.has(eventTypeOf(event)));
}

/**
 * The feed is the outbox: each endpoint keeps a cursor (`feed_seq`) over its
 * workspace's change feed. A process takes the endpoint's lease, reads the events
 * after the cursor, makes their first attempts (in feed order, a few in flight), and
 * then, in one transaction, logs a delivery per event and moves the cursor, only if
 * it still holds the lease. A process that dies before that commit leaves the cursor
 * where it was: once the lease runs out another process sends the same events again,
 * with the same `webhook-id`s. Nothing is written with the event itself, so the
 * writes that record events pay nothing for webhooks.
 *
 * A `410 Gone` or a `Retry-After` stops the batch there: the endpoint is disabled, or
 * rests (its lease held by nobody) until the time asked for. Answers the attempts made.
 */
export async function streamEndpoint(ctx: DeliveryContext, endpointId: string): Promise<number> {
  const { db } = ctx.database;
  const taken = ctx.now();
  const endpoint = await takeStream(
    db,
    endpointId,
    ctx.owner,
    isoAt(taken),
    isoAt(taken + ctx.leaseMs),
  );
  if (endpoint === undefined) return 0;
  let lost = false;
  const renewal = setInterval(() => {
    renewStream(db, endpointId, ctx.owner, isoAt(ctx.now() + ctx.leaseMs)).then(
      (held) => (lost ||= !held),
      (error: unknown) => ctx.log.warn({ err: error }, 'could not renew a webhook stream lease'),
    );
  }, ctx.leaseMs / 3);
  renewal.unref();
  let made: MadeAttempt[] = [];
  /** What may still wait once this batch is sent (pressure.ts); null: unknown. */
  let next: number | null = null;
  try {
    const readAt = ctx.now();
    const events = await listEventsAfter(
      db,
      endpoint.workspace_id,
      endpoint.feed_seq,
      STREAM_BATCH,
    );
    ctx.pressure?.read(endpointId, events[0]?.created_at ?? null);
    if (events.length === 0) {
      await inTransaction(db, (trx) =>
        finishStream(trx, endpointId, ctx.owner, { lease_owner: null, lease_until: null }),
      );
      return 0;
    }
    const sending = wanted(endpoint, events);
    made = await inOrder(
      sending,
      STREAM_WINDOW,
      (event) => attempt(ctx.sender, endpoint, event, ctx.now(), ctx.abort),
      (one) => one.result.outcome === 'gone' || one.result.retryAfterMs !== null,
    );
    const stoppedEarly = made.length < sending.length;
    const cursor = stoppedEarly ? made[made.length - 1]!.event.seq : events[events.length - 1]!.seq;
    const unsent = events.find((event) => event.seq > cursor);
    next =
      unsent !== undefined
        ? Date.parse(unsent.created_at)
        : events.length === STREAM_BATCH
          ? Date.parse(events[events.length - 1]!.created_at)
          : readAt;
    const resting = made.find((one) => one.result.retryAfterMs !== null);
    const now = isoAt(ctx.now());
    await inTransaction(db, async (trx) => {
      const held =
        !lost &&
        (await finishStream(trx, endpointId, ctx.owner, {
          feed_seq: cursor,
          lease_owner: null,
          lease_until: resting
            ? isoAt(Date.parse(resting.at) + resting.result.retryAfterMs!)
            : null,
        }));
      // Another process has the stream now and sends these events itself.
      if (!held) throw new LostLease();
      const deliveries: DeliveryRow[] = [];
      const attempts: AttemptRow[] = [];
      for (const one of made) {
        const outcome = outcomeOf(one, 0, ctx.random());
        const delivery: DeliveryRow = {
          id: newId(),
          workspace_id: endpoint.workspace_id,
          endpoint_id: endpoint.id,
          event_id: one.event.id,
          event_seq: one.event.seq,
          event_type: eventTypeOf(one.event),
          attempts: 1,
          lease_owner: null,
          created_at: one.at,
          ...outcome,
          ...lastAttemptColumns(one),
        };
        deliveries.push(delivery);
        // Delivered at once, the delivery's own columns are its one attempt (attemptsOf).
        if (outcome.status !== 'delivered') {
          attempts.push(attemptRow(one, delivery, outcome.next_attempt_at));
        }
      }
      await insertDeliveries(trx, deliveries);
      await insertAttempts(trx, attempts);
      await applyHealth(trx, endpoint, made, now);
    });
    return made.length;
  } catch (error) {
    if (error instanceof LostLease) return 0;
    throw error;
  } finally {
    clearInterval(renewal);
    ctx.pressure?.finished(endpointId, made, next);
  }
}

export type { MadeAttempt };
