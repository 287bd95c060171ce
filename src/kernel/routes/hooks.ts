import { createHash } from 'node:crypto';
import type {
  FastifyRequest,
  onRequestAsyncHookHandler,
  onSendAsyncHookHandler,
  preHandlerAsyncHookHandler,
  preValidationAsyncHookHandler,
} from 'fastify';
import { authorize } from '../authorize.js';
import { claimIdempotencyKey, releaseIdempotencyKey, requestFingerprint } from '../idempotency.js';
import type { PageRequest } from '../../db/pages.js';
import { filterHash, readPageQuery } from '../paging.js';
import { AppError } from '../errors.js';
import { authenticateRequest, presentsCredential } from '../request-auth.js';
import type { Kernel } from './kernel.js';
import type { Operation } from './schema.js';
import type { ReplayPayload } from './spec.js';

/**
 * Who a request is, or its refusal: a credential it presented that does not
 * work (401) counts against its client address's failed-credential budget, and
 * past the budget is answered 429 with Retry-After instead. A good credential
 * never touches that budget.
 */
async function authenticateCounted(kernel: Kernel, op: Operation, req: FastifyRequest) {
  try {
    return await authenticateRequest(req, op.rule, {
      authenticate: kernel.authenticate,
      sessions: kernel.sessions,
      publicUrl: kernel.config.publicUrl,
    });
  } catch (error) {
    if (
      error instanceof AppError &&
      error.code === 'UNAUTHORIZED' &&
      presentsCredential(req, kernel.sessions.cookieName)
    ) {
      await kernel.rateLimiter.consumeFailedCredential(req.ip);
    }
    throw error;
  }
}

/**
 * The checks every request passes before its handler, in the documented order:
 * authentication (401; a client address past its failed-credential budget, 429),
 * rate limit (429; refused requests count too), device-token acceptance, plan,
 * feature, scope, role (authorize); then, after validation, paging, readings
 * budgets and the idempotency claim.
 */
export function accessHook(kernel: Kernel, op: Operation): onRequestAsyncHookHandler {
  return async (req, reply) => {
    const principal = await authenticateCounted(kernel, op, req);
    req.principal = principal;
    const budget = await kernel.rateLimiter.consumeRequest(principal);
    // What the product's clients read to slow down before a 429; a failure drops them.
    reply.header('x-ratelimit-limit', budget.limit);
    reply.header('x-ratelimit-remaining', budget.remaining);
    reply.header('x-ratelimit-reset', budget.resetSeconds);
    authorize(principal, op.rule);
  };
}

/** A write that accepts no body gets `{}`, so its schema sees an object. */
export const emptyBodyHook: preValidationAsyncHookHandler = async (req) => {
  if (req.body === undefined || req.body === null) req.body = {};
};

/** Reads `limit`/`offset`/`cursor`; a cursor must belong to this list, filters and workspace. */
export function pagingHook(kernel: Kernel, op: Operation): preHandlerAsyncHookHandler {
  const paging = op.paging!;
  return async (req) => {
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
    } satisfies PageRequest;
  };
}

/** Readings counted for a request, until its answer shows whether they were stored. */
const readingsCounted = new WeakMap<FastifyRequest, number>();

/** Counts a request's readings against the readings budgets (points, not requests). */
export function readingsHook(
  kernel: Kernel,
  count: (body: unknown) => number,
): preHandlerAsyncHookHandler {
  return async (req) => {
    const readings = count(req.body);
    await kernel.rateLimiter.consumeReadings(req.principal!, readings);
    readingsCounted.set(req, readings);
  };
}

/**
 * Gives the readings back when the request stored none of them: it failed (a
 * refused batch, all or nothing) or it replayed an earlier answer.
 */
export function readingsRefundHook(kernel: Kernel): onSendAsyncHookHandler {
  return async (req, reply, payload) => {
    const readings = readingsCounted.get(req);
    if (readings === undefined) return payload;
    readingsCounted.delete(req);
    if (reply.statusCode >= 300 || reply.getHeader('idempotent-replay') === 'true') {
      await kernel.rateLimiter.refundReadings(req.principal!, readings);
    }
    return payload;
  };
}

/**
 * Claims the request's Idempotency-Key, or answers a replay of the first response
 * (refreshed by `onReplay`). Without the header, nothing happens.
 */
export function idempotencyHook(
  kernel: Kernel,
  op: Operation,
  onReplay: ((payload: ReplayPayload, req: FastifyRequest) => Promise<ReplayPayload>) | null,
): preHandlerAsyncHookHandler {
  const operation = `${op.method} ${op.spec.url}`;
  return async (req, reply) => {
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string') return;
    const outcome = await claimIdempotencyKey(kernel.database.db, {
      credentialId: req.principal!.credentialId,
      operation,
      key,
      // An operation that takes no body ignores one sent anyway: it is not part of the
      // request (and, never validated, it could be nested deeper than the stack).
      fingerprint: requestFingerprint(req.method, pathOf(req), fingerprintBody(op, req)),
    });
    if (outcome.kind === 'claimed') {
      req.idempotencyClaim = outcome.claim;
      return;
    }
    let payload = JSON.parse(outcome.body) as ReplayPayload;
    if (onReplay !== null) payload = await onReplay(payload, req);
    await reply.code(outcome.status).header('idempotent-replay', 'true').send(payload);
    return reply;
  };
}

/** What of the body makes a request the same: the JSON sent, or a file's type and digest. */
function fingerprintBody(op: Operation, req: FastifyRequest): unknown {
  if (op.rawBody !== null) {
    return Buffer.isBuffer(req.body)
      ? {
          type: req.headers['content-type'] ?? '',
          sha256: createHash('sha256').update(req.body).digest('hex'),
        }
      : null;
  }
  return op.body === null ? null : req.body;
}

/** A claim still held when the response ends (client gone, a hook failed) is freed. */
export function releaseLeftoverClaim(kernel: Kernel) {
  return async (req: FastifyRequest) => {
    const claim = req.idempotencyClaim;
    if (claim === null) return;
    req.idempotencyClaim = null;
    await releaseIdempotencyKey(kernel.database.db, claim);
  };
}

/**
 * The concrete path as validation left it: the route's template with the validated
 * path parameters put in. A path id is a UUID in lower case whatever case was sent
 * (validation), so `/plants/ABC…` and `/plants/abc…` are one request for the
 * Idempotency-Key, as their bodies are. A request sent in lower case, unencoded,
 * gets the path it sent, as before.
 */
function pathOf(req: FastifyRequest): string {
  const params = req.params as Record<string, unknown>;
  return req.routeOptions.url!.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) =>
    String(params[name]),
  );
}
