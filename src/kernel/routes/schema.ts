import Type, { type TSchema } from 'typebox';
import { minimumRoleForScope, type PlanRequirement } from '../access.js';
import type { AccessRule, Credentials } from '../authorize.js';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../idempotency.js';
import { pagingParameters, type PageSettings } from '../paging.js';
import { PageMeta, successEnvelope } from '../schemas.js';
import { formatParameter } from './csv.js';
import type { OperationSpec, RawBody } from './spec.js';

/**
 * One operation as the kernel registers it, whatever its kind: what the schema,
 * the hooks and the commit step read.
 */
export interface Operation {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly spec: OperationSpec<TSchema, TSchema>;
  readonly rule: AccessRule;
  readonly status: 200 | 201;
  readonly body: TSchema | null;
  /** The body may be left out (treated as `{}`). */
  readonly bodyOptional: boolean;
  /** The body is read as JSON whatever its Content-Type (device endpoints): never a 415. */
  readonly bodyOfAnyType: boolean;
  /** The body is a file of these media types (bytes, not JSON). */
  readonly rawBody: RawBody | null;
  readonly data: TSchema;
  readonly meta: TSchema | null;
  readonly metaRequired: boolean;
  readonly paging: PageSettings | null;
  /** A read that answers `Accept: text/csv` with rows of its data. */
  readonly readCsv: boolean;
  /** Null for reads; `ignore` for writes whose response is never stored. */
  readonly idempotency: 'store' | 'ignore' | null;
}

const BODY_CODES: ErrorCode[] = ['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];

/** Every failure has the one error envelope, a shared schema (`Error` in the document). */
const ERROR_REF = { $ref: 'Error#' };

/** The failure responses of an operation, grouped by status, each naming its codes. */
function errorResponses(op: Operation): Record<string, unknown> {
  const { spec } = op;
  const isWrite = op.method !== 'GET';
  const codes = new Set<ErrorCode>(['UNAUTHORIZED', 'PAID_PLAN_REQUIRED', 'RATE_LIMIT_EXCEEDED']);
  codes.add(spec.failureCode);
  if (spec.scope !== null || op.rule.role !== null) codes.add('FORBIDDEN');
  // A write under a console session from another origin (a cross-site form).
  if (isWrite && op.rule.credentials !== 'sign-in-link') codes.add('FORBIDDEN');
  if (op.rule.credentials === 'key' || op.rule.credentials === 'session') {
    codes.add('DEVICE_TOKEN_NOT_ACCEPTED');
  }
  if (op.rule.credentials === 'session') codes.add('SESSION_REQUIRED');
  if (spec.feature) codes.add('FEATURE_NOT_INCLUDED');
  // A malformed path id answers 404 like an unknown one; queries and bodies are validated (422).
  if (spec.querystring || op.body || op.paging || isWrite) codes.add('VALIDATION_ERROR');
  if (op.paging) codes.add('INVALID_CURSOR');
  if (spec.params) codes.add('NOT_FOUND');
  if (op.idempotency === 'store') codes.add('IDEMPOTENCY_IN_FLIGHT');
  if (op.body || op.rawBody) {
    for (const code of BODY_CODES) {
      if (code !== 'UNSUPPORTED_MEDIA_TYPE' || !op.bodyOfAnyType) codes.add(code);
    }
  }
  for (const code of spec.errors ?? []) codes.add(code);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  if (op.body) byStatus.set(400, ['VALIDATION_ERROR']);
  const responses: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const headers: Record<string, unknown> = { 'X-Request-Id': { type: 'string' } };
    if (status === 429 || list.includes('IDEMPOTENCY_IN_FLIGHT')) {
      headers['Retry-After'] = { type: 'integer', minimum: 0 };
    }
    responses[status] = {
      description: `Failure; code: ${list.join(', ')}`,
      headers,
      content: { 'application/json': { schema: ERROR_REF } },
    };
  }
  return responses;
}

function queryProperties(schema: unknown): Record<string, TSchema> {
  if (typeof schema === 'object' && schema !== null && 'properties' in schema) {
    return schema.properties as Record<string, TSchema>;
  }
  return {};
}

function idempotencyHeader(mode: 'store' | 'ignore') {
  return Type.Object({
    'idempotency-key': Type.Optional(
      Type.String({
        minLength: 8,
        maxLength: 255,
        pattern: IDEMPOTENCY_KEY_PATTERN,
        description:
          mode === 'store'
            ? 'Unique per logical write; a repeat within 24 hours replays the first response'
            : 'Accepted, but this response carries a secret and is never stored or replayed',
      }),
    ),
  });
}

const PLANS: Record<PlanRequirement, string> = {
  full: 'Teams or Enterprise (the full API)',
  devices: 'any paid plan (Hobby and Pro Lab reach the device operations)',
  any: 'any plan',
};

