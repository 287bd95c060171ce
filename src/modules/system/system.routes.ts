import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.js';
import { sendFailure } from '../../kernel/http.js';
import { vitroVersion } from '../../lib/version.js';

/**
 * Liveness and readiness probes, and what the API is (`GET /api/v1`, which clients
 * call first to check the address); no key needed.
 */
export function registerSystemRoutes(app: FastifyInstance, database: Database): void {
  const about = {
    ok: true,
    data: {
      name: 'Vitro lab API',
      version: '1',
      server_version: vitroVersion() ?? 'unknown',
      docs: '/docs',
      openapi: '/api/v1/openapi.json',
    },
  };
  app.get('/api/v1', { schema: { hide: true } }, async () => about);

  app.get('/healthz', { schema: { hide: true } }, async () => ({
    ok: true,
    data: { status: 'ok' },
  }));

  app.get('/readyz', { schema: { hide: true } }, async (req, reply) => {
    try {
      await sql`select 1`.execute(database.db);
      return { ok: true, data: { status: 'ready', database: database.dialect } };
    } catch (error) {
      req.log.error({ err: error }, 'readiness check failed');
      return sendFailure(reply, {
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        message: 'The database is not reachable',
        headers: {},
      });
    }
  });
}
