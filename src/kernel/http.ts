import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { isDatabaseBusy } from '../db/errors.js';
import { AppError, errors, type ErrorCode } from './errors.js';
import { describeValidationError } from './validation.js';

/** Bodies above about 4.5 MB are refused with 413 before anything else reads them. */
export const BODY_LIMIT_BYTES = Math.floor(4.5 * 1024 * 1024);

/** The file types an operation may take as its body (see `RawBody`), read as bytes. */
export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const RAW_MEDIA_TYPES = ['text/csv', XLSX_MEDIA_TYPE] as const;

/** 415 for a body of a type the operation does not take, naming the ones it does. */
function unsupportedMediaType(req: FastifyRequest): AppError {
  const raw = req.routeOptions.config.vitro?.rawBody;
  return new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    raw == null
      ? 'Request bodies must be sent as Content-Type: application/json'
      : `This operation takes a file: send it as Content-Type: ${raw.mediaTypes.join(' or ')}`,
  );
}

/** The route's own size limit in bytes: a file body's, else the JSON bodies'. */
function bodyLimitOf(req: FastifyRequest): number {
  return req.routeOptions.config.vitro?.rawBody?.maxBytes ?? BODY_LIMIT_BYTES;
}

/**
 * The 413 naming the route's own limit. Made only when a body is refused: an error
 * takes a stack trace, which the check on every request must not pay for.
 */
function tooLargeFor(req: FastifyRequest): AppError {
  const raw = req.routeOptions.config.vitro?.rawBody;
  return raw == null ? errors.payloadTooLarge() : errors.payloadTooLarge(raw.tooLarge);
}

export interface Failure {
  status: number;
  code: ErrorCode;
  message: string;
  headers: Readonly<Record<string, string>>;
  /** Sent as `details` when there is something beyond the text (an import's rows). */
  details?: unknown;
}

function failureOf(error: FastifyError | AppError | Error, req: FastifyRequest): Failure {
  if (error instanceof AppError) {
    return {
      status: error.status,
      code: error.code,
      message: error.message,
      headers: error.headers,
      ...(error.details === undefined ? {} : { details: error.details }),
    };
  }
  if (isDatabaseBusy(error)) return failureOf(errors.databaseBusy(), req);
  const fastifyError = error as FastifyError;
  if (
    fastifyError.validation &&
    fastifyError.validationContext === 'params' &&
    !fastifyError.validation.some((e) => e.keyword === 'nul')
  ) {
    // A malformed id names no record: the same answer as an id that exists nowhere.
    return failureOf(errors.notFound(req.routeOptions.config.vitro?.notFound), req);
  }
  if (fastifyError.validation) {
    const hide = req.routeOptions.config.vitro?.hideFieldInErrors ?? false;
    const part = fastifyError.validationContext ?? 'body';
    return {
      status: 422,
      code: 'VALIDATION_ERROR',
      message: describeValidationError(fastifyError.validation as never, part, hide),
      headers: {},
    };
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return failureOf(tooLargeFor(req), req);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return failureOf(unsupportedMediaType(req), req);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return failureOf(errors.invalidJson(), req);
    default:
      break;
  }
  const statusCode = fastifyError.statusCode ?? 500;
  if (statusCode >= 400 && statusCode < 500) {
    return { status: 400, code: 'VALIDATION_ERROR', message: 'Malformed request', headers: {} };
  }
  const code = req.routeOptions.config.vitro?.failureCode ?? 'INTERNAL_ERROR';
  const retry = req.method === 'GET' ? 'retry later' : 'retry with the same Idempotency-Key';
  return {
    status: 500,
    code,
    message: `The request could not be completed (request ${req.id}); ${retry}`,
    headers: {},
  };
}

/** Set on a request that counted against a budget; only a success carries them. */
const BUDGET_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

export function sendFailure(reply: FastifyReply, failure: Failure) {
  for (const header of BUDGET_HEADERS) reply.removeHeader(header);
  return reply
    .code(failure.status)
    .headers(failure.headers)
    .send(
      failure.details === undefined
        ? { ok: false, data: null, error: failure.message, code: failure.code }
        : {
            ok: false,
            data: null,
            error: failure.message,
            code: failure.code,
            details: failure.details,
          },
    );
}

/** A page answered instead of the 404 envelope; undefined to leave the envelope. */
export type UnknownPageAnswer = (
  req: FastifyRequest,
  reply: FastifyReply,
) => FastifyReply | undefined;

export interface HttpConventions {
  /**
   * What a GET of an address no route serves may answer instead of the 404 envelope
   * (a browser gets the console, which shows its own not-found page).
   */
  answerUnknownPages(answer: UnknownPageAnswer): void;
}

/**
 * The HTTP conventions of every response: request id, envelope, JSON-only bodies,
 * body size, one error mapping, 404 for unknown paths and 405 for wrong methods.
 * Must be installed before any route is added (it watches routes for 405s).
 */
