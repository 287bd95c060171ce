import Type from 'typebox';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';
import { RoomName } from '../lab/index.js';

const LatestReading = Type.Object({
  type: Type.String({ description: 'temperature, humidity, ph, co2, light, other' }),
  value: Type.Number(),
  unit: Type.String(),
  recorded_at: Type.String(),
  device_id: Uuid(),
  out_of_range: Type.Boolean({
    description:
      'true when the value is one a sensor of its type cannot report in its unit (see ' +
      'GET /sensor-readings/summary): stored as sent, not the room’s value (Vitro addition)',
  }),
});

const count = (what: string, scope: string) =>
  Nullable(
    Type.Integer({
      minimum: 0,
      description: `${what}; null when the key lacks ${scope}`,
    }),
  );

export const Room = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    created_at: Type.String(),
    archived_at: Nullable(
      Type.String({
        description: 'When it was archived (left out of the rooms list); null when not',
      }),
    ),
    device_count: count('Devices in the room, retired ones left out', 'read:devices'),
    plant_count: count(
      'Plants whose current stage is in the room, archived ones left out',
      'read:plants',
    ),
    explant_count: count(
      'Explants whose current stage is in the room, archived ones left out',
      'read:explants',
    ),
    latest_readings: Nullable(
      Type.Array(LatestReading, {
        maxItems: 6,
        description:
          "The latest value of each sensor type among the room's 500 newest readings, by type; " +
          'null when the key lacks read:sensor_readings',
      }),
    ),
  },
  { $id: 'Room' },
);

export const RoomParams = Type.Object({ id: Uuid() });

export const RoomQuery = Type.Object({
  archived: Type.Optional(
    StringEnum(['exclude', 'include', 'only'] as const, {
      description:
        'exclude (default): archived rooms are left out; include: listed too; only: archived ones alone',
    }),
  ),
});

/** POST /rooms: a room's name is its key for imports, so it must be free in the lab (409). */
export const CreateRoomBody = Type.Object({ name: RoomName() }, { additionalProperties: false });

export const UpdateRoomBody = Type.Object(
  {
    name: Type.Optional(RoomName()),
    archived: Type.Optional(
      Type.Boolean({
        description:
          'true archives the room (left out of the list; records and history in it keep it); false brings it back',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
