import { newId } from '../../../kernel/ids.js';
import { memo } from '../../../lib/memo.js';
import { eventTypeOf, presentEvent, type EventRow } from '../../events/index.js';
import type { AttemptRow, DeliveryRow } from '../deliveries.repository.js';
import { signingSecrets } from '../endpoints.service.js';
import type { EndpointRow } from '../endpoints.repository.js';
import { FAILING_DISABLES_AFTER_MS, RETRY_DELAYS_MS, retryDelay } from './schedule.js';
import type { AttemptResult, WebhookSender } from './sender.js';
import { signedHeaders } from '../signing.js';

/**
 * The body of an event's webhook: `type` (`entity_type.event_type`), `timestamp` (when
 * it was recorded) and `data`, the event exactly as GET /events lists it. Recent ones
 * are kept by event id: each endpoint's stream reads the same events at about the
 * same time, and an event never changes once recorded, so it is written out once.
 */
export const webhookBody: (event: EventRow) => string = memo(
  2000,
  (event: EventRow) =>
    JSON.stringify({
      type: eventTypeOf(event),
      timestamp: event.created_at,
      data: presentEvent(event),
    }),
  (event) => event.id,
);

/** One attempt and when it was made. */
export interface MadeAttempt {
  readonly event: EventRow;
  readonly at: string;
  readonly result: AttemptResult;
}

/**
 * Sends one event to one endpoint, signed with every secret in force. The event's id
 * is the `webhook-id`: the same on every attempt and redelivery, so a receiver can
 * tell a repeat from a new event.
 */
export async function attempt(
  sender: WebhookSender,
  endpoint: EndpointRow,
  event: EventRow,
  nowMs: number,
  abort: AbortSignal,
): Promise<MadeAttempt> {
  const at = new Date(nowMs).toISOString();
  const body = webhookBody(event);
  const headers = signedHeaders(
    event.id,
    Math.floor(nowMs / 1000),
    body,
    signingSecrets(endpoint, at),
  );
  return { event, at, result: await sender.send(endpoint, headers, body, abort) };
}

/**
 * What a delivery becomes after an attempt: delivered, due again later, or failed for
 * good. The last retry of the schedule comes no sooner than three days after the
 * delivery's first attempt, whatever the jitter: an endpoint that fails it has failed
 * for three days and is disabled.
 */
export function outcomeOf(
  made: MadeAttempt,
  scheduleStep: number,
  random: number,
  firstAttemptAt: string = made.at,
): Pick<DeliveryRow, 'status' | 'schedule_step' | 'next_attempt_at'> {
  const { result } = made;
  if (result.outcome === 'delivered') {
    return { status: 'delivered', schedule_step: scheduleStep + 1, next_attempt_at: null };
  }
  const delay =
    result.outcome === 'gone' ? null : retryDelay(scheduleStep + 1, result.retryAfterMs, random);
  if (delay === null) {
    return { status: 'failed', schedule_step: scheduleStep + 1, next_attempt_at: null };
  }
  let next = Date.parse(made.at) + delay;
  if (scheduleStep + 1 === RETRY_DELAYS_MS.length) {
    next = Math.max(next, Date.parse(firstAttemptAt) + FAILING_DISABLES_AFTER_MS);
  }
  return {
    status: 'pending',
    schedule_step: scheduleStep + 1,
    next_attempt_at: new Date(next).toISOString(),
  };
}

/** The log row of an attempt. */
export function attemptRow(
  made: MadeAttempt,
  delivery: Pick<DeliveryRow, 'id' | 'workspace_id'>,
  nextAttemptAt: string | null,
): AttemptRow {
  return {
    id: newId(),
    workspace_id: delivery.workspace_id,
    delivery_id: delivery.id,
    attempted_at: made.at,
    status_code: made.result.statusCode,
    duration_ms: made.result.durationMs,
    response: made.result.response,
    error: made.result.error,
    next_attempt_at: nextAttemptAt,
  };
}

/** The delivery columns an attempt sets. */
export function lastAttemptColumns(
  made: MadeAttempt,
): Pick<
  DeliveryRow,
  | 'last_attempt_at'
  | 'last_status_code'
  | 'last_duration_ms'
  | 'last_response'
  | 'last_error'
  | 'updated_at'
> {
  return {
    last_attempt_at: made.at,
    last_status_code: made.result.statusCode,
    last_duration_ms: made.result.durationMs,
    last_response: made.result.response,
    last_error: made.result.error,
    updated_at: made.at,
  };
}
