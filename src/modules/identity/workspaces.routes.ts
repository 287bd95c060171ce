import Type from 'typebox';
import type { Routes } from '../../kernel/routes/index.js';
import { getWorkspace } from './identity.service.js';
import { getLabSettings, updateLabSettings } from './lab-settings.service.js';
import { LabSettings, UpdateLabSettingsBody, Workspace } from './workspaces.schemas.js';

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

  routes.read({
    url: '/api/v1/lab-settings',
    operationId: 'getLabSettings',
    tags: ['Account'],
    summary: "Get the lab's settings",
    description: "The calling key's lab's settings (Vitro's addition); any member may read them.",
    scope: 'read:workspace',
    failureCode: 'WORKSPACE_QUERY_FAILED',
    data: LabSettings,
    handler: async (_req, ctx) => ({
      data: await getLabSettings(ctx.db, ctx.principal.workspaceId),
    }),
  });

  routes.write({
    method: 'PATCH',
    url: '/api/v1/lab-settings',
    operationId: 'updateLabSettings',
    tags: ['Account'],
    summary: "Change the lab's settings",
    description:
      'Changes the settings sent (at least one); the others stay. Needs an admin or the owner.',
    scope: 'write:workspace',
    role: 'admin',
    failureCode: 'WORKSPACE_UPDATE_FAILED',
    body: UpdateLabSettingsBody,
    data: LabSettings,
    handler: async (req, ctx) => ({
      data: await updateLabSettings(ctx.trx, ctx.principal.workspaceId, req.body, ctx.now),
    }),
  });
}
