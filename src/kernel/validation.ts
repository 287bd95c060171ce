import { Ajv, type ErrorObject, type Options, type SchemaValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { errors } from './errors.js';
import { addVitroFormats, formatProblem } from './formats.js';

// ajv-formats ships CommonJS with a default export; under NodeNext it arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const shared: Options = {
  useDefaults: true,
  // Unknown body fields are refused by `additionalProperties: false`, never stripped.
  removeAdditional: false,
  allErrors: false,
  allowUnionTypes: true,
  strict: false,
  // `strict: false` also turns this off; without it `type: number` lets through
  // NaN and ±Infinity (JSON.parse('1e400') is Infinity), which no column holds.
  strictNumbers: true,
  // A body that is one of several shapes names its tag (`discriminator`, as in
  // OpenAPI): the chosen shape alone is checked, so errors speak of it.
  discriminator: true,
};

/**
 * UUIDs are case-insensitive (RFC 9562) and Vitro stores and answers them in lower
 * case: a `format: uuid` value that passed is lowercased in place, in paths, queries
 * and bodies alike (at any depth, in arrays too), so every lookup, every stored id,
 * every echo, list filter, cursor and Idempotency-Key fingerprint sees one spelling.
 * The keyword is added, by `withLowercaseUuids`, to a copy of each request schema
 * beside `format: uuid`; Ajv checks it after the format, so only a valid UUID
 * is rewritten. The import file is read the same way (`addLowercaseUuids`).
 */
const LOWERCASE_UUID = 'x-vitro-lowercase-uuid';

const lowercaseUuid: SchemaValidateFunction = (_enabled, data: unknown, _schema, where) => {
  if (typeof data === 'string' && where?.parentData !== undefined && /[A-F]/.test(data)) {
    (where.parentData as Record<string | number, unknown>)[where.parentDataProperty] =
      data.toLowerCase();
  }
  return true;
};

export function addLowercaseUuids(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: LOWERCASE_UUID,
    type: 'string',
    schemaType: 'boolean',
    modifying: true,
    errors: false,
    validate: lowercaseUuid,
  });
}

const copies = new WeakMap<object, unknown>();

function copyMarkingUuids(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(copyMarkingUuids);
  if (typeof schema !== 'object' || schema === null) return schema;
  const known = copies.get(schema);
  if (known !== undefined) return known;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = copyMarkingUuids(value);
  if (copy.format === 'uuid') copy[LOWERCASE_UUID] = true;
  copies.set(schema, copy);
  return copy;
}

/**
 * A copy of `schema` with the lowercasing keyword beside every `format: uuid`; the
 * same copy each time (Ajv compiles a schema object once). The schema itself is left
 * as it is: it is also the OpenAPI document's.
 */
export const withLowercaseUuids = <T extends object>(schema: T): T => copyMarkingUuids(schema) as T;

function makeAjv(coerceTypes: boolean, removeAdditional = false): Ajv {
  const ajv = new Ajv({ ...shared, coerceTypes, removeAdditional });
  addFormats(ajv, ['uri', 'email']);
  addVitroFormats(ajv);
  addLowercaseUuids(ajv);
  return ajv;
}

const NUL_PROBLEM = 'must not contain a NUL character';

/**
 * How deep arrays and objects may nest in any part of a request. Free-form JSON
 * (device metadata, event payloads) is bounded here: deeper documents would exhaust
 * the call stack of what reads them recursively (JSON.stringify, the Idempotency-Key
 * fingerprint).
 */
export const MAX_JSON_DEPTH = 64;

