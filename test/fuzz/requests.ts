import fc from 'fast-check';
import { nestedArrays } from '../devices/helpers.js';
import type { OperationSpec, ParameterSpec, Schema } from './operations.js';

/**
 * Requests for the operations of the OpenAPI document: valid ones generated from
 * their schemas (ids taken from the seeded workspace), and mutated ones. Values
 * that JSON.stringify cannot write (1e400) or that would bloat a reported
 * counterexample (huge strings) travel as markers and are expanded when sent.
 */

/** What the generators draw on: ids of records by kind, known names, credentials. */
export interface Fixtures {
  /** Ids of the records of a kind (`plant`, `explant`, `room`, …); grows during the run. */
  readonly ids: Map<string, string[]>;
  /** Values known to be meaningful for a field or map key of this name (stage keys, …). */
  readonly hints: Readonly<Record<string, readonly unknown[]>>;
  /** The record a record belongs to (a device token's device); grows during the run. */
  readonly parentOf: Map<string, string>;
  /** Keys for maps (custom fields defined in the lab). */
  readonly mapKeys: readonly string[];
  /** Body fields of which a request sends exactly one (`plant_id` or `explant_id`). */
  readonly exclusive: readonly (readonly string[])[];
  /** The pool an id names when a sibling field gives its type, where not the type itself (`sop_log` -> `sop-run`). */
  readonly kindOfType: Readonly<Record<string, string>>;
  /** Authorization header values: the owner's key first, then other credentials. */
  readonly credentials: {
    readonly owner: string;
    readonly others: readonly string[];
    /** The console's origin, which a session's writes carry. */
    readonly consoleOrigin: string;
  };
}

/**
 * Credentials filled in when a request is sent: the owner's current console
 * session cookie (a fuzzed sign-out ends it; the next request signs in again), and
 * a freshly minted sign-in link (each works once).
 */
export const SESSION_COOKIE = '\u0001session\u0001';
export const SIGN_IN_LINK = '\u0001sign-in-link\u0001';

export interface FuzzRequest {
  readonly operationId: string;
  readonly mutation: string;
  readonly transport: 'inject' | 'socket';
  readonly method: string;
  /** Path and query as sent (percent-encoded text, markers not yet expanded). */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Body text (markers not yet expanded); undefined for none. */
  readonly body: string | undefined;
  /** Socket only: extra raw header lines, the HTTP version, the line ending, and whether to send Host. */
  readonly raw: {
    readonly lines: readonly string[];
    readonly version: string;
    readonly eol: string;
    readonly host: boolean;
  };
}

const RAW = '\u0001raw:';
const HUGE = '\u0001huge:';
const DEEP = '\u0001deep:';
const END = '\u0001';

/** A number written into JSON text as is (`1e400`, which JSON.stringify cannot write). */
export const rawJson = (text: string) => `${RAW}${text}${END}`;
/** A string of `length` characters, expanded only when the request is sent. */
export const huge = (length: number) => `${HUGE}${length}${END}`;
/** `depth` arrays one inside the other (a JSON value), expanded only when the request is sent. */
export const deep = (depth: number) => rawJson(`${DEEP}${depth}${END}`);

/** JSON text of a value holding markers. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0001raw:(.*?)\\u0001"/g, (_m, text: string) => text);
}

/** Expands huge-string markers, written as JSON (escaped) or as plain text, and deep-value ones. */
export function expand(text: string): string {
  return (
    text
      .replace(/\\u0001deep:(\d+)\\u0001/g, (_m, n: string) => nestedArrays(Number(n)))
      .replace(/\\u0001huge:(\d+)\\u0001/g, (_m, n: string) => 'x'.repeat(Number(n)))
      // eslint-disable-next-line no-control-regex -- the markers are control characters on purpose
      .replace(/\u0001huge:(\d+)\u0001/g, (_m, n: string) => 'x'.repeat(Number(n)))
  );
}

const pick = <T>(list: readonly T[]) => fc.nat().map((i) => list[i % list.length]!);

