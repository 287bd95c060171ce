import Type from 'typebox';
import { ROLES } from '../../kernel/access.js';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

/** Who is signed in to the console, and what they may do. */
export const Session = Type.Object(
  {
    id: Uuid(),
    created_at: Type.String(),
    last_used_at: Type.String(),
    expires_at: Type.String({
      description:
        'when it ends: after 30 days unused, and at the latest its lifetime after sign-in ' +
        '(30 days unless VITRO_SESSION_LIFETIME says otherwise), however much it is used',
    }),
    member: Type.Object({
      id: Uuid(),
      name: Type.String(),
      email: Nullable(Type.String()),
      role: StringEnum(ROLES),
    }),
    workspace: Type.Object({
      id: Uuid(),
      name: Type.String(),
      plan: Type.String(),
    }),
    scopes: Type.Array(Type.String(), {
      description: 'what the session may do: the scopes its role allows, narrowed by the plan',
    }),
  },
  { $id: 'Session' },
);

export const SessionsEnded = Type.Object(
  { ended_sessions: Type.Integer({ minimum: 0, description: 'sessions ended by this request' }) },
  { $id: 'SessionsEnded' },
);

export const SignInLink = Type.Object(
  {
    member_id: Uuid(),
    url: Type.String({
      description:
        'Open it to sign in: once, within 15 minutes. The secret after # never reaches a server log. ' +
        'Shown in this response only.',
    }),
    expires_at: Type.String(),
  },
  { $id: 'SignInLink' },
);

export const SignInLinkParams = Type.Object({ id: Uuid() });

/** Whom a sign-in link signs in: what the sign-in page shows before it uses the link. */
export const SignInLinkHolder = Type.Object(
  {
    member: Type.Object({
      id: Uuid(),
      name: Type.String(),
      role: StringEnum(ROLES),
    }),
    workspace: Type.Object({ id: Uuid(), name: Type.String() }),
    expires_at: Type.String({ description: 'the link works once, until then' }),
  },
  { $id: 'SignInLinkHolder' },
);

export const SignInLinksRevoked = Type.Object(
  {
    member_id: Uuid(),
    revoked_links: Type.Integer({
      minimum: 0,
      description: 'unused, unexpired links of the member that stopped working',
    }),
  },
  { $id: 'SignInLinksRevoked' },
);