const pointer = (path: string, key: string) =>
  `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;

const problem = (keyword: string, instancePath: string, message: string): ErrorObject => ({
  keyword,
  instancePath,
  schemaPath: '#',
  params: {},
  message,
});

/**
 * What a schema cannot say about a valid value, refused the same way on every
 * database and for every part of a request:
 * - a NUL character in any string or field name (PostgreSQL text cannot hold it,
 *   SQLite can: both must accept the same inputs);
 * - a number that is not finite (text such as `Infinity` or `1e400` coerced from
 *   a query; Ajv skips the bounds of non-finite numbers);
 * - arrays and objects nested more than `MAX_JSON_DEPTH` levels.
 * Walks the value with a stack: a schema admitting any JSON must not let a deep
 * document exhaust the call stack.
 */
function unstorable(value: unknown): ErrorObject | null {
  // Each entry: a value, its container's path and its key there. A path is built
  // only for containers and for the value found wrong, never for every leaf: this
  // runs on every part of every request.
  // Each entry also carries how many containers hold it (the request part itself: 0).
  const stack: [unknown, string, string | number | null, number][] = [[value, '', null, 0]];
  // Named by its top-level field: the full path would be a 64-step list of indexes.
  const tooDeep = (path: string) =>
    problem(
      'depth',
      path.split('/').slice(0, 2).join('/'),
      `must not nest arrays and objects more than ${MAX_JSON_DEPTH} deep`,
    );
  while (stack.length > 0) {
    const [item, parent, key, depth] = stack.pop()!;
    const at = () => (key === null ? parent : pointer(parent, String(key)));
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return problem('nul', at(), NUL_PROBLEM);
    } else if (typeof item === 'number') {
      if (!Number.isFinite(item)) return problem('finite', at(), 'must be a finite number');
    } else if (Array.isArray(item)) {
      const path = at();
      if (depth > MAX_JSON_DEPTH) return tooDeep(path);
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], path, i, depth + 1]);
    } else if (typeof item === 'object' && item !== null) {
      const keys = Object.keys(item);
      for (const name of keys) {
        if (name.includes('\u0000')) {
          return problem('nul', at(), 'must not have a field name containing a NUL character');
        }
      }
      const path = at();
      if (depth > MAX_JSON_DEPTH) return tooDeep(path);
      const record = item as Record<string, unknown>;
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push([record[keys[i]!], path, keys[i]!, depth + 1]);
      }
    }
  }
  return null;
}

/** How query strings spell a boolean, as clients in several languages write it. */
const QUERY_BOOLEANS: Readonly<Record<string, boolean>> = {
  true: true,
  false: false,
  '1': true,
  '0': false,
};

/** The top-level properties of a query schema that are booleans. */
function booleanProperties(schema: object): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties;
  return Object.entries(properties ?? {})
    .filter(([, property]) => property.type === 'boolean')
    .map(([name]) => name);
}

/**
 * `True`, `FALSE`, `1`, `0` as well as `true` and `false` (Python's requests sends
 * `True`): read as the boolean they spell before the schema checks the value.
 */
function readQueryBooleans(data: unknown, names: readonly string[]): void {
  if (names.length === 0 || typeof data !== 'object' || data === null) return;
  const query = data as Record<string, unknown>;
  for (const name of names) {
    const value = query[name];
    if (typeof value !== 'string') continue;
    const spelled = QUERY_BOOLEANS[value.toLowerCase()];
    if (spelled !== undefined) query[name] = spelled;
  }
}

/**
 * Bodies are validated as sent (no type coercion); path, query and headers are
 * text on the wire and are coerced to the declared types. A query's parameters
 * the operation does not know (a cache-buster such as `_=1732…`) are dropped, not
 * refused; an unknown body field is refused. Every part is first checked for what
 * no schema keyword covers (`unstorable`), the same way.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const bodyAjv = makeAjv(false);
  const textAjv = makeAjv(true);
  const queryAjv = makeAjv(true, true);
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodyAjv : httpPart === 'querystring' ? queryAjv : textAjv;
    const validate = ajv.compile(withLowercaseUuids(schema as object));
    const booleans = httpPart === 'querystring' ? booleanProperties(schema as object) : [];
    const checked = (data: unknown): boolean => {
      readQueryBooleans(data, booleans);
      // What no database can store is named first, whatever else is wrong with the
      // value: a NUL in a path id is a 422 for the NUL, not the 404 of a malformed id.
      const found = unstorable(data);
      if (found !== null) {
        checked.errors = [found];
        return false;
      }
      if (!validate(data)) {
        checked.errors = validate.errors;
        return false;
      }
      // Text coerced to a number can come out non-finite (`Infinity`, `1e400`).
      const coerced = httpPart === 'body' ? null : unstorable(data);
      checked.errors = coerced === null ? null : [coerced];
      return coerced === null;
    };
    checked.errors = null as ErrorObject[] | null | undefined;
    return checked;
  };
}

const PART_LABEL: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

function fieldPath(error: ErrorObject): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') {
    segments.push(String((error.params as { missingProperty: string }).missingProperty));
  }
  return segments.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return `unknown field "${String(params.additionalProperty)}"`;
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'type':
      return `must be ${String(params.type).replace(',', ' or ')}`;
    case 'format':
      return formatProblem(String(params.format));
    case 'minLength':
      return params.limit === 1
        ? 'must not be empty'
        : `must be at least ${String(params.limit)} characters`;
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters`;
    case 'minItems':
      return `must have at least ${String(params.limit)} items`;
    case 'maxItems':
      return `must have at most ${String(params.limit)} items`;
    case 'minimum':
      return `must be at least ${String(params.limit)}`;
    case 'maximum':
      return `must be at most ${String(params.limit)}`;
    case 'pattern':
      return 'has an invalid format';
    default:
      return error.message ?? 'is invalid';
  }
}