/** The kind of record a collection holds: `sop-runs` -> sop-run, `assemblies` -> assembly, `media-batches` -> media-batch. */
export const kindOfCollection = (segment: string) =>
  segment.replace(/ies$/, 'y').replace(/ches$/, 'ch').replace(/s$/, '');

/**
 * The kind of record a uuid field names: `plant_id` -> plant; a path's `{id}` names
 * the collection before it (`/sop-runs/{id}/complete` -> sop-run).
 */
export function kindOf(name: string, path: string): string {
  if (name === 'id') {
    const segments = path.split('/');
    return kindOfCollection(segments[segments.indexOf('{id}') - 1] ?? '');
  }
  return name
    .replace(/(_id|Id)$/, '')
    .replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
    .toLowerCase();
}

function idArbitrary(fixtures: Fixtures, kind: string): fc.Arbitrary<string> {
  const pool = () => fixtures.ids.get(kind) ?? [...fixtures.ids.values()].flat();
  return fc.oneof(
    { weight: 8, arbitrary: fc.nat().map((i) => pool()[i % Math.max(1, pool().length)] ?? '') },
    { weight: 1, arbitrary: fc.uuid() },
  );
}

/** `^[class]+$` patterns (Idempotency-Key): the characters the class allows. */
function charClassOf(pattern: string): string[] | null {
  const match = /^\^\[([^\]]+)\]\+\$$/.exec(pattern);
  if (match === null) return null;
  const chars: string[] = [];
  const body = match[1]!;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '\\') {
      chars.push(body[++i]!);
    } else if (body[i + 1] === '-' && i + 2 < body.length) {
      for (let code = c.charCodeAt(0); code <= body.charCodeAt(i + 2); code++) {
        chars.push(String.fromCharCode(code));
      }
      i += 2;
    } else {
      chars.push(c);
    }
  }
  return chars;
}

interface Context {
  readonly fixtures: Fixtures;
  readonly path: string;
}

function stringArbitrary(schema: Schema, name: string, ctx: Context): fc.Arbitrary<string> {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : 60;
  const fits = (s: string) => s.length >= minLength && s.length <= maxLength;
  switch (schema.format) {
    case 'uuid':
      return idArbitrary(ctx.fixtures, kindOf(name, ctx.path));
    case 'date-time':
      return fc
        .date({ min: new Date('1990-01-01'), max: new Date('2090-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('1990-01-01'), max: new Date('2090-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'date-or-date-time':
      return fc.oneof(
        stringArbitrary({ ...schema, format: 'date' }, name, ctx),
        stringArbitrary({ ...schema, format: 'date-time' }, name, ctx),
      );
    case 'email':
      return fc.emailAddress().filter(fits);
    case 'uri':
      return fc.webUrl().filter(fits);
    default:
      break;
  }
  const hints = (ctx.fixtures.hints[name] ?? []).filter(
    (h): h is string =>
      typeof h === 'string' &&
      fits(h) &&
      (typeof schema.pattern !== 'string' || new RegExp(schema.pattern).test(h)),
  );
  let generic: fc.Arbitrary<string>;
  const choices: fc.WeightedArbitrary<string>[] = [];
  if (typeof schema.pattern === 'string') {
    const chars = charClassOf(schema.pattern);
    generic =
      chars !== null
        ? fc.string({
            unit: fc.constantFrom(...chars),
            minLength: Math.max(1, minLength),
            maxLength: Math.min(maxLength, 64),
          })
        : fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  } else {
    generic = fc.string({ minLength, maxLength: Math.max(minLength, Math.min(maxLength, 40)) });
    if (maxLength <= 10_000) {
      choices.push({ weight: 1, arbitrary: fc.constant('é'.repeat(maxLength)) });
    }
  }
  choices.push({ weight: 1, arbitrary: generic });
  // A known meaningful value (a stage key, a step id) mostly, so valid requests get through.
  if (hints.length > 0) choices.push({ weight: 3, arbitrary: fc.constantFrom(...hints) });
  return fc.oneof(...choices);
}

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -1e9;
  const max = typeof schema.maximum === 'number' ? schema.maximum : 1e9;
  if (integer) {
    const lo = Math.max(Math.ceil(min), Number.MIN_SAFE_INTEGER);
    const hi = Math.min(Math.floor(max), Number.MAX_SAFE_INTEGER);
    return fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: Math.max(lo, -1000), max: Math.min(hi, 1000) }) },
      { weight: 1, arbitrary: fc.integer({ min: lo, max: hi }) },
      { weight: 1, arbitrary: fc.constantFrom(lo, hi) },
    );
  }
  return fc.oneof(
    fc.double({ min: Math.max(min, -1e6), max: Math.min(max, 1e6), noNaN: true }),
    fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(min, max),
  );
}

