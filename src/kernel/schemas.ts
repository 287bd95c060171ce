import Type, { type Static, type TProperties, type TSchema } from 'typebox';
import { MAX_JSON_DEPTH } from './validation.js';

/** `T | null` as `type: [T, "null"]` (OpenAPI 3.1 style; fast to validate and serialise). */
export function Nullable<T extends TSchema>(schema: T, options: Record<string, unknown> = {}) {
  const base = schema as unknown as Record<string, unknown>;
  if (typeof base.type !== 'string') {
    return Type.Unsafe<Static<T> | null>({ anyOf: [schema, { type: 'null' }], ...options });
  }
  // An enum lists null too: `type` alone would let null through to an `enum` that refuses it.
  const values = Array.isArray(base.enum) ? { enum: [...(base.enum as unknown[]), null] } : {};
  return Type.Unsafe<Static<T> | null>({
    ...base,
    type: [base.type, 'null'],
    ...values,
    ...options,
  });
}

/** A string restricted to `values` (a plain JSON Schema `enum`). */
export function StringEnum<const V extends readonly string[]>(
  values: V,
  options: Record<string, unknown> = {},
) {
  return Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...options });
}

export const Uuid = (options: Record<string, unknown> = {}) =>
  Type.String({ format: 'uuid', ...options });

export const Timestamp = (options: Record<string, unknown> = {}) =>
  Type.String({ format: 'date-time', ...options });

/**
 * The range of an INTEGER column on PostgreSQL (32-bit signed). SQLite would hold
 * more; the same bounds apply there so that both databases accept the same inputs.
 */
export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;

interface IntegerOptions {
  minimum?: number;
  maximum?: number;
  description?: string;
  default?: number;
}

/** An integer an INTEGER column holds; `minimum`/`maximum` may narrow the range, never widen it. */
export const Int = (options: IntegerOptions = {}) =>
  Type.Integer({
    ...options,
    minimum: Math.max(INT32_MIN, options.minimum ?? INT32_MIN),
    maximum: Math.min(INT32_MAX, options.maximum ?? INT32_MAX),
  });

/** A count of things (vessels, plantlets): 0 up to what an INTEGER column holds. */
export const Count = (options: IntegerOptions = {}) => Int({ minimum: 0, ...options });

/** Every finite double: what a JSON or double-precision value holds (never ±Infinity). */
export const FINITE_NUMBER_BOUNDS = { minimum: -Number.MAX_VALUE, maximum: Number.MAX_VALUE };

/** Map of lab-defined custom field values (stored as JSON text: numbers are finite doubles). */
export const CustomFieldValues = Type.Record(
  Type.String(),
  Type.Unsafe<string | number | boolean | null>({
    type: ['string', 'number', 'boolean', 'null'],
    ...FINITE_NUMBER_BOUNDS,
  }),
);

export const PageMeta = Type.Object({ next_cursor: Nullable(Type.String()) }, { $id: 'PageMeta' });

const MONEY_PROPERTIES = {
  amount: Type.String({ description: 'exact decimal, e.g. "18.50"' }),
  currency: Nullable(Type.String({ description: 'ISO 4217 code, e.g. USD' })),
};

/**
 * Money (resources.md decision 13): an exact decimal string, never a float, and its
 * currency. A shared schema (registered once by the route kernel), so that a record
 * holding several amounts refers to one `Money` component: use `MoneyRef`.
 */
export const Money = Type.Object(MONEY_PROPERTIES, { $id: 'Money' });
export type MoneyValue = Static<typeof Money>;

export const MoneyRef = () => Type.Unsafe<MoneyValue>({ $ref: 'Money#' });

/**
 * Money or null. Written out rather than `anyOf: [Money, null]`: the response
 * serializer cannot resolve a shared schema inside `anyOf`.
 */
export const NullableMoney = () =>
  Nullable(Type.Object(MONEY_PROPERTIES, { description: 'Money: amount and currency' }));

export const ErrorEnvelope = Type.Object(
  {
    ok: Type.Literal(false),
    data: Type.Null(),
    error: Type.String(),
    code: Type.String(),
    details: Type.Optional(
      Type.Unknown({
        description:
          'What the refusal says beyond `error`, only where an operation documents it: the ' +
          'per-row results of an import refused for its rows (POST /imports)',
      }),
    ),
  },
  { $id: 'Error', description: 'Failure' },
);

export function successEnvelope(data: TSchema, meta: TSchema | null, metaRequired: boolean) {
  const properties: Record<string, TSchema> = { ok: Type.Literal(true), data };
  if (meta !== null) properties.meta = metaRequired ? meta : Type.Optional(meta);
  return Type.Object(properties);
}

/** Empty object schema used for operations without parameters of a kind. */
export const NoFields = Type.Object({}, { additionalProperties: false });

/**
 * Free-form JSON (device metadata, event payloads); its size is checked by the
 * service (`boundedJson`, JSON_OBJECT_MAX_BYTES), its depth by validation
 * (`MAX_JSON_DEPTH`).
 */
export const JsonObject = () =>
  Type.Record(Type.String({ maxLength: 200 }), Type.Unknown(), {
    description: `Any JSON object, up to 10,000 bytes and ${MAX_JSON_DEPTH} levels deep; default {}`,
  });

/** An object that refuses unknown keys (an error, never ignored): what a lab writes. */
export const Closed = <P extends TProperties>(properties: P) =>
  Type.Object(properties, { additionalProperties: false });

/** Text of 1 to `max` characters. */
export const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });

/** A field that may be left out or null, both meaning none. */
export const OptionalOf = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** Text up to `max` characters that may be left out or null. */
export const OptionalText = (max: number) => OptionalOf(Type.String({ maxLength: max }));

/**
 * The `from`/`to` query parameters of a list of things that occurred, both ends
 * inclusive (`timeWindow` in window.ts reads them).
 */
export const OccurredWindowQuery = {
  from: Type.Optional(
    Type.String({ format: 'date-time', description: 'occurred at or after (ISO 8601 with zone)' }),
  ),
  to: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'occurred at or before (ISO 8601 with zone); not earlier than from',
    }),
  ),
};
