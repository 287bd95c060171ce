import type { Db, Trx } from '../../db/database.js';
import { preparedQuery } from '../../db/prepared.js';
import type { WhereInterface } from 'kysely';
import type { DB, SessionTable, SignInLinkTable } from '../../db/schema.js';

export type SignInLinkRow = SignInLinkTable;
export type SessionRow = SessionTable;

export async function insertSignInLink(trx: Trx, row: SignInLinkRow): Promise<void> {
  await trx.insertInto('sign_in_links').values(row).execute();
}

const linkForAuth = preparedQuery((db, p: { tokenHash: string }) =>
  db
    .selectFrom('sign_in_links as l')
    .innerJoin('members as m', 'm.id', 'l.member_id')
    .innerJoin('workspaces as w', 'w.id', 'l.workspace_id')
    .select([
      'l.id',
      'l.workspace_id',
      'l.member_id',
      'l.created_at',
      'l.expires_at',
      'l.used_at',
      'l.revoked_at',
      'm.name as member_name',
      'm.role',
      'm.status as member_status',
      'm.workspace_id as member_workspace_id',
      'w.plan',
      'w.features',
    ])
    .where('l.token_hash', '=', p.tokenHash),
);

/** A sign-in link by its secret's SHA-256, with its member and workspace. */
export function findSignInLinkForAuth(db: Db, tokenHash: string) {
  return linkForAuth.first(db, { tokenHash });
}

/** Whom a link signs in (its member and workspace), and until when. */
export async function findSignInLinkHolder(db: Db, workspaceId: string, id: string) {
  return db
    .selectFrom('sign_in_links as l')
    .innerJoin('members as m', 'm.id', 'l.member_id')
    .innerJoin('workspaces as w', 'w.id', 'l.workspace_id')
    .select([
      'l.expires_at',
      'l.member_id',
      'l.workspace_id',
      'm.name as member_name',
      'm.role',
      'w.name as workspace_name',
    ])
    .where('l.workspace_id', '=', workspaceId)
    .where('l.id', '=', id)
    .executeTakeFirst();
}

/** Narrows an update to the links that could still sign someone in at `now`. */
function stillUsable(now: string) {
  return <Q extends WhereInterface<DB, 'sign_in_links'>>(query: Q): Q =>
    query
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now) as Q;
}

/**
 * Marks a link used, if it still can be: one statement, so of two requests
 * racing with the same link only one gets a session.
 */
export async function redeemSignInLink(
  trx: Trx,
  workspaceId: string,
  id: string,
  now: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('sign_in_links')
    .set({ used_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .$call(stillUsable(now))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Revokes every link of a member that could still sign in (unused, unexpired, not
 * revoked); says how many there were.
 */
export async function revokeMemberLinkRows(
  trx: Trx,
  workspaceId: string,
  memberId: string,
  at: string,
): Promise<number> {
  const result = await trx
    .updateTable('sign_in_links')
    .set({ revoked_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('member_id', '=', memberId)
    .$call(stillUsable(at))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function insertSession(trx: Trx, row: SessionRow): Promise<void> {
  await trx.insertInto('sessions').values(row).execute();
}

const sessionForAuth = preparedQuery((db, p: { tokenHash: string }) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('members as m', 'm.id', 's.member_id')
    .innerJoin('workspaces as w', 'w.id', 's.workspace_id')
    .select([
      's.id',
      's.workspace_id',
      's.member_id',
      's.created_at',
      's.last_used_at',
      's.ended_at',
      'm.role',
      'm.status as member_status',
      'm.workspace_id as member_workspace_id',
      'w.plan',
      'w.features',
    ])
    .where('s.token_hash', '=', p.tokenHash),
);

/** A session by its cookie's SHA-256, with its member and workspace: what authentication needs. */
export function findSessionForAuth(db: Db, tokenHash: string) {
  return sessionForAuth.first(db, { tokenHash });
}

export async function touchSession(db: Db, id: string, at: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_used_at: at })
    .where('id', '=', id)
    .where('ended_at', 'is', null)
    .execute();
}

export async function findSession(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<SessionRow | undefined> {
  return db
    .selectFrom('sessions')
    .select([
      'id',
      'workspace_id',
      'member_id',
      'token_hash',
      'created_at',
      'last_used_at',
      'ended_at',
    ])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function endSessionRow(
  trx: Trx,
  workspaceId: string,
  id: string,
  at: string,
): Promise<void> {
  await trx
    .updateTable('sessions')
    .set({ ended_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('ended_at', 'is', null)
    .execute();
}

/** Ends every live session of a member; says how many there were. */
export async function endMemberSessionRows(
  trx: Trx,
  workspaceId: string,
  memberId: string,
  at: string,
): Promise<number> {
  const result = await trx
    .updateTable('sessions')
    .set({ ended_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('member_id', '=', memberId)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Ends the session whose cookie this is, if it is live (a new sign-in replaces it). */
export async function endSessionByHash(trx: Trx, tokenHash: string, at: string): Promise<void> {
  await trx
    .updateTable('sessions')
    .set({ ended_at: at })
    .where('token_hash', '=', tokenHash)
    .where('ended_at', 'is', null)
    .execute();
}

/** Deletes links and sessions that can never sign anyone in again. */
export async function deleteFinished(
  db: Db,
  before: { linksBefore: string; endedBefore: string; unusedBefore: string; createdBefore: string },
): Promise<void> {
  await db.deleteFrom('sign_in_links').where('expires_at', '<', before.linksBefore).execute();
  await db
    .deleteFrom('sessions')
    .where((w) =>
      w.or([
        w('ended_at', '<', before.endedBefore),
        w('last_used_at', '<', before.unusedBefore),
        w('created_at', '<', before.createdBefore),
      ]),
    )
    .execute();
}