/** A value valid for `schema` (as far as a schema can say). */
export function valueFor(schema: Schema, name: string, ctx: Context): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const list = schema[keyword];
    if (Array.isArray(list)) {
      return fc.oneof(...(list as Schema[]).map((s) => valueFor(s, name, ctx)));
    }
  }
  const types = [schema.type].flat().filter((t): t is string => typeof t === 'string');
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  if (types.length > 1) {
    return fc.oneof(...types.map((type) => valueFor({ ...schema, type }, name, ctx)));
  }
  switch (types[0] ?? '') {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'string':
      return stringArbitrary(schema, name, ctx);
    case 'array': {
      const items = (schema.items as Schema | undefined) ?? {};
      const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : 4;
      const lengths = { minLength: minItems, maxLength: Math.max(minItems, Math.min(maxItems, 4)) };
      return schema.uniqueItems === true
        ? fc.uniqueArray(valueFor(items, name, ctx), {
            ...lengths,
            selector: (v) => JSON.stringify(v),
          })
        : fc.array(valueFor(items, name, ctx), lengths);
    }
    case 'object':
      return objectFor(schema, ctx);
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function objectFor(schema: Schema, ctx: Context): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, property] of Object.entries(properties)) {
    model[key] = valueFor(property, key, ctx);
  }
  const fixed = fc
    .tuple(
      fc.record(model, { requiredKeys: required.filter((k) => k in model) }),
      fc.nat(),
      fc.nat(),
    )
    .map(([record, keep, draw]) => related(record, keep, draw, ctx.fixtures));
  const extra = schema.additionalProperties;
  if (typeof extra !== 'object' || extra === null) return fixed;
  const anyEntries = fc.dictionary(fc.string(), valueFor(extra as Schema, '', ctx), { maxKeys: 3 });
  // Known keys (custom fields defined in the lab) with values that fit them, mostly.
  const known = ctx.fixtures.mapKeys;
  const knownEntries = fc.subarray([...known], { maxLength: 3 }).chain((keys) =>
    fc
      .tuple(
        ...keys.map((key) => {
          const hints = ctx.fixtures.hints[key] ?? [];
          return hints.length === 0
            ? valueFor(extra as Schema, key, ctx)
            : fc.oneof(
                { weight: 4, arbitrary: fc.constantFrom(...hints) },
                valueFor(extra as Schema, key, ctx),
              );
        }),
      )
      .map((values) => Object.fromEntries(keys.map((key, i) => [key, values[i]]))),
  );
  const entries =
    known.length === 0 ? anyEntries : fc.oneof({ weight: 3, arbitrary: knownEntries }, anyEntries);
  return fc.tuple(fixed, entries).map(([a, b]) => ({ ...b, ...a }));
}

/**
 * What a schema cannot say: of exclusive fields only one is kept, and an id whose type
 * a sibling names (`entity_type` + `entity_id`, `target` + `target_id`) is mostly one
 * of that kind. `keep` and `draw` choose.
 */
