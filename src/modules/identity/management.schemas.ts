import Type from 'typebox';
import { ROLES, SCOPES } from '../../kernel/access.js';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

/** A member of the workspace, as the console's Members page shows one. */
export const Member = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    email: Nullable(Type.String()),
    role: StringEnum(ROLES),
    status: Type.String({ description: 'active, removed' }),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'Member' },
);

export const MemberParams = Type.Object({ id: Uuid() });

export const AddMemberBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    email: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 254,
          description: 'an email address, not another active member’s (compared ignoring case)',
        }),
      ),
    ),
    role: StringEnum(ROLES, { description: 'owner only by an owner' }),
  },
  { additionalProperties: false },
);

export const ChangeMemberBody = Type.Object(
  { role: StringEnum(ROLES, { description: 'owner only by an owner' }) },
  { additionalProperties: false },
);

const ScopeList = Type.Array(StringEnum(SCOPES), { maxItems: SCOPES.length, uniqueItems: true });

/** An API key as listed: never its secret. */
export const ApiKey = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    prefix: Type.String({ description: 'the first characters of the key, to tell keys apart' }),
    member_id: Uuid(),
    environment: StringEnum(['production', 'development']),
    scopes: Type.Array(Type.String()),
    created_at: Type.String(),
    last_used_at: Nullable(Type.String()),
    revoked_at: Nullable(Type.String()),
  },
  { $id: 'ApiKey' },
);

export const ApiKeyCreated = Type.Object(
  {
    ...ApiKey.properties,
    key: Type.String({ description: 'The secret: shown in this response only, never again' }),
  },
  { $id: 'ApiKeyCreated' },
);

export const ApiKeyParams = Type.Object({ id: Uuid() });

export const CreateApiKeyBody = Type.Object(
  {
    member_id: Uuid({ description: 'the member the key acts as; an owner’s only by an owner' }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, default: 'API key' })),
    scopes: Type.Optional({
      ...ScopeList,
      minItems: 1,
      description: `default: all ${SCOPES.length}; a key with none could do nothing (422)`,
    }),
    environment: Type.Optional(
      StringEnum(['production', 'development'], {
        default: 'production',
        description: 'production gives xpk_live_…, development xpk_dev_…',
      }),
    ),
  },
  { additionalProperties: false },
);
