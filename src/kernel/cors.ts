import type { FastifyInstance } from 'fastify';

/** What a page of an allowed origin may send and read. */
const ALLOWED_METHODS = 'GET, POST, PATCH, DELETE';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key';
const EXPOSED_HEADERS = 'X-Request-Id, Idempotent-Replay, Retry-After';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/**
 * CORS for a lab's own browser tools: pages of the origins in CORS_ORIGINS may
 * call `/api/v1` with an API key, and their preflights are answered. Never with
 * credentials: no `Access-Control-Allow-Credentials`, so a browser neither sends
 * nor exposes the console's session cookie cross-origin (and the kernel ignores
 * one that arrives anyway). With no origins configured nothing changes: no CORS
 * header on any answer, and OPTIONS is 405 as on every path.
 */
export function installCors(app: FastifyInstance, origins: readonly string[]): void {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  // Synchronous, as the other per-request hooks; it runs before routing decides
  // anything, so a preflight is answered whatever the path's methods.
  app.addHook('onRequest', (req, reply, done) => {
    const origin = req.headers.origin;
    if (typeof origin !== 'string' || !allowed.has(origin) || !req.url.startsWith('/api/v1/')) {
      done();
      return;
    }
    reply.header('access-control-allow-origin', origin);
    reply.header('vary', 'Origin');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      void reply
        .code(204)
        .header('access-control-allow-methods', ALLOWED_METHODS)
        .header('access-control-allow-headers', ALLOWED_HEADERS)
        .header('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS)
        .send();
      return;
    }
    reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    done();
  });
}