function related(
  record: Record<string, unknown>,
  keep: number,
  draw: number,
  fixtures: Fixtures,
): Record<string, unknown> {
  const out = { ...record };
  for (const group of fixtures.exclusive) {
    const present = group.filter((key) => out[key] !== undefined);
    if (present.length < 2) continue;
    const kept = present[keep % present.length];
    for (const key of present) if (key !== kept) delete out[key];
  }
  for (const key of Object.keys(out).filter((k) => k.endsWith('_id') && out[k] !== undefined)) {
    const base = key.slice(0, -3);
    const type = out[`${base}_type`] ?? out[base];
    if (typeof type !== 'string' || draw % 8 === 7) continue;
    const pool = fixtures.ids.get(fixtures.kindOfType[type] ?? type.replace(/_/g, '-')) ?? [];
    if (pool.length > 0) out[key] = pool[Math.floor(draw / 8) % pool.length];
  }
  return out;
}

/**
 * A nested path names a record and its parent (`/devices/{deviceId}/tokens/{tokenId}`):
 * mostly the parent the child belongs to.
 */
function withParents(
  params: Record<string, unknown>,
  draw: number,
  path: string,
  fixtures: Fixtures,
): Record<string, unknown> {
  if (draw % 8 === 7) return params;
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const out = { ...params };
  for (let i = names.length - 1; i > 0; i--) {
    const parent = fixtures.parentOf.get(String(out[names[i]!]));
    if (parent !== undefined) out[names[i - 1]!] = parent;
  }
  return out;
}

/** Values that break types, bounds and encodings, for body fields. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    rawJson('1e400'),
    rawJson('-1e400'),
    rawJson('1E309'),
    rawJson('123456789012345678901234567890'),
    rawJson('-0'),
    rawJson('0.1e-400'),
    deep(65),
    deep(5_000),
    2 ** 53,
    2 ** 53 + 2,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 31 - 1,
    -1,
    0,
    1.5,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
  ),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '%00',
    '\ud800',
    '\u202e\u0301',
    '1e400',
    'Infinity',
    'NaN',
    'null',
    'not-a-uuid',
    '00000000-0000-0000-0000-000000000000',
    '2026-02-31',
    '2026-13-01T00:00:00Z',
    '2026-01-01T00:00:00',
    '0000-01-01T00:00:00Z',
    '+275760-09-13T00:00:00.001Z',
    "' OR 1=1 --",
    '😀'.repeat(30),
    huge(10_000),
    huge(200_000),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/** Text that breaks query and path parameters (already URL text: sent as is). */
export const nastyText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    '%00',
    'a%00b',
    '%zz',
    '%',
    '%E0%A4%A',
    '%ED%A0%80',
    '1e400',
    '-1e400',
    'Infinity',
    '-Infinity',
    'NaN',
    '-1',
    '0',
    '1.5',
    '1e20',
    '2147483648',
    '9223372036854775807',
    '99999999999999999999999',
    '0x10',
    'true',
    'null',
    '00000000-0000-0000-0000-000000000000',
    'not-a-uuid',
    '2026-02-31',
    '..',
    '%2e%2e',
    'a%2Fb',
    '%2B01:00',
    '+',
    huge(101),
    huge(3000),
  ),
  fc.string({ unit: 'binary', maxLength: 30 }).map((s) => {
    try {
      return encodeURIComponent(s);
    } catch {
      return '%ED%A0%80';
    }
  }),
);

/** Numbers at and beyond every bound a column or JSON can hold. */
const extremeNumbers: fc.Arbitrary<unknown> = fc.constantFrom(
  rawJson('1e400'),
  rawJson('-1e400'),
  rawJson('1E309'),
  rawJson('123456789012345678901234567890'),
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53,
  -(2 ** 53),
  2 ** 63,
  1e20,
  -1,
  1.5,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
);

const extremeNumberText = fc.constantFrom(
  '1e400',
  '-1e400',
  'Infinity',
  '-Infinity',
  'NaN',
  '1e20',
  '2147483648',
  '-2147483649',
  '4294967296',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '99999999999999999999999',
  '1.5',
  '-1',
  '0x10',
  '1e',
  '',
);

const nastyStrings = (schema: Schema): fc.Arbitrary<unknown> => {
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : 100;
  return fc.oneof(
    fc.constantFrom(
      '\u0000',
      'a\u0000b',
      `${'x'.repeat(Math.min(maxLength, 50))}\u0000`,
      '\ud800',
      '',
    ),
    fc.constant(huge(maxLength + 1)),
    fc.string({ unit: 'binary', maxLength: 20 }).map((s) => `${s}\u0000${s}`),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );
};

