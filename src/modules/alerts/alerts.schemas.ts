import Type, { type Static } from 'typebox';
import { Count, Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';
import { READING_TYPES } from '../readings/index.js';

export const CONDITIONS = ['above', 'below', 'no_readings'] as const;
export const RULE_STATES = ['ok', 'breaching', 'alerting'] as const;
export const ALERT_STATUSES = ['open', 'resolved'] as const;

/** A week: the longest a condition may have to hold. */
export const MAX_DURATION_MINUTES = 10_080;
const VALUE_BOUNDS = { minimum: -1e9, maximum: 1e9 };

export const AlertRule = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    sensor_type: Type.String({ description: READING_TYPES.join(', ') }),
    room_id: Nullable(Uuid()),
    device_id: Nullable(Uuid()),
    condition: StringEnum(CONDITIONS),
    threshold: Nullable(Type.Number()),
    duration_minutes: Count(),
    hysteresis: Type.Number(),
    enabled: Type.Boolean(),
    state: StringEnum(RULE_STATES, {
      description:
        'ok; breaching: out of range, not yet for duration_minutes; alerting: an alert is open',
    }),
    breach_started_at: Nullable(Type.String()),
    open_alert_id: Nullable(Uuid()),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'AlertRule' },
);
export type AlertRuleRecord = Static<typeof AlertRule>;

export const CreateAlertRuleBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    sensor_type: StringEnum(READING_TYPES),
    room_id: Type.Optional(
      Uuid({ description: "a room of the workspace: every device's readings there" }),
    ),
    device_id: Type.Optional(Uuid({ description: 'one device of the workspace' })),
    condition: StringEnum(CONDITIONS, {
      description:
        'above / below threshold for duration_minutes; no_readings: none for duration_minutes',
    }),
    threshold: Type.Optional(
      Type.Number({ ...VALUE_BOUNDS, description: 'required for above and below' }),
    ),
    duration_minutes: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_DURATION_MINUTES,
        description: 'how long the condition must hold (default 0; no_readings: at least 1)',
      }),
    ),
    hysteresis: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1e6,
        description:
          'an open alert resolves only once a reading is this far back inside the range (default 0)',
      }),
    ),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const UpdateAlertRuleBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    threshold: Type.Optional(Type.Number(VALUE_BOUNDS)),
    duration_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_DURATION_MINUTES })),
    hysteresis: Type.Optional(Type.Number({ minimum: 0, maximum: 1e6 })),
    enabled: Type.Optional(Type.Boolean({ description: 'false also resolves an open alert' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const AlertRuleParams = Type.Object({ id: Uuid() });

export const Alert = Type.Object(
  {
    id: Uuid(),
    rule_id: Uuid(),
    status: StringEnum(ALERT_STATUSES),
    sensor_type: Type.String(),
    room_id: Nullable(Uuid()),
    device_id: Nullable(Uuid()),
    condition: StringEnum(CONDITIONS),
    threshold: Nullable(Type.Number()),
    started_at: Type.String({ description: 'when the readings left the range (or went silent)' }),
    opened_at: Type.String({ description: 'when the condition had held for the rule’s duration' }),
    opened_value: Nullable(Type.Number()),
    resolved_at: Nullable(Type.String()),
    resolved_value: Nullable(Type.Number()),
    resolution: Nullable(
      StringEnum(['recovered', 'rule_disabled', 'rule_deleted'], {
        description: 'why it resolved: readings back in range, or the rule changed',
      }),
    ),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'Alert' },
);
export type AlertRecord = Static<typeof Alert>;

export const AlertParams = Type.Object({ id: Uuid() });

export const AlertQuery = Type.Object({
  status: Type.Optional(StringEnum(ALERT_STATUSES)),
  rule_id: Type.Optional(Uuid()),
});
