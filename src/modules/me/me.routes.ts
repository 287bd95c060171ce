import { effectiveScopes, planAccess } from '../../kernel/access.js';
import type { Routes } from '../../kernel/routes/index.js';
import { Me } from './me.schemas.js';

export function registerMeRoutes(routes: Routes): void {
  routes.read({
    url: '/api/v1/me',
    operationId: 'getMe',
    tags: ['Account'],
    summary: 'Get the calling key',
    description:
      'Works on every plan. `effectiveScopes` are the key scopes narrowed by the owner role and the plan.',
    scope: null,
    plan: 'any',
    failureCode: 'INTERNAL_ERROR',
    data: Me,
    handler: async (_req, { principal }) => {
      const key = principal.key!;
      const role = principal.role!;
      return {
        data: {
          key: {
            id: principal.credentialId,
            name: key.name,
            prefix: key.prefix,
            environment: key.environment,
            status: 'active',
            lastUsedAt: key.lastUsedAt,
            createdAt: key.createdAt,
          },
          scopes: [...principal.scopes],
          effectiveScopes: effectiveScopes(principal.scopes, role, principal.plan),
          role,
          // Free has no API beyond this call; the wire format knows only full|devices.
          apiAccess:
            planAccess(principal.plan) === 'full' ? ('full' as const) : ('devices' as const),
          workspace: { id: principal.workspaceId },
          user: { id: principal.memberId },
        },
      };
    },
  });
}