const nastyIds = fc.constantFrom(
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  '01a20994-bad1-7159-891f-1eb2385ee77e\u0000',
  '01a20994-bad1-7159-891f-1eb2385ee77',
  '{01a20994-bad1-7159-891f-1eb2385ee77e}',
  '',
);

const nastyDates = fc.constantFrom(
  '2026-02-31',
  '2026-13-01T00:00:00Z',
  '2026-01-01T00:00:00',
  '2026-01-01T24:00:00Z',
  '0000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00.001Z',
  '-000001-01-01T00:00:00Z',
  '2026-01-01T00:00:00+99:00',
  '1e400',
  'now',
);

/** A bad value aimed at what `schema` expects, or any bad value. */
export function nastyFor(schema: Schema | undefined): fc.Arbitrary<unknown> {
  if (schema === undefined) return nastyValue;
  const types = [schema.type].flat();
  const aimed: fc.Arbitrary<unknown>[] = [];
  if (types.includes('integer') || types.includes('number')) aimed.push(extremeNumbers);
  if (types.includes('string')) {
    if (schema.format === 'uuid') aimed.push(nastyIds);
    else if (schema.format === 'date' || schema.format === 'date-time') aimed.push(nastyDates);
    aimed.push(nastyStrings(schema));
  }
  if (types.includes('object') || types.includes('array')) {
    aimed.push(fc.constantFrom([], {}, [null], { '': null }, 'text'));
  }
  if (aimed.length === 0) return nastyValue;
  return fc.oneof(
    { weight: 3, arbitrary: fc.oneof(...aimed) },
    { weight: 1, arbitrary: nastyValue },
  );
}

/** Bad text aimed at a query or path parameter of `schema`. */
export function nastyTextFor(schema: Schema | undefined): fc.Arbitrary<string> {
  const types = [schema?.type].flat();
  if (types.includes('integer') || types.includes('number')) {
    return fc.oneof(
      { weight: 3, arbitrary: extremeNumberText },
      { weight: 1, arbitrary: nastyText },
    );
  }
  return nastyText;
}

const CONTENT_TYPES = [
  'text/plain',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/JSON',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json, text/plain',
  'application/vnd.api+json',
  '',
  ';',
];

const ODD_HEADER_VALUES = [
  '',
  ' ',
  'a\u0000b',
  'é',
  '\u00ff\u00fe',
  huge(10_000),
  'xpk_live_',
  'undefined',
];

/** Raw header lines for the socket transport: what only a real parser sees. */
const RAW_LINES = [
  'X-Odd: a\u0000b',
  'X-Odd: \u00ff\u00fe',
  `X-Big: ${huge(20_000)}`,
  'No-Colon-Here',
  ' X-Folded: continuation',
  'X-Odd: a\rb',
  'Expect: 100-continue',
  'Expect: the-unexpected',
  'Transfer-Encoding: chunked',
  'Transfer-Encoding: gzip',
  'Content-Length: abc',
  'Content-Length: 1, 2',
  'Host: second.example',
  'Upgrade: websocket\r\nConnection: Upgrade',
  'X-Request-Id: client-chosen',
  'Authorization: Bearer \u0000',
  ': empty-name',
  'Bad Name: x',
];

interface Draft {
  pathParams: Record<string, string>;
  query: [string, string][];
  headers: Record<string, string>;
  body: unknown;
  bodyText: string | undefined;
  method: string;
  mutation: string;
  transport: 'inject' | 'socket';
  raw: { lines: string[]; version: string; eol: string; host: boolean };
}

function queryText(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(queryText);
  if (typeof value === 'string') {
    try {
      return [encodeURIComponent(value)];
    } catch {
      return ['%ED%A0%80'];
    }
  }
  return [String(value)];
}

