import Type, { type Static, type TSchema } from 'typebox';

/** `T | null` as `type: [T, "null"]` (OpenAPI 3.1 style; fast to validate and serialise). */
export function Nullable<T extends TSchema>(schema: T, options: Record<string, unknown> = {}) {
  const base = schema as unknown as Record<string, unknown>;
  if (typeof base.type !== 'string') {
    return Type.Unsafe<Static<T> | null>({ anyOf: [schema, { type: 'null' }], ...options });
  }
  return Type.Unsafe<Static<T> | null>({ ...base, type: [base.type, 'null'], ...options });
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

/** Map of lab-defined custom field values. */
export const CustomFieldValues = Type.Record(
  Type.String(),
  Type.Unsafe<string | number | boolean | null>({ type: ['string', 'number', 'boolean', 'null'] }),
);

export const PageMeta = Type.Object({ next_cursor: Nullable(Type.String()) }, { $id: 'PageMeta' });

export const ErrorEnvelope = Type.Object(
  {
    ok: Type.Literal(false),
    data: Type.Null(),
    error: Type.String(),
    code: Type.String(),
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
