import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type {
  FastifyBaseLogger,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import { sendFailure, type Failure } from './http.js';

// Requests refused before any route or hook runs (by Node's HTTP parser, Node's own
// checks or Fastify's router) are answered in the envelope too, with a stable code
// and an X-Request-Id, closing the connection cleanly where it must.

/** Fastify's default: longer path parameters are refused before routing. */
export const MAX_PARAM_LENGTH = 100;

const envelopeOf = (failure: Pick<Failure, 'code' | 'message'>) =>
  JSON.stringify({ ok: false, data: null, error: failure.message, code: failure.code });

/**
 * Fastify's `frameworkErrors`: requests its router refuses before any route or hook
 * runs. A path that is not valid percent-encoding cannot be read at all (400, as for
 * a body that is not JSON); a parameter longer than the router takes is a malformed
 * id, answered as any malformed id is: 404, like an id that names nothing (not
 * Fastify's 414: the URI is not too long for the server, one segment is too long
 * for an id).
 */
export function frameworkErrorHandler(
  error: FastifyError,
  req: FastifyRequest,
  reply: FastifyReply,
): void {
  reply.header('x-request-id', req.id).header('x-content-type-options', 'nosniff');
  let failure: Failure;
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      failure = {
        status: 400,
        code: 'VALIDATION_ERROR',
        message: 'Request path is not valid percent-encoding',
        headers: {},
      };
      break;
    case 'FST_ERR_MAX_PARAM_LENGTH':
      failure = {
        status: 404,
        code: 'NOT_FOUND',
        message: `Record not found (a path id is at most ${MAX_PARAM_LENGTH} characters)`,
        headers: {},
      };
      break;
    default:
      req.log.error({ err: error }, 'request failed before routing');
      failure = {
        status: 500,
        code: 'INTERNAL_ERROR',
        message: `The request could not be completed (request ${req.id}); retry later`,
        headers: {},
      };
  }
  void sendFailure(reply, failure);
}

/** How long a refused connection may go on sending before it is cut off. */
const CLIENT_ERROR_LINGER_MS = 5000;

/** Sockets already answered: the parser reports each later chunk of a broken request again. */
const answeredSockets = new WeakSet<Socket>();

/** A response already under way on the socket (keep-alive), which must not be interleaved. */
const responseUnderWay = (socket: Socket) =>
  (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage?.headersSent === true;

function clientFailure(code: string | undefined): Pick<Failure, 'status' | 'code' | 'message'> {
  switch (code ?? '') {
    case 'HPE_HEADER_OVERFLOW':
      // 431 says what happened in HTTP's words; the code is the catalogue's size code.
      return {
        status: 431,
        code: 'PAYLOAD_TOO_LARGE',
        message: 'Request headers are too large (at most 16 KB in all)',
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        status: 413,
        code: 'PAYLOAD_TOO_LARGE',
        message: 'Request chunk extensions are too large',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        code: 'VALIDATION_ERROR',
        message: 'The request was not received in time; send it again',
      };
    default:
      return { status: 400, code: 'VALIDATION_ERROR', message: 'Malformed HTTP request' };
  }
}

/** Node's short words for a parse error (`Header overflow`), else the first line of its message. */
const reasonOf = (error: Error & { reason?: unknown }) =>
  (typeof error.reason === 'string' ? error.reason : error.message.split('\n', 1)[0]!).slice(
    0,
    200,
  );

/**
 * What a refused connection's log line says: what was wrong and who sent it. Not the
 * error itself: Node attaches the bytes it could not parse (`rawPacket`, up to the
 * whole header block, which pino writes as a JSON array of numbers: a 20 KB request
 * made 80 KB of log), and its stack says nothing about the client.
 */
function clientErrorLog(error: Error & { code?: string }, socket: Socket, requestId: string) {
  return {
    requestId,
    clientError: { code: error.code ?? 'UNKNOWN', reason: reasonOf(error) },
    remoteAddress: socket.remoteAddress ?? null,
    remotePort: socket.remotePort ?? null,
  };
}

/**
 * For Fastify's `clientErrorHandler`: what Node's HTTP parser refuses (a NUL byte in
 * a header, headers over the limit, text that is not HTTP): no request exists, so
 * the envelope is written to the socket directly, with a request id of its own and
 * `Connection: close`. The socket is then ended, not destroyed: whatever the client
 * still sends is read and dropped until it closes (or the linger time runs out), so
 * the close is a FIN after the response, never a reset that could discard it.
 */
export function answerClientError(
  error: Error & { code?: string },
  socket: Socket,
  log: FastifyBaseLogger,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || answeredSockets.has(socket)) return;
  answeredSockets.add(socket);
  const requestId = randomUUID();
  log.info(clientErrorLog(error, socket, requestId), 'malformed request refused');
  if (!socket.writable || responseUnderWay(socket)) {
    socket.destroy();
    return;
  }
  const failure = clientFailure(error.code);
  const body = envelopeOf(failure);
  socket.end(
    `HTTP/1.1 ${failure.status} ${STATUS_CODES[failure.status] ?? 'Error'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'X-Content-Type-Options: nosniff\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
  socket.resume();
  const linger = setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
}

/** Writes a failure on a raw response (no Fastify request exists), closing the connection. */
function writeRawFailure(res: ServerResponse, failure: Failure): void {
  const body = envelopeOf(failure);
  res.writeHead(failure.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-request-id': randomUUID(),
    'x-content-type-options': 'nosniff',
    connection: 'close',
    ...failure.headers,
  });
  res.end(body);
}

/**
 * Node answers an `Expect` other than 100-continue itself (417, empty body) unless
 * someone listens: answered here in the envelope. A body sent anyway is read and
 * dropped, so that the close is clean.
 */
export function installProtocolErrors(app: FastifyInstance): void {
  app.server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    writeRawFailure(res, {
      status: 417,
      code: 'VALIDATION_ERROR',
      message: 'Expect: only 100-continue is supported',
      headers: {},
    });
  });
}
