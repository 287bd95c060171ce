import type { IncomingHttpHeaders } from 'node:http';
import type { Routes } from '../../kernel/routes/index.js';
import { cookieValue } from '../../kernel/request-auth.js';
import { clearedSessionCookie, sessionCookie, sessionCookieName } from './cookie.js';
import {
  Session,
  SessionsEnded,
  SignInLink,
  SignInLinkHolder,
  SignInLinkParams,
  SignInLinksRevoked,
} from './sessions.schemas.js';
import {
  describeSession,
  describeSignInLink,
  endAllSessions,
  endSession,
  mintSignInLinkFor,
  revokeSignInLinksOf,
  startSession,
} from './sessions.service.js';

/**
 * Where links for people point: PUBLIC_URL when set, else the address the admin
 * opened the console at (the Origin a console write carries, checked as its own).
 */
function linkBase(publicUrl: string, publicUrlSet: boolean, headers: IncomingHttpHeaders): string {
  if (publicUrlSet) return publicUrl;
  if (typeof headers.origin === 'string' && /^https?:\/\/[^/]+$/.test(headers.origin)) {
    return headers.origin;
  }
  return typeof headers.host === 'string' ? `http://${headers.host}` : publicUrl;
}

const SESSION = { credentials: 'session', scope: null, plan: 'any' } as const;