const depthOf = (error: ErrorObject) => error.instancePath.split('/').length;

/**
 * The problem to name. When a value matched none of a union's shapes (`oneOf` or
 * `anyOf`: one reading or a batch of readings), each shape reported its first
 * problem: the one found deepest in the value comes from the shape the value was
 * meant to have (`readings[3].unit`, not "device_id is required"); on a tie, the
 * first shape's.
 */
function firstProblem(errors: readonly ErrorObject[]): ErrorObject | undefined {
  const last = errors[errors.length - 1];
  if (errors.length < 2 || (last?.keyword !== 'oneOf' && last?.keyword !== 'anyOf')) {
    return errors[0];
  }
  const tried = errors.slice(0, -1);
  return tried.reduce((best, error) => (depthOf(error) > depthOf(best) ? error : best));
}

/**
 * One line naming the first problem, e.g. `species: must not be empty`.
 * With `hideField`, the field is not named (the measurement endpoint's rule).
 */
export function describeValidationError(
  errors: readonly ErrorObject[],
  part: string,
  hideField: boolean,
): string {
  const error = firstProblem(errors);
  if (error === undefined) return 'Request failed validation';
  const path = fieldPath(error);
  if (part === 'headers' && path === 'idempotency-key') {
    return 'Idempotency-Key: must be 8 to 255 characters of A-Z, a-z, 0-9 and . _ : ~ -';
  }
  const problem = describe(error);
  if (error.keyword === 'additionalProperties') {
    if (hideField) return 'Request has an unknown field';
    const where = path === '' ? '' : ` in ${path}`;
    return part === 'querystring'
      ? `unknown query parameter "${String((error.params as Record<string, unknown>).additionalProperty)}"`
      : `${problem}${where}`;
  }
  if (path === '') {
    if (part === 'body')
      return `Request body ${problem === 'must be object' ? 'must be a JSON object' : problem}`;
    return `${PART_LABEL[part] ?? part} ${problem}`;
  }
  if (hideField) return `A value ${problem}`;
  return `${path}: ${problem}`;
}

const commandAjv = makeAjv(false);
const commandValidators = new WeakMap<object, ReturnType<Ajv['compile']>>();

/**
 * Checks a value built outside a request (a CLI command's options) against an
 * operation's body schema, as the API would: the same problems, the same 422 text.
 */
export function checkBody<S extends TSchema>(schema: S, value: unknown): Static<S> {
  let validate = commandValidators.get(schema);
  if (validate === undefined) {
    validate = commandAjv.compile(schema);
    commandValidators.set(schema, validate);
  }
  const found = unstorable(value);
  if (found !== null) throw errors.validation(describeValidationError([found], 'body', false));
  if (!validate(value)) {
    throw errors.validation(describeValidationError(validate.errors ?? [], 'body', false));
  }
  return value as Static<S>;
}

/** `[later, earlier]` indexes of the first repeated key (undefined keys never repeat). */
export function firstDuplicate<T>(
  items: readonly T[],
  keyOf: (item: T) => string | undefined,
): [number, number] | null {
  const seen = new Map<string, number>();
  for (const [index, item] of items.entries()) {
    const key = keyOf(item);
    if (key === undefined) continue;
    const earlier = seen.get(key);
    if (earlier !== undefined) return [index, earlier];
    seen.set(key, index);
  }
  return null;
}

/** 422 naming the first item whose key repeats an earlier one: `path[3].key: duplicates path[1].key`. */
export function refuseDuplicate<T>(
  items: readonly T[],
  path: (index: number) => string,
  keyOf: (item: T) => string | undefined,
): void {
  const duplicate = firstDuplicate(items, keyOf);
  if (duplicate !== null) {
    throw errors.validation(`${path(duplicate[0])}: duplicates ${path(duplicate[1])}`);
  }
}
