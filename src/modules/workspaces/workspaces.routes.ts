import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { defineRoute, type Kernel } from '../../kernel/route.js';
import { Uuid } from '../../kernel/schemas.js';
import { getWorkspace } from '../identity/identity.service.js';

const Workspace = Type.Object({ id: Uuid(), name: Type.String(), type: Type.String() });

export function registerWorkspaceRoutes(app: FastifyInstance, kernel: Kernel): void {
  defineRoute(app, kernel, {
    method: 'GET',
    url: '/api/v1/workspaces',
    operationId: 'listWorkspaces',
    tags: ['Account'],
    summary: 'Get the workspace',
    description: 'A list of exactly one entry: the workspace of the calling key. No paging.',
    scope: 'read:workspace',
    failureCode: 'WORKSPACE_QUERY_FAILED',
    data: Type.Array(Workspace),
    handler: async (_req, ctx) => {
      const workspace = await getWorkspace(ctx.db, ctx.principal.workspaceId);
      return { data: [{ id: workspace.id, name: workspace.name, type: workspace.type }] };
    },
  });
}
