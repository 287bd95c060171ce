import Type from 'typebox';
import { JsonObject, Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

export const DEVICE_EVENT_TYPES = [
  'heartbeat',
  'alert',
  'firmware_update',
  'config_change',
  'error',
  'other',
] as const;

export const DeviceEvent = Type.Object(
  {
    id: Uuid(),
    device_id: Uuid(),
    team_id: Uuid({ description: 'the workspace' }),
    event_type: Type.String({ description: DEVICE_EVENT_TYPES.join(', ') }),
    payload: Type.Object({}, { additionalProperties: true }),
    occurred_at: Type.String(),
    created_at: Type.String(),
    external_id: Nullable(Type.String()),
  },
  { $id: 'DeviceEvent' },
);

export const CreateDeviceEventBody = Type.Object(
  {
    device_id: Uuid(),
    event_type: Type.Union(
      [
        StringEnum(DEVICE_EVENT_TYPES),
        Type.String({
          minLength: 1,
          maxLength: 50,
          description:
            'A type outside the list, as some firmware sends: stored as other, the type sent kept ' +
            'in payload.original_event_type',
        }),
      ],
      { description: DEVICE_EVENT_TYPES.join(', ') },
    ),
    payload: Type.Optional(JsonObject()),
    occurred_at: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'ISO 8601 with a time zone; default the time of receipt',
      }),
    ),
    timestamp: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'The older name of occurred_at, as some device clients send it; both sent must be the same moment (422)',
      }),
    ),
    external_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "The device's own id for the event: a repeat answers the stored event",
      }),
    ),
  },
  { additionalProperties: false },
);

export const DeviceEventMeta = Type.Object({
  duplicate: Type.Literal(true, { description: 'the event was stored before; this is it' }),
});
