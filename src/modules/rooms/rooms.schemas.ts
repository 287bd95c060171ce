import Type from 'typebox';
import { Nullable, Uuid } from '../../kernel/schemas.js';

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
