import Type, { type Static } from 'typebox';
import { FINITE_NUMBER_BOUNDS, Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

export const READING_TYPES = ['temperature', 'humidity', 'ph', 'co2', 'light', 'other'] as const;

/** The most readings one request may carry. */
export const READINGS_PER_REQUEST = 500;

export const SensorReading = Type.Object(
  {
    id: Uuid(),
    device_id: Uuid(),
    team_id: Uuid({ description: 'the workspace' }),
    room_id: Nullable(Uuid()),
    type: Type.String({ description: READING_TYPES.join(', ') }),
    value: Type.Number(),
    unit: Type.String(),
    recorded_at: Type.String({ description: 'when the reading was taken' }),
    notes: Nullable(Type.String()),
    created_at: Type.String(),
    external_id: Nullable(Type.String()),
  },
  { $id: 'SensorReading' },
);

const readingFields = {
  device_id: Uuid(),
  type: StringEnum(READING_TYPES),
  value: Type.Number(FINITE_NUMBER_BOUNDS),
  unit: Type.String({ minLength: 1, maxLength: 20 }),
  room_id: Type.Optional(
    Uuid({ description: "a room of the workspace; default the device's room" }),
  ),
  recorded_at: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        'ISO 8601 with a time zone; required with external_id, else default the time of receipt',
    }),
  ),
  notes: Type.Optional(Type.String({ maxLength: 500 })),
  external_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        "The device's own id for the reading: a repeat (same device, external_id and recorded_at) is stored once",
    }),
  ),
};

export const ReadingInput = Type.Object(readingFields, { additionalProperties: false });
export type ReadingInput = Static<typeof ReadingInput>;

export const ReadingBatch = Type.Object(
  {
    readings: Type.Array(Type.Object(readingFields, { additionalProperties: false }), {
      minItems: 1,
      maxItems: READINGS_PER_REQUEST,
    }),
  },
  { additionalProperties: false },
);

/** One reading, or `{readings: [1..500]}`; the response has the same shape. */
export const CreateReadingsBody = Type.Unsafe<ReadingInput | Static<typeof ReadingBatch>>({
  oneOf: [ReadingInput, ReadingBatch],
});

/** The same record without its `$id`: one schema may name a component once only. */
const SensorReadingInBatch = Type.Object(SensorReading.properties);

export const CreateReadingsData = Type.Unsafe<
  Static<typeof SensorReading> | Static<typeof SensorReading>[]
>({
  oneOf: [SensorReading, Type.Array(SensorReadingInBatch)],
});

export const CreateReadingsMeta = Type.Object({
  duplicate: Type.Literal(true, {
    description: 'a single reading that was stored before; this is it',
  }),
});

export const ReadingQuery = Type.Object({
  device_id: Type.Optional(Uuid({ description: 'only this device' })),
  room_id: Type.Optional(Uuid({ description: 'only this room' })),
  type: Type.Optional(StringEnum(READING_TYPES)),
  since: Type.Optional(
    Type.String({ format: 'date-time', description: 'taken at or after (ISO 8601 with a zone)' }),
  ),
  until: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'taken at or before; not earlier than since',
    }),
  ),
});
