import type { IncomingHttpHeaders } from 'node:http';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  preHandlerAsyncHookHandler,
  preValidationAsyncHookHandler,
} from 'fastify';
import Type, { type Static, type TSchema } from 'typebox';
import type { Config } from '../config.js';
import type { Database, Db } from '../db/database.js';
import type { Feature, PlanRequirement, Role, Scope } from './access.js';
import { authorize, type AccessRule } from './authorize.js';
import { ERROR_STATUS, type ErrorCode } from './errors.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IDEMPOTENCY_KEY_PATTERN,
  releaseIdempotencyKey,
  requestFingerprint,
  type Claim,
} from './idempotency.js';
import {
  filterHash,
  readPageQuery,
  type CursorCodec,
  type PageRequest,
  type PageSettings,
} from './paging.js';
import type { Authenticator, Principal } from './principal.js';
import { HandlerContext, type RequestContext, type RouteResult } from './context.js';

export type { RequestContext, RouteResult } from './context.js';
import type { RateLimiter } from './rate-limit.js';
import { ErrorEnvelope, PageMeta, successEnvelope } from './schemas.js';

/** Everything the kernel needs to run a route, built once per app. */
export interface Kernel {
  readonly config: Config;
  readonly database: Database;
  readonly authenticate: Authenticator;
  readonly rateLimiter: RateLimiter;
  readonly cursors: CursorCodec;
}

export interface RouteRequest<P extends TSchema, Q extends TSchema, B extends TSchema> {
  readonly params: Static<P>;
  readonly query: Static<Q>;
  readonly body: Static<B>;
  readonly headers: IncomingHttpHeaders;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RouteSpec<
  P extends TSchema,
  Q extends TSchema,
  B extends TSchema,
  D extends TSchema,
  M extends TSchema,
> {
  method: Method;
  url: string;
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  /** Credentials accepted; default workspace API keys only. */
  credentials?: 'key' | 'key+device';
  /** Scope the key must hold; null for none (GET /me). */
  scope: Scope | null;
  /** Default `full` (Teams/Enterprise). */
  plan?: PlanRequirement;
  feature?: Feature;
  /** Minimum role; default the one the scope needs. */
  role?: Role;
  /** The 500 code of this operation for unexpected failures. */
  failureCode: ErrorCode;
  /** Codes this operation answers besides the shared ones (for the OpenAPI document). */
  errors?: ErrorCode[];
  status?: 200 | 201;
  params?: P;
  /** Filters only: paging parameters are added when `paging` is set. */
  querystring?: Q;
  body?: B;
  /** Accept a missing body (treated as `{}`). */
  bodyOptional?: boolean;
  data: D;
  meta?: M;
  /** Whether `meta` is always present (lists) or sometimes. */
  metaRequired?: boolean;
  paging?: { list: string; defaultLimit?: number; maxLimit?: number };
  /**
   * Idempotency-Key handling for writes: `store` (default) replays the first
   * response; `ignore` accepts the header but never stores (responses carrying
   * a secret).
   */
  idempotency?: 'store' | 'ignore';
  /**
   * `request` (default): a write handler runs wholly in one transaction. `handler`:
   * the handler first does slow work outside any transaction (downloads, blob
   * uploads) and then writes through `ctx.transaction()`; on SQLite a transaction
   * holds the only connection, so nothing slow may run inside one.
   */
  transaction?: 'request' | 'handler';
  /** Points the readings budgets count for this request (POST /sensor-readings). */
  readings?: (body: Static<B>) => number;
  /** Do not name the field in a 422 (measurements). */
  hideFieldInErrors?: boolean;
  /** Refreshes a replayed response (assets re-sign `view_url`). */
  onReplay?: (
    payload: ReplayPayload,
    ctx: RequestContext,
  ) => Promise<ReplayPayload> | ReplayPayload;
  handler: (
    req: RouteRequest<P, Q, B>,
    ctx: RequestContext,
  ) => Promise<RouteResult<Static<D>, Static<M>>>;
}

export interface ReplayPayload {
  ok: true;
  data: unknown;
  meta?: unknown;
}

/** Route settings the error handler and metrics read back from a request. */
export interface RouteConfig {
  operationId: string;
  failureCode: ErrorCode;
  hideFieldInErrors: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    pageRequest: PageRequest | null;
    pageFilters: string;
    idempotencyClaim: Claim | null;
  }
  interface FastifyContextConfig {
    vitro?: RouteConfig;
  }
}