export function installHttpConventions(app: FastifyInstance): HttpConventions {
  let unknownPage: UnknownPageAnswer | null = null;
  app.decorateRequest('principal', null);
  app.decorateRequest('pageRequest', null);
  app.decorateRequest('pageFilters', '');
  app.decorateRequest('idempotencyClaim', null);

  const knownPaths = FindMyWay({ ignoreTrailingSlash: false });
  const methods = new Set<HTTPMethod>();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat() as HTTPMethod[]) {
      if (method === 'HEAD' || knownPaths.hasRoute(method, route.url)) continue;
      methods.add(method);
      knownPaths.on(method, route.url, () => undefined);
    }
  });

  // Requests still arriving on open connections once shutdown began (Fastify's own
  // 503 for them is switched off in the server options: it has no envelope).
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  // Synchronous: it runs on every request, and an async hook costs a promise each time.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    // A browser never reads an answer as another type than it says (JSON as HTML, say).
    reply.header('x-content-type-options', 'nosniff');
    if (closing) {
      done(
        new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down; retry the request', {
          connection: 'close',
          'retry-after': '1',
        }),
      );
      return;
    }
    // HTTP/1.1 requires Host (Node's own check, switched off in the server options,
    // would answer outside the envelope).
    if (req.headers.host === undefined && req.raw.httpVersion === '1.1') {
      done(
        new AppError(
          'VALIDATION_ERROR',
          'Host: the header is required in HTTP/1.1',
          { connection: 'close' },
          400,
        ),
      );
      return;
    }
    const length = Number(req.headers['content-length'] ?? 0);
    done(length > bodyLimitOf(req) ? tooLargeFor(req) : undefined);
  });

  // JSON bodies; an empty body is "no body" (never invalid JSON). An operation that
  // takes a file (a `rawBody` route) takes no JSON.
  const parseJson = (
    text: string | Buffer,
    done: (error: Error | null, body?: unknown) => void,
  ) => {
    const raw = typeof text === 'string' ? text : text.toString('utf8');
    if (raw.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(raw));
    } catch {
      done(errors.invalidJson(), undefined);
    }
  };
  // A body of another type read as JSON (device firmware), up to the JSON bodies' limit.
  const readAsJson = (
    payload: NodeJS.ReadableStream,
    done: (error: Error | null, body?: unknown) => void,
  ) => {
    const chunks: Buffer[] = [];
    let size = 0;
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) {
        (payload as NodeJS.ReadableStream & { destroy(): void }).destroy();
        done(errors.payloadTooLarge(), undefined);
        return;
      }
      chunks.push(chunk);
    });
    payload.on('end', () => parseJson(Buffer.concat(chunks), done));
    payload.on('error', (error: Error) => done(error, undefined));
  };
  const takesAnyType = (req: FastifyRequest) =>
    req.routeOptions.config.vitro?.bodyOfAnyType === true;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (req, text, done) => {
      if (req.routeOptions.config.vitro?.rawBody != null) {
        done(unsupportedMediaType(req), undefined);
        return;
      }
      parseJson(text, done);
    },
  );
  // Any other type, or none: JSON for the routes that take it so (device firmware);
  // elsewhere 415 at once, without waiting for a body nobody will read.
  app.addContentTypeParser('*', (req, payload, done) => {
    if (!takesAnyType(req)) {
      done(unsupportedMediaType(req), undefined);
      return;
    }
    readAsJson(payload, done);
  });

  // File bodies, as bytes, only for the operations that declare their type (any other
  // is refused before a byte is read), up to the route's own limit.
  for (const mediaType of RAW_MEDIA_TYPES) {
    app.addContentTypeParser(mediaType, (req, payload, done) => {
      if (takesAnyType(req)) {
        readAsJson(payload, done);
        return;
      }
      const raw = req.routeOptions.config.vitro?.rawBody;
      if (raw == null || !raw.mediaTypes.includes(mediaType)) {
        done(unsupportedMediaType(req), undefined);
        return;
      }
      const limit = bodyLimitOf(req);
      const chunks: Buffer[] = [];
      let length = 0;
      const onData = (chunk: Buffer) => {
        length += chunk.length;
        if (length <= limit) {
          chunks.push(chunk);
          return;
        }
        // As Fastify does past a body limit: stop reading, answer 413.
        stop();
        done(tooLargeFor(req), undefined);
      };
      const onEnd = () => {
        stop();
        done(null, Buffer.concat(chunks, length));
      };
      const onError = (error: Error) => {
        stop();
        done(error, undefined);
      };
      const stop = () => {
        payload.removeListener('data', onData);
        payload.removeListener('end', onEnd);
        payload.removeListener('error', onError);
      };
      payload.on('data', onData);
      payload.on('end', onEnd);
      payload.on('error', onError);
    });
  }

  app.setErrorHandler((error: FastifyError | AppError, req, reply) => {
    const failure = failureOf(error, req);
    if (failure.status >= 500) req.log.error({ err: error }, 'request failed');
    reply.header('x-request-id', req.id);
    return sendFailure(reply, failure);
  });

  app.setNotFoundHandler((req, reply) => {
    reply.header('x-request-id', req.id);
    const path = req.url.split('?')[0] ?? req.url;
    const allowed = [...methods].filter((m) => knownPaths.find(m, path) !== null);
    // A route of this method that found nothing to serve (a missing static file) is a 404.
    if (allowed.length > 0 && !allowed.includes(req.method as HTTPMethod)) {
      reply.header('allow', allowed.join(', '));
      return sendFailure(reply, {
        status: 405,
        code: 'METHOD_NOT_ALLOWED',
        message: `${req.method} is not allowed on ${path}; use ${allowed.join(', ')}`,
        headers: {},
      });
    }
    const page = req.method === 'GET' ? unknownPage?.(req, reply) : undefined;
    if (page !== undefined) return page;
    return sendFailure(reply, {
      status: 404,
      code: 'NOT_FOUND',
      message: `No route ${req.method} ${path}`,
      headers: {},
    });
  });

  return {
    answerUnknownPages: (answer) => {
      unknownPage = answer;
    },
  };
}