export function registerSessionRoutes(
  routes: Routes,
  deps: { publicUrlSet: boolean; sessionLifetimeMs: number },
): void {
  const lifetimeMs = deps.sessionLifetimeMs;
  routes.read({
    url: '/api/v1/sign-in-link',
    operationId: 'describeSignInLink',
    tags: ['Sessions'],
    summary: 'Whom a sign-in link signs in',
    description:
      'The member and workspace a personal sign-in link (its secret sent as the bearer token, ' +
      'as for `POST /api/v1/session`) signs in, and until when it works, **without using it**: ' +
      'the link still works once afterwards. The sign-in page asks it first, and when the ' +
      'browser is already signed in (`GET /api/v1/session`) as someone else, or in another ' +
      'workspace, names both and asks before it switches. A used, revoked or expired link ' +
      'answers 401 as it would on sign-in. Never cached.',
    credentials: 'sign-in-link',
    scope: null,
    plan: 'any',
    failureCode: 'SESSION_QUERY_FAILED',
    data: SignInLinkHolder,
    handler: async (_req, ctx) => ({
      data: await describeSignInLink(ctx.db, ctx.principal),
      headers: { 'cache-control': 'no-store' },
    }),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/session',
    operationId: 'startSession',
    tags: ['Sessions'],
    summary: 'Sign in with a sign-in link',
    description:
      'Exchanges a personal sign-in link (the secret after `#` in its URL, sent as the bearer ' +
      'token) for a console session: an HttpOnly, SameSite=Strict cookie (Secure when PUBLIC_URL ' +
      'is https) that acts as the member with every scope their role allows. A link works once, ' +
      'within 15 minutes, until a newer link is made for the member, they sign out everywhere, ' +
      'or an admin revokes their links. A session ends 30 days after sign-in ' +
      '(VITRO_SESSION_LIFETIME), after 30 days unused, on sign-out, or when the member is ' +
      'removed. A session cookie sent along (someone else signed in on this browser) is ended: ' +
      'ask `GET /api/v1/sign-in-link` first to name whom the link signs in. Takes no body.',
    credentials: 'sign-in-link',
    scope: null,
    plan: 'any',
    failureCode: 'SESSION_CREATE_FAILED',
    idempotency: 'ignore',
    data: Session,
    handler: async (req, ctx) => {
      const replaced = cookieValue(req.headers.cookie, sessionCookieName(ctx.publicUrl));
      const started = await startSession(ctx.trx, ctx.principal, replaced, ctx.now, lifetimeMs);
      const { token, session } = started;
      const cookie = sessionCookie(ctx.publicUrl, token, session.expires_at, ctx.now);
      return { data: session, headers: { 'set-cookie': cookie } };
    },
  });

  routes.read({
    ...SESSION,
    url: '/api/v1/session',
    operationId: 'getSession',
    tags: ['Sessions'],
    summary: 'Who is signed in',
    description:
      'The signed-in member, their workspace, what they may do, and when the session ends. ' +
      'Renews the cookie.',
    failureCode: 'SESSION_QUERY_FAILED',
    data: Session,
    handler: async (req, ctx) => {
      const session = await describeSession(
        ctx.db,
        ctx.principal.workspaceId,
        ctx.principal.credentialId,
        lifetimeMs,
      );
      const token = cookieValue(req.headers.cookie, sessionCookieName(ctx.publicUrl))!;
      const cookie = sessionCookie(ctx.publicUrl, token, session.expires_at, ctx.now);
      return { data: session, headers: { 'set-cookie': cookie } };
    },
  });

  routes.write({
    ...SESSION,
    method: 'DELETE',
    url: '/api/v1/session',
    operationId: 'endSession',
    tags: ['Sessions'],
    summary: 'Sign out',
    description: 'Ends this session and removes its cookie.',
    failureCode: 'SESSION_END_FAILED',
    idempotency: 'ignore',
    data: SessionsEnded,
    handler: async (_req, ctx) => ({
      data: { ended_sessions: await endSession(ctx.trx, ctx.principal, ctx.now) },
      headers: { 'set-cookie': clearedSessionCookie(ctx.publicUrl) },
    }),
  });

  routes.write({
    ...SESSION,
    method: 'DELETE',
    url: '/api/v1/sessions',
    operationId: 'endAllSessions',
    tags: ['Sessions'],
    summary: 'Sign out everywhere',
    description:
      'Ends every session of the signed-in member, on every device and browser, this one too, ' +
      'and revokes their unused sign-in links.',
    failureCode: 'SESSION_END_FAILED',
    idempotency: 'ignore',
    data: SessionsEnded,
    handler: async (_req, ctx) => ({
      data: { ended_sessions: await endAllSessions(ctx.trx, ctx.principal, ctx.now) },
      headers: { 'set-cookie': clearedSessionCookie(ctx.publicUrl) },
    }),
  });

  routes.write({
    ...SESSION,
    method: 'POST',
    url: '/api/v1/members/:id/sign-in-links',
    operationId: 'createSignInLink',
    tags: ['Members'],
    summary: 'Mint a sign-in link',
    description:
      'A personal sign-in link for an active member, to hand over: it works once, within 15 ' +
      'minutes, and its secret is in the URL fragment, which no server log sees. Shown in this ' +
      "response only. The member's older unused links stop working. Only an owner may mint an " +
      "owner's link. Takes no body.",
    role: 'admin',
    failureCode: 'SIGN_IN_LINK_CREATE_FAILED',
    params: SignInLinkParams,
    notFound: 'Member',
    idempotency: 'ignore',
    data: SignInLink,
    handler: async (req, ctx) => ({
      data: await mintSignInLinkFor(
        ctx.trx,
        ctx.principal,
        req.params.id,
        linkBase(ctx.publicUrl, deps.publicUrlSet, req.headers),
        ctx.now,
      ),
    }),
  });

  routes.write({
    ...SESSION,
    method: 'DELETE',
    url: '/api/v1/members/:id/sign-in-links',
    operationId: 'revokeSignInLinks',
    tags: ['Members'],
    summary: "Revoke a member's sign-in links",
    description:
      'Every sign-in link of the member that could still sign in (unused, within its 15 ' +
      'minutes) stops working at once; their sessions go on (`vitro member sign-out`, or ' +
      'removing the member, ends those). Revoking when there is none answers 0. Only an owner ' +
      "may revoke an owner's links.",
    role: 'admin',
    failureCode: 'SIGN_IN_LINK_REVOKE_FAILED',
    params: SignInLinkParams,
    notFound: 'Member',
    data: SignInLinksRevoked,
    handler: async (req, ctx) => ({
      data: await revokeSignInLinksOf(ctx.trx, ctx.principal, req.params.id, ctx.now),
    }),
  });
}
