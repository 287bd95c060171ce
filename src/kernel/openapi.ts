import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { componentName, finishDocument } from './openapi-document.js';

/**
 * The docs page's Content-Security-Policy: everything from this origin only.
 * Unlike @fastify/swagger-ui's default it has no `upgrade-insecure-requests`,
 * which makes a browser fetch every asset over https and so blanks the page on
 * any host other than loopback served over plain HTTP (e.g. http://lab-server:3000).
 * The one hash is the <style> inside Swagger UI's top-bar logo (its colours).
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
].join('; ');

/**
 * OpenAPI 3.1 generated from the route schemas, served at /api/v1/openapi.json,
 * with interactive docs at /docs from local files (GET /, which points JSON clients
 * to both, is the console's: src/console/serve.ts).
 * Register before the routes.
 */
export async function installOpenApi(
  app: FastifyInstance,
  publicUrl: string,
  sessionCookie = 'vitro_session',
): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Vitro lab API',
        version: '1',
        description:
          'Lab-management API for plant tissue culture labs. Every response uses the envelope ' +
          '`{ok, data, meta?}` or `{ok: false, data: null, error, code}`; branch on `code`.',
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'Workspace API key: xpk_live_… or xpk_dev_…',
          },
          deviceToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'Device token: xpd_live_… or xpd_dev_… (device operations only)',
          },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: sessionCookie,
            description:
              'A person signed in to the console (POST /api/v1/session). Writes only from the ' +
              "console's own origin; never together with an API key.",
          },
          signInLink: {
            type: 'http',
            scheme: 'bearer',
            description: "A personal sign-in link's secret (vsl_…): only to sign in",
          },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => componentName(json, i) },
    transformObject: (document) =>
      'openapiObject' in document
        ? finishDocument(document.openapiObject as Record<string, unknown>)
        : document.swaggerObject,
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // Tags start folded: Swagger UI stops rendering a document of this size listed whole
    // (no error: the operations after the first few tags never appear).
    uiConfig: { docExpansion: 'none', deepLinking: true },
    theme: { title: 'Vitro API reference' },
    staticCSP: DOCS_CSP,
  });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
