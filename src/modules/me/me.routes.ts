import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { effectiveScopes, planAccess, ROLES } from '../../kernel/access.js';
import { defineRoute, type Kernel } from '../../kernel/route.js';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

const Me = Type.Object({
  key: Type.Object({
    id: Uuid(),
    name: Type.String(),
    prefix: Type.String(),
    environment: StringEnum(['production', 'development']),
    status: Type.String(),
    lastUsedAt: Nullable(Type.String()),
    createdAt: Type.String(),
  }),
  scopes: Type.Array(Type.String()),
  effectiveScopes: Type.Array(Type.String()),
  role: StringEnum([...ROLES].reverse()),
  apiAccess: StringEnum(['full', 'devices']),
  workspace: Type.Object({ id: Uuid() }),
  user: Type.Object({ id: Nullable(Uuid()) }),
});

export function registerMeRoutes(app: FastifyInstance, kernel: Kernel): void {
  defineRoute(app, kernel, {
    method: 'GET',
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
