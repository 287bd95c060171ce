import Type from 'typebox';
import { ROLES } from '../../kernel/access.js';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

/** The calling key (camelCase, as current clients parse it). */
export const Me = Type.Object(
  {
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
  },
  { $id: 'Me' },
);
