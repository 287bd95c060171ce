import { createContext, type ComponentChildren } from 'preact';
import { useContext } from 'preact/hooks';
import type { Schemas } from './client';

export type Session = Schemas['Session'];
type Role = Session['member']['role'];

const ROLES: readonly Role[] = ['guest', 'viewer', 'member', 'manager', 'admin', 'owner'];

/** What the signed-in person may do, for showing only the buttons that will work. */
export interface SignedIn {
  readonly session: Session;
  /** Whether the member's role is `role` or stronger. */
  atLeast: (role: Role) => boolean;
  /** Whether the session holds a scope (the role allows it and the plan opens it). */
  can: (scope: string) => boolean;
  /** Replaces the session (after a sign-in) or clears it (after a sign-out). */
  setSession: (session: Session | null) => void;
}

const SessionContext = createContext<SignedIn | null>(null);

export function SessionProvider(props: {
  session: Session;
  setSession: (session: Session | null) => void;
  children: ComponentChildren;
}) {
  const { session } = props;
  const value: SignedIn = {
    session,
    atLeast: (role) => ROLES.indexOf(session.member.role) >= ROLES.indexOf(role),
    can: (scope) => session.scopes.includes(scope),
    setSession: props.setSession,
  };
  return <SessionContext.Provider value={value}>{props.children}</SessionContext.Provider>;
}

/** The signed-in person; screens behind sign-in only. */
export function useSignedIn(): SignedIn {
  const value = useContext(SessionContext);
  if (value === null) throw new Error('useSignedIn outside a signed-in screen');
  return value;
}
