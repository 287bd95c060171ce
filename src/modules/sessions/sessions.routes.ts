import type { IncomingHttpHeaders } from 'node:http';
import type { Routes } from '../../kernel/routes/index.js';
import { cookieValue } from '../../kernel/request-auth.js';
import { clearedSessionCookie, sessionCookie, sessionCookieName } from './cookie.js';
import { Session, SessionsEnded, SignInLink, SignInLinkParams } from './sessions.schemas.js';
import {
  describeSession,
  endAllSessions,
  endSession,
  mintSignInLinkFor,
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

export function registerSessionRoutes(routes: Routes, deps: { publicUrlSet: boolean }): void {
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
      'within 15 minutes; a session ends after 30 days unused, on sign-out, or when the member ' +
      'is removed. Takes no body.',
    credentials: 'sign-in-link',
    scope: null,
    plan: 'any',
    failureCode: 'SESSION_CREATE_FAILED',
    idempotency: 'ignore',
    data: Session,
    handler: async (req, ctx) => {
      const replaced = cookieValue(req.headers.cookie, sessionCookieName(ctx.publicUrl));
      const { token, session } = await startSession(ctx.trx, ctx.principal, replaced, ctx.now);
      return { data: session, headers: { 'set-cookie': sessionCookie(ctx.publicUrl, token) } };
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
      );
      const token = cookieValue(req.headers.cookie, sessionCookieName(ctx.publicUrl))!;
      return { data: session, headers: { 'set-cookie': sessionCookie(ctx.publicUrl, token) } };
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
      'Ends every session of the signed-in member, on every device and browser, this one too.',
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
      "response only. Only an owner may mint an owner's link. Takes no body.",
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
}
