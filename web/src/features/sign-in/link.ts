import { api, call, type Answer } from '../../api/client';
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
