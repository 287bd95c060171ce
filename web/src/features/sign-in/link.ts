import { api, call, type Answer, type Schemas } from '../../api/client';
import type { Session } from '../../api/session';

/** The secret of a sign-in link: what follows `#` in it (or the pasted secret itself). */
export function secretOf(text: string): string | null {
  const trimmed = text.trim();
  const secret = trimmed.includes('#') ? trimmed.slice(trimmed.indexOf('#') + 1) : trimmed;
  return /^vsl_[A-Za-z0-9_-]{20,100}$/.test(secret) ? secret : null;
}

/** Exchanges a sign-in link for a session (the server sets the cookie). */
export function signInWith(secret: string): Promise<Answer<Session>> {
  return call(api.POST('/api/v1/session', { headers: { authorization: `Bearer ${secret}` } }));
}

/** Whom a sign-in link signs in, without using it. */
export function holderOf(secret: string): Promise<Answer<Schemas['SignInLinkHolder']>> {
  return call(api.GET('/api/v1/sign-in-link', { headers: { authorization: `Bearer ${secret}` } }));
}

/** Who is signed in on this browser now, if anyone. */
export function currentSession(): Promise<Answer<Session>> {
  return call(api.GET('/api/v1/session'));
}
