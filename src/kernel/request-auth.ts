import type { FastifyRequest } from 'fastify';
import type { AccessRule } from './authorize.js';
import { AppError, errors } from './errors.js';
import type { Authenticator, Principal, SessionAuthenticator } from './principal.js';

/** The value of one cookie of a `Cookie` header, or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (header === undefined) return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) {
      const value = part.slice(at + 1).trim();
      return value === '' ? null : value;
    }
  }
  return null;
}

/**
 * Where a request comes from, as the browser says it: `same` (the console's own
 * origin), `cross` (any other origin or site) or `unknown` (a browser said
 * nothing: a navigation, a same-origin GET of an older browser, a script).
 * `Origin` is compared with the address the request was sent to (its Host) and
 * with PUBLIC_URL, so a console opened as http://lab-server:3000 without
 * PUBLIC_URL is its own origin too.
 */
export function requestOrigin(
  req: FastifyRequest,
  publicUrl: string,
): 'same' | 'cross' | 'unknown' {
  const fetchSite = req.headers['sec-fetch-site'];
  const origin = req.headers.origin;
  let same = false;
  if (typeof fetchSite === 'string') {
    if (fetchSite === 'same-origin') same = true;
    else if (fetchSite !== 'none') return 'cross';
  }
  if (typeof origin === 'string') {
    if (!isOwnOrigin(origin, req.headers.host, publicUrl)) return 'cross';
    same = true;
  }
  return same ? 'same' : 'unknown';
}

function isOwnOrigin(origin: string, host: string | undefined, publicUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // `null` (a sandboxed frame, a file) and anything unreadable
  }
  if (url.origin === new URL(publicUrl).origin) return true;
  return host !== undefined && url.host.toLowerCase() === host.toLowerCase();
}

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * Whether a request presented a credential (a key, token or sign-in link in
 * `Authorization`, or a session cookie): only those count as failed credentials
 * when refused. A request with none (a browser asking whether it is signed in)
 * costs no lookup and does not count.
 */
export function presentsCredential(req: FastifyRequest, cookieName: string): boolean {
  const authorization = req.headers.authorization;
  if (authorization !== undefined && authorization !== '') return true;
  return cookieValue(req.headers.cookie, cookieName) !== null;
}

function bearerSecret(authorization: string | undefined): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) {
    throw errors.unauthorized(
      "Send the sign-in link's secret (the part after #) as Authorization: Bearer <secret>",
    );
  }
  return match[1]!;
}

/**
 * Who is calling, from the request's credentials: an API key or device token in
 * `Authorization`, or the console's session cookie; a sign-in link only where the
 * operation exchanges one for a session. A session is honoured only on requests
 * from the console's own origin, and a write under a session must say so
 * (`Origin` or `Sec-Fetch-Site`): a cross-site form or fetch gets 403 before
 * anything runs. A request may not carry both a key and a session, unless it
 * comes from another origin, where the cookie is never honoured and the key
 * alone counts (a lab's own browser tools, see CORS_ORIGINS).
 */
export async function authenticateRequest(
  req: FastifyRequest,
  rule: AccessRule,
  auth: { authenticate: Authenticator; sessions: SessionAuthenticator; publicUrl: string },
): Promise<Principal> {
  const authorization = req.headers.authorization;
  if (rule.credentials === 'sign-in-link') {
    return auth.sessions.signInLink(bearerSecret(authorization));
  }
  const cookie = cookieValue(req.headers.cookie, auth.sessions.cookieName);
  if (cookie === null) return auth.authenticate(authorization);
  const origin = requestOrigin(req, auth.publicUrl);
  if (authorization !== undefined && authorization !== '') {
    if (origin === 'cross') return auth.authenticate(authorization);
    throw errors.unauthorized(
      'Send either an API key (Authorization) or the console session cookie, not both',
    );
  }
  if (origin === 'cross') {
    // Never honoured from another origin: a read is answered as if no cookie came;
    // a write is refused as the cross-site request it is.
    if (!WRITES.has(req.method)) {
      throw errors.unauthorized(
        'The console session is not honoured on requests from another origin; send an API key',
      );
    }
    throw new AppError(
      'FORBIDDEN',
      "A change under a console session must come from the console's own origin; " +
        'nothing was changed',
    );
  }
  if (WRITES.has(req.method) && origin !== 'same') {
    throw new AppError(
      'FORBIDDEN',
      'A change under a console session must come from the console (Origin or ' +
        'Sec-Fetch-Site missing); nothing was changed',
    );
  }
  return auth.sessions.session(cookie);
}
