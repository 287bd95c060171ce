import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { SCOPES } from './access.js';

export const TAGS = [
  'Account',
  'Change history',
  'Comments',
  'Contamination',
  'Demand signals',
  'Devices',
  'Equipment',
  'Explants',
  'Labels',
  'Media files',
  'Media recipes',
  'Plants',
  'Pricing',
  'Sell-through',
  'Sensor readings',
  'SOP runs',
  'SOPs',
  'Stages',
  'Tasks',
  'Transfers',
] as const;

/**
 * OpenAPI 3.1 generated from the route schemas, served at /api/v1/openapi.json,
 * with interactive docs at /docs from local files. Register before the routes.
 */
export async function installOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
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
      tags: TAGS.map((name) => ({ name })),
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
        },
      },
      security: [{ bearerAuth: [] }],
    },
    transformObject: (document) =>
      'openapiObject' in document
        ? { ...document.openapiObject, 'x-scopes': [...SCOPES] }
        : document.swaggerObject,
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    staticCSP: true,
  });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
