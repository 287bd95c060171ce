import Type, { type Static } from 'typebox';
import { FINITE_NUMBER_BOUNDS, Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';
import { PLAUSIBLE_RANGES } from './plausible.js';

/** The plausible ranges in words, for the descriptions of the flags. */
export const plausibleWords = () =>
  PLAUSIBLE_RANGES.map((r) => `${r.type} ${r.min} to ${r.max} ${r.unit}`).join(', ');

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
  type: Type.Union(
    [
      StringEnum(READING_TYPES),
      Type.String({
        minLength: 1,
        maxLength: 50,
        description:
          'A name outside the list, as older firmware sends: light_lux is stored as light, any ' +
          'other as other with the name kept in notes ("type sent: …")',
      }),
    ],
    { description: READING_TYPES.join(', ') },
  ),
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
  timestamp: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        'The older name of recorded_at, as some device clients send it; both sent must be the same moment (422)',
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

export const ReadingListMeta = Type.Object({
  raw_since: Type.Optional(
    Type.String({
      description:
        'ISO 8601 UTC; present once retention has removed raw readings: those taken before this ' +
        'time are gone (GET /sensor-readings/summary still covers them)',
    }),
  ),
});

/** Bucket sizes of a summary, each a whole number of minutes, aligned to UTC. */
export const SUMMARY_BUCKETS = {
  '1m': 1,
  '5m': 5,
  '15m': 15,
  '1h': 60,
  '6h': 360,
  '1d': 1440,
} as const;
export type SummaryBucketSize = keyof typeof SUMMARY_BUCKETS;

/** The most buckets one series of a summary spans (30 days of 15 minutes, 48 hours of 1). */
export const SUMMARY_MAX_BUCKETS = 2880;

const ISO_UTC = { description: 'ISO 8601 UTC with milliseconds' };

export const SummaryQuery = Type.Object({
  device_id: Type.Optional(Uuid({ description: 'this device (device_id or room_id is required)' })),
  room_id: Type.Optional(Uuid({ description: 'this room (device_id or room_id is required)' })),
  type: Type.Optional(StringEnum(READING_TYPES, { description: 'only this type' })),
  bucket: StringEnum(Object.keys(SUMMARY_BUCKETS) as SummaryBucketSize[], {
    description: 'bucket size; buckets are aligned to UTC (a day starts at 00:00Z)',
  }),
  since: Type.Optional(
    Type.String({
      format: 'date-time',
      description: `taken at or after (ISO 8601 with a zone); default: as far back as the range may reach (${SUMMARY_MAX_BUCKETS.toLocaleString('en-US')} buckets, until's the last)`,
    }),
  ),
  until: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'taken at or before; not earlier than since; default now',
    }),
  ),
});

export const SummaryBucket = Type.Object(
  {
    start: Type.String({ description: "the bucket's start (aligned to UTC), ISO 8601 UTC" }),
    type: Type.String({ description: READING_TYPES.join(', ') }),
    unit: Type.String(),
    count: Type.Integer({ minimum: 1, description: 'readings in the bucket' }),
    min: Type.Number(),
    max: Type.Number(),
    avg: Type.Number({
      description:
        'the exact mean of the values (each taken as the decimal JSON shows for it), rounded once to the nearest double',
    }),
    last: Type.Number({
      description: 'the value of the latest reading: greatest recorded_at, then greatest id',
    }),
    last_at: Type.String({ ...ISO_UTC, description: 'when the latest reading was taken' }),
    out_of_range: Type.Boolean({
      description:
        'true when the bucket holds a value a sensor of its type cannot report in its unit ' +
        `(${plausibleWords()}): stored as sent, not the room's value (Vitro addition)`,
    }),
  },
  { $id: 'SensorReadingSummaryBucket' },
);

export const SummaryData = Type.Array(SummaryBucket, {
  maxItems: SUMMARY_MAX_BUCKETS * READING_TYPES.length,
});

export const SummaryMeta = Type.Object({
  since: Type.String({ ...ISO_UTC, description: 'the start of the range summarised' }),
  until: Type.String({ ...ISO_UTC, description: 'its end (inclusive)' }),
  raw_since: Nullable(
    Type.String({
      ...ISO_UTC,
      description:
        'raw readings taken before this time were removed by retention (their summaries remain); null when none were',
    }),
  ),
});
