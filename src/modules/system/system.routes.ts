import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.js';
import { sendFailure } from '../../kernel/http.js';

/** Liveness and readiness probes; no key needed. */
export function registerSystemRoutes(app: FastifyInstance, database: Database): void {
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