const BODY_LIMIT_CODES: ErrorCode[] = ['PAYLOAD_TOO_LARGE'];

function errorResponses(
  spec: Pick<
    RouteSpec<TSchema, TSchema, TSchema, TSchema, TSchema>,
    | 'failureCode'
    | 'scope'
    | 'credentials'
    | 'feature'
    | 'params'
    | 'querystring'
    | 'body'
    | 'paging'
    | 'idempotency'
    | 'errors'
  >,
  isWrite: boolean,
) {
  const codes = new Set<ErrorCode>(['UNAUTHORIZED', 'PAID_PLAN_REQUIRED', 'RATE_LIMIT_EXCEEDED']);
  codes.add(spec.failureCode);
  if (spec.scope !== null || spec.credentials !== 'key+device') codes.add('FORBIDDEN');
  if (spec.credentials !== 'key+device') codes.add('DEVICE_TOKEN_NOT_ACCEPTED');
  if (spec.feature) codes.add('FEATURE_NOT_INCLUDED');
  if (spec.params || spec.querystring || spec.body || spec.paging || isWrite)
    codes.add('VALIDATION_ERROR');
  if (spec.paging) codes.add('INVALID_CURSOR');
  if (spec.params) codes.add('NOT_FOUND');
  if (isWrite && spec.idempotency !== 'ignore') codes.add('IDEMPOTENCY_IN_FLIGHT');
  if (spec.body) for (const code of BODY_LIMIT_CODES) codes.add(code);
  for (const code of spec.errors ?? []) codes.add(code);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  if (spec.body) byStatus.set(400, ['VALIDATION_ERROR']);
  const responses: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const headers: Record<string, unknown> = { 'X-Request-Id': { type: 'string' } };
    if (status === 429 || list.includes('IDEMPOTENCY_IN_FLIGHT')) {
      headers['Retry-After'] = { type: 'integer', minimum: 0 };
    }
    responses[status] = {
      ...ErrorEnvelope,
      description: `Failure; code: ${list.join(', ')}`,
      headers,
    };
  }
  return responses;
}

function pagingQuery(settings: PageSettings) {
  return {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: `Page size, default ${settings.defaultLimit}; values above ${settings.maxLimit} are capped`,
      }),
    ),
    offset: Type.Optional(
      Type.Integer({ minimum: 0, description: 'Rows to skip; not with cursor' }),
    ),
    cursor: Type.Optional(
      Type.String({ maxLength: 2048, description: 'meta.next_cursor of the previous page' }),
    ),
  };
}

function queryProperties(schema: unknown): Record<string, TSchema> {
  if (typeof schema === 'object' && schema !== null && 'properties' in schema) {
    return schema.properties as Record<string, TSchema>;
  }
  return {};
}

/** Registers one operation: schema, access rule, paging, idempotency and transaction, as data. */
export function defineRoute<
  P extends TSchema = TSchema,
  Q extends TSchema = TSchema,
  B extends TSchema = TSchema,
  D extends TSchema = TSchema,
  M extends TSchema = TSchema,
