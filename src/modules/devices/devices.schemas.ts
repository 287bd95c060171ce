import Type from 'typebox';
import { JsonObject, Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

export const DEVICE_TYPES = ['sensor', 'controller', 'gateway'] as const;
export const DEVICE_STATUSES = ['active', 'paused', 'retired'] as const;
export const TOKEN_ENVIRONMENTS = ['production', 'development'] as const;

export const Device = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    type: Type.String({ description: DEVICE_TYPES.join(', ') }),
    hardware: Nullable(Type.String()),
    status: Type.String({ description: DEVICE_STATUSES.join(', ') }),
    firmware_version: Nullable(Type.String()),
    room_id: Nullable(Uuid()),
    last_seen_at: Nullable(Type.String({ description: 'last heartbeat or accepted reading' })),
    metadata: Type.Object({}, { additionalProperties: true }),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'Device' },
);

export const RegisterDeviceBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    type: Type.Optional(StringEnum(DEVICE_TYPES, { default: 'sensor' })),
    hardware: Type.Optional(Type.String({ maxLength: 100 })),
    firmware_version: Type.Optional(Type.String({ maxLength: 50 })),
    room_id: Type.Optional(Uuid({ description: 'a room of the workspace' })),
    metadata: Type.Optional(JsonObject()),
  },
  { additionalProperties: false },
);

export const DeviceParams = Type.Object({ deviceId: Uuid() });
export const DeviceTokenParams = Type.Object({ deviceId: Uuid(), tokenId: Uuid() });

export const DeviceToken = Type.Object(
  {
    id: Uuid(),
    deviceId: Uuid(),
    name: Nullable(Type.String()),
    prefix: Type.String(),
    status: Type.String({ description: 'active, revoked' }),
    lastUsedAt: Nullable(Type.String()),
    revokedAt: Nullable(Type.String()),
    createdAt: Type.String(),
    environment: Type.String({ description: TOKEN_ENVIRONMENTS.join(', ') }),
  },
  { $id: 'DeviceToken' },
);

export const DeviceTokenCreated = Type.Object(
  {
    id: Uuid(),
    deviceId: Uuid(),
    name: Nullable(Type.String()),
    prefix: Type.String(),
    token: Type.String({ description: 'The secret; shown in this response only' }),
    createdAt: Type.String(),
    environment: Type.String({ description: TOKEN_ENVIRONMENTS.join(', ') }),
  },
  { $id: 'DeviceTokenCreated' },
);

export const MintTokenBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    environment: Type.Optional(
      StringEnum(TOKEN_ENVIRONMENTS, {
        default: 'production',
        description: 'production gives xpd_live_…, development xpd_dev_…',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Heartbeat = Type.Object(
  {
    received_at: Type.String(),
    device_id: Uuid(),
    last_seen_at: Type.String({
      description: "The device's last_seen_at after this heartbeat (a reading may be later)",
    }),
  },
  { $id: 'Heartbeat' },
);

/** A heartbeat's body is ignored: none, `{}` or any JSON object (device metadata). */
export const HeartbeatBody = Type.Object(
  {},
  { additionalProperties: true, description: 'Ignored; any JSON object' },
);