function validDraft(op: OperationSpec, fixtures: Fixtures): fc.Arbitrary<Draft> {
  const ctx: Context = { fixtures, path: op.path };
  const byLocation = (where: ParameterSpec['in']) => op.parameters.filter((p) => p.in === where);
  const optional = <T>(arb: fc.Arbitrary<T>, required: boolean) =>
    required ? arb : fc.option(arb, { nil: undefined, freq: 2 });
  // A cursor is opaque: only one the server handed out is valid, so valid drafts send none.
  const params = (where: ParameterSpec['in']) =>
    fc.record(
      Object.fromEntries(
        byLocation(where)
          // `format` asks for CSV instead of the envelope, as `Accept: text/csv` (never
          // sent here) does; the CSV tests hold those answers. Bad values of it still go.
          .filter((p) => p.name !== 'cursor' && !(where === 'query' && p.name === 'format'))
          .map((p) => [p.name, optional(valueFor(p.schema, p.name, ctx), p.required)]),
      ),
    );
  return fc
    .record({
      path: fc
        .tuple(params('path'), fc.nat())
        .map(([path, draw]) => withParents(path, draw, op.path, fixtures)),
      query: fc
        .tuple(params('query'), fc.nat(), fc.nat())
        .map(([query, keep, draw]) => related(query, keep, draw, fixtures)),
      headers: params('header'),
      body: op.body === null ? fc.constant(undefined) : valueFor(op.body, '', ctx),
    })
    .map(({ path, query, headers, body }) => ({
      ...fileBody(op, query),
      pathParams: Object.fromEntries(
        Object.entries(path).map(([k, v]) => [k, queryText(v)[0] ?? '']),
      ),
      query: Object.entries(query)
        .filter(([, v]) => v !== undefined)
        .flatMap(([k, v]) => queryText(v).map((text): [string, string] => [k, text])),
      headers: {
        ...credentialHeaders(op, fixtures),
        ...(op.body !== null ? { 'content-type': 'application/json' } : {}),
        ...(op.files.includes('text/csv') ? { 'content-type': 'text/csv' } : {}),
        ...Object.fromEntries(
          Object.entries(headers)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [k, String(v)]),
        ),
      },
      body,
      method: op.method,
      mutation: 'none',
      transport: 'inject' as const,
      raw: { lines: [], version: 'HTTP/1.1', eol: '\r\n', host: true },
    }));
}

/** A valid file of each kind an import takes (`kind` of its query); plants by default. */
const SAMPLE_FILES: Readonly<Record<string, string>> = {
  plants: 'Species,Cultivar\r\nFicus lyrata,Fuzz\r\n',
  explants: 'Label,Vessels\r\nFZ-1,2\r\n',
  rooms: 'Name\r\nFuzz room\r\n',
};

/** A file operation's body: a sample CSV of the kind its query names. */
function fileBody(
  op: OperationSpec,
  query: Record<string, unknown>,
): { bodyText: string | undefined } {
  if (!op.files.includes('text/csv')) return { bodyText: undefined };
  return { bodyText: SAMPLE_FILES[String(query.kind)] ?? SAMPLE_FILES.plants };
}

/** The owner's credential of the kind the operation takes. */
function credentialHeaders(op: OperationSpec, fixtures: Fixtures): Record<string, string> {
  switch (op.credentials) {
    case 'key':
      return { authorization: fixtures.credentials.owner };
    case 'sign-in-link':
      return { authorization: `Bearer ${SIGN_IN_LINK}` };
    case 'session':
      return { cookie: SESSION_COOKIE, origin: fixtures.credentials.consoleOrigin };
  }
}

type Mutation = (draft: Draft) => fc.Arbitrary<Draft>;

const withMutation = (draft: Draft, name: string, change: Partial<Draft>): Draft => ({
  ...draft,
  ...change,
  mutation: draft.mutation === 'none' ? name : `${draft.mutation}+${name}`,
});

