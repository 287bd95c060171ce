import Type from 'typebox';
import type { Routes } from '../../kernel/routes/index.js';
import { getWorkspace } from './identity.service.js';
import { Workspace } from './workspaces.schemas.js';

export function registerWorkspaceRoutes(routes: Routes): void {
  routes.read({
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
