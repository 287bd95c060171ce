import Type from 'typebox';
import { ROLES } from '../../kernel/access.js';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';

/** Who is signed in to the console, and what they may do. */
export const Session = Type.Object(
  {
    id: Uuid(),
    created_at: Type.String(),
    last_used_at: Type.String(),
    expires_at: Type.String({ description: 'when it ends unless used again (30 days unused)' }),
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
