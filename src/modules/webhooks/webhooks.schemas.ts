import Type, { type Static } from 'typebox';
import { Count, Int, Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';
import { EVENT_TYPES } from '../events/index.js';

export const ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

const EventTypes = Type.Array(StringEnum(EVENT_TYPES), {
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  uniqueItems: true,
  description: 'the event types sent to the endpoint; null or absent: every type',
});

const endpointFields = {
  id: Uuid(),
  url: Type.String(),
  description: Type.String(),
  event_types: Nullable(Type.Array(Type.String())),
  status: StringEnum(ENDPOINT_STATUSES),
  disabled_reason: Nullable(Type.String({ description: 'why the endpoint was disabled' })),
  disabled_at: Nullable(Type.String()),
  failing_since: Nullable(
    Type.String({ description: 'the first failed attempt since the last success' }),
  ),
  last_success_at: Nullable(Type.String()),
  previous_secret_expires_at: Nullable(
    Type.String({ description: 'after a rotation: until when the old secret still signs' }),
  ),
  created_at: Type.String(),
  updated_at: Type.String(),
};

export const WebhookEndpoint = Type.Object(endpointFields, { $id: 'WebhookEndpoint' });
export type WebhookEndpointRecord = Static<typeof WebhookEndpoint>;

/** The endpoint with its signing secret: the answer of creating it or rotating its secret only. */
export const WebhookEndpointWithSecret = Type.Object({
  ...endpointFields,
  secret: Type.String({ description: 'whsec_…: shown in this answer only' }),
});

export const WebhookEndpointParams = Type.Object({ id: Uuid() });
export const WebhookDeliveryParams = Type.Object({ id: Uuid(), deliveryId: Uuid() });

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'https (plain http only to a host WEBHOOK_ALLOWED_HOSTS names)',
});
const Description = Type.String({ maxLength: 500 });

export const CreateWebhookEndpointBody = Type.Object(
  {
    url: Url,
    description: Type.Optional(Description),
    event_types: Type.Optional(Nullable(EventTypes)),
  },
  { additionalProperties: false },
);

export const UpdateWebhookEndpointBody = Type.Object(
  {
    url: Type.Optional(Url),
    description: Type.Optional(Description),
    event_types: Type.Optional(Nullable(EventTypes)),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const DisableWebhookEndpointBody = Type.Object(
  { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })) },
  { additionalProperties: false },
);

export const EmptyBody = Type.Object({}, { additionalProperties: false });

const deliveryFields = {
  id: Uuid(),
  endpoint_id: Uuid(),
  event_id: Uuid({ description: 'the change event; also the webhook-id header of every attempt' }),
  event_type: Type.String(),
  status: StringEnum(DELIVERY_STATUSES),
  attempts: Count(),
  next_attempt_at: Nullable(Type.String({ description: 'when a pending delivery is tried next' })),
  last_attempt_at: Nullable(Type.String()),
  last_status_code: Nullable(Int({ minimum: 100, maximum: 999 })),
  last_duration_ms: Nullable(Count()),
  last_response: Nullable(
    Type.String({ description: 'the first 1 KB of the last answer, as text' }),
  ),
  last_error: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
};

export const WebhookDelivery = Type.Object(deliveryFields, { $id: 'WebhookDelivery' });
export type WebhookDeliveryRecord = Static<typeof WebhookDelivery>;

export const WebhookAttempt = Type.Object({
  attempted_at: Type.String(),
  status_code: Nullable(Int({ minimum: 100, maximum: 999 })),
  duration_ms: Count(),
  response: Nullable(Type.String()),
  error: Nullable(Type.String()),
  next_attempt_at: Nullable(Type.String({ description: 'the retry this attempt scheduled' })),
});

export const WebhookDeliveryDetail = Type.Object({
  ...deliveryFields,
  attempt_log: Type.Array(WebhookAttempt, {
    description: 'the latest 50 attempts, newest first',
  }),
});

export const DeliveryQuery = Type.Object({
  status: Type.Optional(StringEnum(DELIVERY_STATUSES)),
  event_type: Type.Optional(StringEnum(EVENT_TYPES)),
});