const CREDENTIALS: Record<Credentials, string> = {
  key: 'a workspace API key, or a console session',
  'key+device': 'a workspace API key, a console session, or a device token for its own device',
  session: 'a console session only (API keys get 403 SESSION_REQUIRED)',
  'sign-in-link': "a sign-in link's secret as the bearer token",
};

/** The security requirements of an operation: one alternative per credential it takes. */
const SECURITY: Record<Credentials, Record<string, string[]>[]> = {
  key: [{ bearerAuth: [] }, { sessionCookie: [] }],
  'key+device': [{ bearerAuth: [] }, { deviceToken: [] }, { sessionCookie: [] }],
  session: [{ sessionCookie: [] }],
  'sign-in-link': [{ signInLink: [] }],
};

/** Who may call an operation, in words: the docs page shows it under the summary. */
function accessText(op: Operation): string {
  const { rule } = op;
  const role = rule.role ?? (rule.scope === null ? null : minimumRoleForScope(rule.scope));
  const lines = [
    `**Scope:** ${rule.scope === null ? 'none' : `\`${rule.scope}\``}`,
    `**Minimum role of the key's owner:** ${role === null || role === 'guest' ? 'any member' : role}`,
    `**Plan:** ${PLANS[rule.plan]}${rule.feature ? `, with the \`${rule.feature}\` feature` : ''}`,
    `**Credentials:** ${CREDENTIALS[rule.credentials]}`,
  ];
  if (op.readCsv) {
    lines.push(
      '**CSV:** with `Accept: text/csv` (or `?format=csv`), the answer as rows (header: the row ' +
        "fields), cells as the lists' exports write them (text a spreadsheet would run as a " +
        "formula prefixed with `'`)",
    );
  }
  if (op.paging?.csv) {
    lines.push(
      '**CSV:** with `Accept: text/csv` (or `?format=csv`), every row matching the filters (not ' +
        'one page; `limit`, ' +
        '`offset` and `cursor` play no part), streamed: one header row of the item fields, nested ' +
        "values as JSON text, text a spreadsheet would run as a formula prefixed with `'`, also " +
        'after a line break inside a field; a field holding a line break is always quoted.  \n' +
        '**Spreadsheet CSV:** with `Accept: text/csv; profile=spreadsheet` (or ' +
        '`?format=spreadsheet`), the same rows for ' +
        "people: names instead of ids, times in the lab's time zone, a column per custom field, " +
        'headers in words',
    );
  }
  return lines.join('  \n');
}

/** The Fastify schema of an operation: validation of its input and its OpenAPI description. */
export function routeSchema(op: Operation): Record<string, unknown> {
  const { spec, paging } = op;
  const csv = paging?.csv === true || op.readCsv;
  const querystring =
    paging !== null || spec.querystring || csv
      ? Type.Object(
          {
            ...queryProperties(spec.querystring),
            ...(paging ? pagingParameters(paging) : {}),
            ...(csv ? formatParameter() : {}),
          },
          { additionalProperties: false },
        )
      : undefined;
  const successHeaders: Record<string, unknown> = { 'X-Request-Id': { type: 'string' } };
  if (op.idempotency === 'store') successHeaders['Idempotent-Replay'] = { type: 'boolean' };
  // A list's meta: its cursor, and what else the list declares.
  const meta =
    paging === null
      ? op.meta
      : op.meta === null
        ? PageMeta
        : Type.Object({ ...PageMeta.properties, ...queryProperties(op.meta) });
  return {
    operationId: spec.operationId,
    tags: spec.tags,
    summary: spec.summary,
    description: spec.description ? `${spec.description}\n\n${accessText(op)}` : accessText(op),
    security: SECURITY[op.rule.credentials],
    'x-scope': spec.scope,
    'x-plan': op.rule.plan,
    ...(paging?.csv || op.readCsv ? { 'x-csv': true } : {}),
    ...(spec.params ? { params: spec.params } : {}),
    ...(querystring ? { querystring } : {}),
    ...(op.body ? { body: op.body } : {}),
    // The document's requestBody then says `required: false` (see finishDocument).
    ...(op.body && op.bodyOptional ? { 'x-body-optional': true } : {}),
    // Device firmware sends JSON with no Content-Type, or another one: read it anyway.
    ...(op.bodyOfAnyType ? { 'x-body-any-type': true } : {}),
    // The document's requestBody lists its media types (see finishDocument).
    ...(op.rawBody
      ? {
          'x-raw-body': {
            mediaTypes: op.rawBody.mediaTypes,
            description: op.rawBody.description,
          },
        }
      : {}),
    ...(op.idempotency !== null ? { headers: idempotencyHeader(op.idempotency) } : {}),
    response: {
      [op.status]: {
        ...successEnvelope(op.data, meta, paging !== null || op.metaRequired),
        description: 'Success',
        headers: successHeaders,
      },
      ...errorResponses(op),
    },
  };
}
