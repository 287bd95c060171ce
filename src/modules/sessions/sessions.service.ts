import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { effectiveScopes, isPlan, type Role } from '../../kernel/access.js';
import { hashCredential } from '../../kernel/credentials.js';
import { errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import type { Principal } from '../../kernel/principal.js';
import { getMember, getWorkspace, requireManageableMember } from '../identity/index.js';
import {
  LINK_PREFIX,
  newSecret,
  SESSION_IDLE_MS,
  SESSION_PREFIX,
  sessionEndsAt,
  SIGN_IN_LINK_MS,
} from './cookie.js';
import { scopesOfRole } from './sessions.authenticate.js';
import {
  deleteFinished,
  endMemberSessionRows,
  endSessionByHash,
  endSessionRow,
  findSession,
  findSignInLinkHolder,
  insertSession,
  insertSignInLink,
  redeemSignInLink,
  revokeMemberLinkRows,
} from './sessions.repository.js';
import type {
  Session,
  SignInLink,
  SignInLinkHolder,
  SignInLinksRevoked,
} from './sessions.schemas.js';

export type SessionRecord = Static<typeof Session>;
export type SignInLinkRecord = Static<typeof SignInLink>;
export type SignInLinkHolderRecord = Static<typeof SignInLinkHolder>;

const later = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString();

/** The console's sign-in page, with the secret in the fragment: browsers never send it. */
export function signInUrl(baseUrl: string, secret: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/sign-in#${secret}`;
}

/**
 * A personal sign-in link for an active member: it works once, within 15
 * minutes. Only its SHA-256 is kept; the URL is in the result and nowhere else.
 * The member's older unused links stop working: the newest one is the only one.
 */
export async function mintSignInLink(
  trx: Trx,
  input: { workspaceId: string; memberId: string; createdBy: string | null; baseUrl: string },
  now: string,
): Promise<SignInLinkRecord> {
  const member = await getMember(trx, input.memberId);
  if (member.workspace_id !== input.workspaceId) throw errors.notFound('Member');
  if (member.status !== 'active') {
    throw errors.validation(`member: ${member.name} has been removed and cannot sign in`);
  }
  const secret = newSecret(LINK_PREFIX);
  const expiresAt = later(now, SIGN_IN_LINK_MS);
  await revokeMemberLinkRows(trx, member.workspace_id, member.id, now);
  await insertSignInLink(trx, {
    id: newId(),
    workspace_id: member.workspace_id,
    member_id: member.id,
    token_hash: hashCredential(secret),
    created_by: input.createdBy,
    created_at: now,
    expires_at: expiresAt,
    used_at: null,
    revoked_at: null,
  });
  return { member_id: member.id, url: signInUrl(input.baseUrl, secret), expires_at: expiresAt };
}

/** From the console's Members page: an admin or owner mints a link for a member of the workspace. */
export async function mintSignInLinkFor(
  trx: Trx,
  actor: Principal,
  memberId: string,
  baseUrl: string,
  now: string,
): Promise<SignInLinkRecord> {
  const member = await requireManageableMember(trx, actor, memberId, 'mint a sign-in link for');
  return mintSignInLink(
    trx,
    { workspaceId: actor.workspaceId, memberId: member.id, createdBy: actor.memberId, baseUrl },
    now,
  );
}

/** From the CLI (`vitro member link`): a link for any active member. */
export async function mintSignInLinkForMember(
  trx: Trx,
  memberId: string,
  baseUrl: string,
  now: string,
): Promise<SignInLinkRecord> {
  const member = await getMember(trx, memberId);
  return mintSignInLink(
    trx,
    { workspaceId: member.workspace_id, memberId, createdBy: null, baseUrl },
    now,
  );
}

/**
 * Whom the sign-in link that authenticated the request signs in, and until when,
 * without using it: the console's sign-in page asks before it switches a browser
 * already signed in as someone else.
 */
export async function describeSignInLink(db: Db, link: Principal): Promise<SignInLinkHolderRecord> {
  const row = await findSignInLinkHolder(db, link.workspaceId, link.credentialId);
  if (row === undefined) throw errors.unauthorized('This is not a sign-in link of this server');
  return {
    member: { id: row.member_id, name: row.member_name, role: row.role as Role },
    workspace: { id: row.workspace_id, name: row.workspace_name },
    expires_at: row.expires_at,
  };
}

/**
 * Exchanges the sign-in link that authenticated the request for a new session:
 * the link is used up in the same transaction, so of two requests with one link
 * only one signs in. A session cookie sent along (someone else's, or an older
 * one) is ended: the new sign-in replaces it.
 */
export async function startSession(
  trx: Trx,
  link: Principal,
  replacedToken: string | null,
  now: string,
  lifetimeMs: number,
): Promise<{ token: string; session: SessionRecord }> {
  if (!(await redeemSignInLink(trx, link.workspaceId, link.credentialId, now))) {
    throw errors.unauthorized(
      'This sign-in link was already used or revoked (each link works once); ask an admin for a new one',
    );
  }
  if (replacedToken !== null) await endSessionByHash(trx, hashCredential(replacedToken), now);
  const token = newSecret(SESSION_PREFIX);
  const id = newId();
  await insertSession(trx, {
    id,
    workspace_id: link.workspaceId,
    member_id: link.memberId!,
    token_hash: hashCredential(token),
    created_at: now,
    last_used_at: now,
    ended_at: null,
  });
  return { token, session: await describeSession(trx, link.workspaceId, id, lifetimeMs) };
}

/** Who is signed in: member, workspace, what they may do, and when the session ends. */
export async function describeSession(
  db: Db,
  workspaceId: string,
  sessionId: string,
  lifetimeMs: number,
): Promise<SessionRecord> {
  const row = await findSession(db, workspaceId, sessionId);
  if (row === undefined) throw errors.unauthorized('Your console session has ended; sign in again');
  const member = await getMember(db, row.member_id);
  const workspace = await getWorkspace(db, row.workspace_id);
  const role = member.role as Role;
  const plan = isPlan(workspace.plan) ? workspace.plan : 'free';
  return {
    id: row.id,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    expires_at: sessionEndsAt(row, lifetimeMs),
    member: { id: member.id, name: member.name, email: member.email, role },
    workspace: { id: workspace.id, name: workspace.name, plan: workspace.plan },
    scopes: effectiveScopes(scopesOfRole(role), role, plan),
  };
}

/** Sign-out: this session ends now. */
export async function endSession(trx: Trx, principal: Principal, now: string): Promise<number> {
  await endSessionRow(trx, principal.workspaceId, principal.credentialId, now);
  return 1;
}

/**
 * A member signed out everywhere: every session ends and every unused sign-in
 * link stops working, now. Sign out everywhere, `vitro member sign-out` and
 * removing a member all come here.
 */
export async function signOutEverywhere(
  trx: Trx,
  workspaceId: string,
  memberId: string,
  now: string,
): Promise<{ ended_sessions: number; revoked_links: number }> {
  const ended = await endMemberSessionRows(trx, workspaceId, memberId, now);
  const revoked = await revokeMemberLinkRows(trx, workspaceId, memberId, now);
  return { ended_sessions: ended, revoked_links: revoked };
}

/** Sign out everywhere: every session of the signed-in member ends now, this one too. */
export async function endAllSessions(trx: Trx, principal: Principal, now: string): Promise<number> {
  const done = await signOutEverywhere(trx, principal.workspaceId, principal.memberId!, now);
  return done.ended_sessions;
}

/** `vitro member sign-out`: every session of the member ends, every unused link is revoked. */
export async function signOutMember(
  trx: Trx,
  memberId: string,
  now: string,
): Promise<{ member_id: string; ended_sessions: number; revoked_links: number }> {
  const member = await getMember(trx, memberId);
  return {
    member_id: member.id,
    ...(await signOutEverywhere(trx, member.workspace_id, member.id, now)),
  };
}

/** A member removed (API or CLI): signed out everywhere in the same transaction. */
export async function signOutRemovedMember(
  trx: Trx,
  member: { id: string; workspace_id: string },
  now: string,
): Promise<void> {
  await signOutEverywhere(trx, member.workspace_id, member.id, now);
}

/** An admin or owner revokes a member's unused sign-in links (an owner's: an owner only). */
export async function revokeSignInLinksOf(
  trx: Trx,
  actor: Principal,
  memberId: string,
  now: string,
): Promise<Static<typeof SignInLinksRevoked>> {
  const member = await requireManageableMember(trx, actor, memberId, 'revoke the sign-in links of');
  const revoked = await revokeMemberLinkRows(trx, actor.workspaceId, member.id, now);
  return { member_id: member.id, revoked_links: revoked };
}

/** `vitro member revoke-links`: a member's unused sign-in links stop working. */
export async function revokeSignInLinksOfMember(
  trx: Trx,
  memberId: string,
  now: string,
): Promise<Static<typeof SignInLinksRevoked>> {
  const member = await getMember(trx, memberId);
  const revoked = await revokeMemberLinkRows(trx, member.workspace_id, member.id, now);
  return { member_id: member.id, revoked_links: revoked };
}

/**
 * Drops links expired, and sessions ended, a day ago; sessions unused for the idle
 * time, and sessions past their lifetime.
 */
export function purgeFinishedSessions(
  db: Db,
  lifetimeMs: number,
  now: Date = new Date(),
): Promise<void> {
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const dayAgo = ago(24 * 60 * 60 * 1000);
  return deleteFinished(db, {
    linksBefore: dayAgo,
    endedBefore: dayAgo,
    unusedBefore: ago(SESSION_IDLE_MS),
    createdBefore: ago(lifetimeMs),
  });
}
