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

/** Where to go back to after signing in (a signed-out visit to a record's address). */
const NEXT_KEY = 'vitro.next';
const NEXT_TTL_MS = 30 * 60 * 1000;

export function rememberNext(path: string): void {
  if (!path.startsWith('/') || path.startsWith('//')) return;
  try {
    localStorage.setItem(NEXT_KEY, JSON.stringify({ path, at: Date.now() }));
  } catch {
    // Private mode without storage: the person lands on the home screen instead.
  }
}

export function takeNext(): string {
  try {
    const raw = localStorage.getItem(NEXT_KEY);
    localStorage.removeItem(NEXT_KEY);
    if (raw === null) return '/';
    const saved = JSON.parse(raw) as { path?: unknown; at?: unknown };
    const fresh = typeof saved.at === 'number' && Date.now() - saved.at < NEXT_TTL_MS;
    const path = typeof saved.path === 'string' ? saved.path : '/';
    return fresh && path.startsWith('/') && !path.startsWith('//') && !isSignInPath(path)
      ? path
      : '/';
  } catch {
    return '/';
  }
}

export const isSignInPath = (path: string) =>
  path === '/sign-in' || path.startsWith('/sign-in?') || path.startsWith('/signed-out');