function mutations(op: OperationSpec, fixtures: Fixtures): [number, Mutation][] {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  const properties = (op.body?.properties ?? {}) as Record<string, Schema>;
  const bodyKeys = (draft: Draft) => [
    ...new Set([
      ...Object.keys(properties),
      ...(isObject(draft.body) ? Object.keys(draft.body) : []),
    ]),
  ];
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryNames = [...new Set([...queryParams.map((p) => p.name), 'limit', 'offset', 'cursor'])];
  const schemaOfQuery = (name: string): Schema | undefined =>
    queryParams.find((p) => p.name === name)?.schema ??
    (name === 'limit' || name === 'offset' ? { type: 'integer' } : undefined);
  const hasBody = op.body !== null;
  const header = (name: string, value: string | null) => (d: Draft) => {
    const headers = { ...d.headers };
    if (value === null) delete headers[name];
    else headers[name] = value;
    return withMutation(d, `header.${name}`, { headers });
  };

  return [
    // A body field gets a value aimed at its type: out of bounds, badly encoded, wrong.
    [
      hasBody ? 12 : 0,
      (d) =>
        pick(bodyKeys(d))
          .chain((key) => nastyFor(properties[key]).map((value): [string, unknown] => [key, value]))
          .map(([key, value]) =>
            withMutation(d, `body.${key}=nasty`, {
              body: { ...(isObject(d.body) ? d.body : {}), [key]: value },
            }),
          ),
    ],
    // A bad value one level down (custom fields, arrays), under a known or an odd key.
    [
      hasBody ? 3 : 0,
      (d) => {
        const nested = isObject(d.body)
          ? Object.entries(d.body).filter(([, v]) => isObject(v) || Array.isArray(v))
          : [];
        if (nested.length === 0) return fc.constant(d);
        const keys = fixtures.mapKeys.length > 0 ? fixtures.mapKeys : ['x'];
        return fc
          .tuple(
            pick(nested),
            fc.oneof(pick(keys), fc.constantFrom('a\u0000', '')),
            // Free-form fields (metadata, payloads) are where only a depth bound holds.
            fc.oneof(
              { weight: 3, arbitrary: nastyValue },
              { weight: 1, arbitrary: fc.constantFrom(deep(65), deep(5_000)) },
            ),
          )
          .map(([[key, inner], innerKey, value]) =>
            withMutation(d, `body.${key}.*=nasty`, {
              body: {
                ...(d.body as object),
                [key]: Array.isArray(inner)
                  ? [...(inner as unknown[]), value]
                  : { ...(inner as Record<string, unknown>), [innerKey]: value },
              },
            }),
          );
      },
    ],
    // An unknown field.
    [
      hasBody ? 2 : 0,
      (d) =>
        fc
          .tuple(
            fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'a\u0000', '')),
            nastyValue,
          )
          .map(([key, value]) =>
            withMutation(d, 'body+unknown', {
              body: { ...(isObject(d.body) ? d.body : {}), [key]: value },
            }),
          ),
    ],
    // A required field left out.
    [
      Array.isArray(op.body?.required) && op.body.required.length > 0 ? 2 : 0,
      (d) =>
        pick(op.body!.required as string[]).map((key) => {
          const body = { ...(isObject(d.body) ? d.body : {}) };
          delete body[key];
          return withMutation(d, `body-${key}`, { body });
        }),
    ],
    // A body that is not an object, not JSON, or too big (sent to any operation).
    [
      hasBody ? 3 : 1,
      (d) =>
        fc
          .constantFrom(
            '[]',
            '"text"',
            '1',
            'null',
            'true',
            '{',
            '{"a":1,}',
            ' ',
            '\u0000',
            '\ufeff{}',
            '{"a":"\\ud800"}',
            '{"species":"a","species":"b","label":"b","label":"c"}',
            `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
            `{"big":"${huge(4_800_000)}"}`,
            `{"n":${'9'.repeat(400)}}`,
          )
          .map((text) =>
            withMutation(d, 'body-text', {
              bodyText: text,
              headers: { ...d.headers, 'content-type': 'application/json' },
            }),
          ),
    ],
    // A query parameter (its own, paging, or unknown) gets bad text aimed at its type, maybe twice.
    [
      queryParams.length > 0 ? 10 : 2,
      (d) =>
        fc
          .oneof(
            { weight: 5, arbitrary: pick(queryNames) },
            fc.constantFrom('unknown', 'a%00', '%zz', ''),
          )
          .chain((name) =>
            fc.tuple(fc.constant(name), nastyTextFor(schemaOfQuery(name)), fc.nat({ max: 3 })),
          )
          .map(([name, text, twice]) =>
            withMutation(d, `query.${name}=nasty`, {
              query: [
                ...(twice === 0 ? d.query : d.query.filter(([k]) => k !== name)),
                [name, text],
              ],
            }),
          ),
    ],
    // A path parameter gets bad text (bad percent-encoding, too long, not an id).
    [
      pathParams.length > 0 ? 6 : 0,
      (d) =>
        fc.tuple(pick(pathParams.map((p) => p.name)), nastyText).map(([name, text]) =>
          withMutation(d, `path.${name}=nasty`, {
            pathParams: { ...d.pathParams, [name]: text },
          }),
        ),
    ],
    // Content-Type, credentials, Idempotency-Key and other headers.
    [
      4,
      (d) =>
        fc
          .oneof(
            pick(CONTENT_TYPES).map((v) => header('content-type', v)),
            fc.constant(header('content-type', null)),
            pick(fixtures.credentials.others).map((v) => header('authorization', v)),
            fc.constant(header('authorization', null)),
            fc
              .constantFrom(
                'fuzz-key-0001',
                'fuzz-key-0002',
                'fuzz-key-0003',
                'short',
                'has space!',
                'ünïcode-key',
                huge(300),
                'a\u0000bcdefgh',
              )
              .map((v) => header('idempotency-key', v)),
            fc
              .tuple(
                fc.constantFrom('x-odd', 'accept', 'x-request-id', 'accept-encoding'),
                pick(ODD_HEADER_VALUES),
              )
              .map(([k, v]) => header(k, v)),
          )
          .map((change) => change(d)),
    ],
    // Another method on the same path.
    [
      1,
      (d) =>
        fc
          .constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS')
          .map((method) => withMutation(d, `method=${method}`, { method })),
    ],
    // Only a real parser sees these: raw header lines, the request line, line endings.
    [
      3,
      (d) =>
        fc
          .record({
            lines: fc.subarray(RAW_LINES, { minLength: 1, maxLength: 2 }),
            version: fc.constantFrom('HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9'),
            eol: fc.constantFrom('\r\n', '\r\n', '\n'),
            host: fc.boolean(),
          })
          .map((raw) => withMutation(d, 'socket.raw', { transport: 'socket', raw })),
    ],
  ];
}

/** A request for `op`: valid (about a third), or valid and then mutated once or twice. */
export function requestFor(op: OperationSpec, fixtures: Fixtures): fc.Arbitrary<FuzzRequest> {
  const mutation = fc.oneof(
    ...mutations(op, fixtures)
      .filter(([weight]) => weight > 0)
      .map(([weight, mutate]) => ({ weight, arbitrary: fc.constant(mutate) })),
  );
  return validDraft(op, fixtures)
    .chain((draft) =>
      fc
        .record({
          mutate: fc.oneof(
            { weight: 1, arbitrary: fc.constant([]) },
            { weight: 2, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 2 }) },
          ),
          // A share of requests goes over a real socket.
          socket: fc.nat({ max: 9 }),
        })
        .chain(({ mutate, socket }) => {
          let arb: fc.Arbitrary<Draft> = fc.constant({
            ...draft,
            transport: socket === 0 ? 'socket' : 'inject',
          });
          for (const change of mutate) arb = arb.chain(change);
          return arb;
        }),
    )
    .map((d) => render(op, d));
}

function render(op: OperationSpec, d: Draft): FuzzRequest {
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => d.pathParams[name] ?? '');
  const query = d.query.map(([k, v]) => `${k}=${v}`).join('&');
  const body = d.bodyText ?? (d.body === undefined ? undefined : jsonText(d.body));
  return {
    operationId: op.operationId,
    mutation: d.mutation,
    transport: d.transport,
    method: d.method,
    url: query === '' ? path : `${path}?${query}`,
    headers: d.headers,
    body,
    raw: d.raw,
  };
}