>(app: FastifyInstance, kernel: Kernel, spec: RouteSpec<P, Q, B, D, M>): void {
  const isWrite = spec.method !== 'GET';
  const status = spec.status ?? (spec.method === 'POST' ? 201 : 200);
  const idempotency = isWrite ? (spec.idempotency ?? 'store') : null;
  const operation = `${spec.method} ${spec.url}`;
  const rule: AccessRule = {
    credentials: spec.credentials ?? 'key',
    scope: spec.scope,
    plan: spec.plan ?? 'full',
    feature: spec.feature ?? null,
    role: spec.role ?? null,
  };
  const paging: PageSettings | null = spec.paging
    ? {
        list: spec.paging.list,
        defaultLimit: spec.paging.defaultLimit ?? 50,
        maxLimit: spec.paging.maxLimit ?? 200,
      }
    : null;

  const querystring =
    paging !== null || spec.querystring
      ? Type.Object(
          { ...queryProperties(spec.querystring), ...(paging ? pagingQuery(paging) : {}) },
          { additionalProperties: false },
        )
      : undefined;

  const headers =
    idempotency !== null
      ? Type.Object({
          'idempotency-key': Type.Optional(
            Type.String({
              minLength: 8,
              maxLength: 255,
              pattern: IDEMPOTENCY_KEY_PATTERN,
              description:
                idempotency === 'store'
                  ? 'Unique per logical write; a repeat within 24 hours replays the first response'
                  : 'Accepted, but this response carries a secret and is never stored or replayed',
            }),
          ),
        })
      : undefined;

  const successHeaders: Record<string, unknown> = { 'X-Request-Id': { type: 'string' } };
  if (idempotency === 'store') successHeaders['Idempotent-Replay'] = { type: 'boolean' };

  const metaSchema = paging !== null ? PageMeta : (spec.meta ?? null);
  const schema: Record<string, unknown> = {
    operationId: spec.operationId,
    tags: spec.tags,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    security:
      rule.credentials === 'key+device'
        ? [{ bearerAuth: [] }, { deviceToken: [] }]
        : [{ bearerAuth: [] }],
    'x-scope': spec.scope,
    'x-plan': rule.plan,
    ...(spec.params ? { params: spec.params } : {}),
    ...(querystring ? { querystring } : {}),
    ...(spec.body ? { body: spec.body } : {}),
    ...(headers ? { headers } : {}),
    response: {
      [status]: {
        ...successEnvelope(spec.data, metaSchema, paging !== null || spec.metaRequired === true),
        description: 'Success',
        headers: successHeaders,
      },
      ...errorResponses(spec, isWrite),
    },
  };

  const accessHook: onRequestAsyncHookHandler = async (req) => {
    const principal = await kernel.authenticate(req.headers.authorization);
    req.principal = principal;
    await kernel.rateLimiter.consumeRequest(principal);
    authorize(principal, rule);
  };

  const preValidation: preValidationAsyncHookHandler[] = [];
  if (spec.bodyOptional) {
    preValidation.push(async (req) => {
      if (req.body === undefined || req.body === null) req.body = {};
    });
  }
  const preHandlers: preHandlerAsyncHookHandler[] = [];
  if (paging !== null) {
    preHandlers.push(async (req) => {
      const query = req.query as Record<string, unknown> & {
        limit?: number;
        offset?: number;
        cursor?: string;
      };
      const page = readPageQuery(query, paging);
      const filters = filterHash(query);
      req.pageFilters = filters;
      req.pageRequest = {
        limit: page.limit,
        offset: page.offset,
        after:
          page.cursor === null
            ? null
            : kernel.cursors.decode(page.cursor, paging.list, filters, req.principal!.workspaceId),
      };
    });
  }
  if (spec.readings) {
    const count = spec.readings;
    preHandlers.push(async (req) => {
      await kernel.rateLimiter.consumeReadings(req.principal!, count(req.body as Static<B>));
    });
  }
  if (idempotency === 'store') {
    preHandlers.push(async (req, reply) => {
      const key = req.headers['idempotency-key'];
      if (typeof key !== 'string') return;
      const path = req.url.split('?')[0] ?? req.url;
      const outcome = await claimIdempotencyKey(kernel.database.db, {
        credentialId: req.principal!.credentialId,
        operation,
        key,
        fingerprint: requestFingerprint(req.method, path, req.body),
      });
      if (outcome.kind === 'claimed') {
        req.idempotencyClaim = outcome.claim;
        return;
      }
      let payload = JSON.parse(outcome.body) as ReplayPayload;
      if (spec.onReplay) payload = await spec.onReplay(payload, contextOf(req, kernel.database.db));
      await reply.code(outcome.status).header('idempotent-replay', 'true').send(payload);
      return reply;
    });
  }

  // A claim still held when the response ends (client gone, hook failure) is freed.
  const releaseLeftoverClaim = async (req: FastifyRequest) => {
    const claim = req.idempotencyClaim;
    if (claim === null) return;
    req.idempotencyClaim = null;
    await releaseIdempotencyKey(kernel.database.db, claim);
  };

  const DEFAULT_PAGE: PageRequest = { limit: 50, offset: 0, after: null };
  const contextOf = (
    req: FastifyRequest,
    db: Db,
    transaction: ConstructorParameters<typeof HandlerContext>[8] = null,
  ): RequestContext => {
    const principal = req.principal!;
    const filters = req.pageFilters;
    return new HandlerContext(
      principal,
      db,
      kernel.database,
      req.id,
      kernel.config.publicUrl,
      req.log,
      req.pageRequest ?? DEFAULT_PAGE,
      paging === null
        ? null
        : (nextKey) => kernel.cursors.encode(paging.list, filters, principal.workspaceId, nextKey),
      transaction,
    );
  };

  const toPayload = (result: RouteResult<unknown, unknown>): ReplayPayload =>
    result.meta === undefined
      ? { ok: true, data: result.data }
      : { ok: true, data: result.data, meta: result.meta };

  const run = (req: FastifyRequest, ctx: RequestContext) =>
    spec.handler(req as unknown as RouteRequest<P, Q, B>, ctx) as Promise<
      RouteResult<unknown, unknown>
    >;

  /** The write and the completion of the claim, committed together. */
  const commit = async <R extends RouteResult<unknown, unknown>>(
    claim: Claim | null,
    write: (trx: Db) => Promise<R>,
  ): Promise<R> =>
    kernel.database.db.transaction().execute(async (trx) => {
      const result = await write(trx);
      if (claim !== null) {
        await completeIdempotencyKey(trx, claim, status, JSON.stringify(toPayload(result)));
      }
      return result;
    });

  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!isWrite) {
      const result = await run(req, contextOf(req, kernel.database.db));
      return reply.code(status).send(toPayload(result));
    }
    const claim = req.idempotencyClaim;
    try {
      let payload: ReplayPayload;
      if (spec.transaction === 'handler') {
        let committed = false;
        const result = await run(
          req,
          contextOf(req, kernel.database.db, (fn) => {
            if (committed) throw new Error('ctx.transaction() may run once per request');
            committed = true;
            return commit(claim, fn);
          }),
        );
        if (!committed) throw new Error(`${operation} returned without ctx.transaction()`);
        payload = toPayload(result);
      } else {
        payload = toPayload(await commit(claim, (trx) => run(req, contextOf(req, trx))));
      }
      req.idempotencyClaim = null;
      if (idempotency === 'store') reply.header('idempotent-replay', 'false');
      return reply.code(status).send(payload);
    } catch (error) {
      if (claim !== null) {
        req.idempotencyClaim = null;
        await releaseIdempotencyKey(kernel.database.db, claim).catch((releaseError: unknown) =>
          req.log.error({ err: releaseError }, 'could not release idempotency key'),
        );
      }
      throw error;
    }
  };

  app.route({
    method: spec.method,
    url: spec.url,
    schema,
    config: {
      vitro: {
        operationId: spec.operationId,
        failureCode: spec.failureCode,
        hideFieldInErrors: spec.hideFieldInErrors ?? false,
      },
    },
    onRequest: accessHook,
    preValidation,
    preHandler: preHandlers,
    ...(idempotency === 'store' ? { onResponse: releaseLeftoverClaim } : {}),
    handler,
  });
}
