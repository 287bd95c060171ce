import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import type { MemberTable } from '../../db/schema.js';
import { SCOPES, type Role } from '../../kernel/access.js';
import { AppError, errors } from '../../kernel/errors.js';
import { parseJsonArray } from '../../kernel/json.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import {
  addMember,
  createApiKey,
  removeMember,
  revokeApiKey,
  setMemberRole,
} from './identity.service.js';
import {
  apiKeyPage,
  findWorkspaceApiKey,
  findWorkspaceMember,
  memberPage,
} from './management.repository.js';
import type {
  AddMemberBody,
  ApiKey,
  ApiKeyCreated,
  CreateApiKeyBody,
  Member,
} from './management.schemas.js';

/*
 * Members and API keys as an admin or owner manages them from the console. The
 * rules beyond the route's role (admin or above): whatever makes, touches or acts
 * as an owner needs an owner, so an admin cannot make themselves one; and nobody
 * changes their own role or removes themselves, so a workspace never loses its
 * last owner by a slip.
 */

export type MemberRecord = Static<typeof Member>;
export type ApiKeyRecord = Static<typeof ApiKey>;

export function presentMember(row: MemberTable): MemberRecord {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role as Role,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function presentApiKey(row: {
  id: string;
  name: string;
  prefix: string;
  member_id: string;
  environment: string;
  scopes: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    member_id: row.member_id,
    environment: row.environment === 'development' ? 'development' : 'production',
    scopes: parseJsonArray(row.scopes).filter((s): s is string => typeof s === 'string'),
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
  };
}

function ownerOnly(what: string): AppError {
  return new AppError('FORBIDDEN', `Only an owner may ${what}`);
}

/**
 * A member of the actor's workspace that the actor may manage (404 like an
 * unknown id for another workspace's); an owner only by an owner.
 */
export async function requireManageableMember(
  db: Db,
  actor: Principal,
  memberId: string,
  what: string,
): Promise<MemberTable> {
  const member = await findWorkspaceMember(db, actor.workspaceId, memberId);
  if (member === undefined) throw errors.notFound('Member');
  if (member.role === 'owner' && actor.role !== 'owner') throw ownerOnly(`${what} an owner`);
  return member;
}

export async function listWorkspaceMembers(
  db: Db,
  workspaceId: string,
  page: PageRequest,
): Promise<Page<MemberRecord>> {
  const rows = await memberPage(db, workspaceId, page);
  return { items: rows.items.map(presentMember), nextKey: rows.nextKey };
}

export async function addWorkspaceMember(
  trx: Trx,
  actor: Principal,
  body: Static<typeof AddMemberBody>,
): Promise<MemberRecord> {
  if (body.role === 'owner' && actor.role !== 'owner') throw ownerOnly('add an owner');
  const row = await addMember(trx, {
    workspaceId: actor.workspaceId,
    name: body.name,
    email: body.email ?? null,
    role: body.role,
  });
  return presentMember(row);
}

function refuseSelf(actor: Principal, member: MemberTable, what: string): void {
  if (member.id === actor.memberId) {
    throw new AppError(
      'FORBIDDEN',
      `You cannot ${what} yourself; another admin or owner can (a workspace keeps its owners)`,
    );
  }
}

export async function changeMemberRole(
  trx: Trx,
  actor: Principal,
  memberId: string,
  role: Role,
): Promise<MemberRecord> {
  const member = await requireManageableMember(trx, actor, memberId, 'change the role of');
  refuseSelf(actor, member, 'change the role of');
  if (role === 'owner' && actor.role !== 'owner') throw ownerOnly('make a member an owner');
  if (member.status !== 'active') throw errors.validation('member: has been removed');
  return presentMember(await setMemberRole(trx, member.id, role));
}

/**
 * What else removing a member does, in the same transaction: the sessions module
 * ends their console sessions and revokes their unused sign-in links.
 */
export type MemberRemoved = (
  trx: Trx,
  member: { id: string; workspace_id: string },
  now: string,
) => Promise<void>;

/** The member's keys, sessions and unused sign-in links stop working from the next request. */
export async function removeWorkspaceMember(
  trx: Trx,
  actor: Principal,
  memberId: string,
  removed: MemberRemoved,
  now: string,
): Promise<MemberRecord> {
  const member = await requireManageableMember(trx, actor, memberId, 'remove');
  refuseSelf(actor, member, 'remove');
  if (member.status !== 'active') return presentMember(member);
  const row = await removeMember(trx, member.id);
  await removed(trx, row, now);
  return presentMember(row);
}

export async function listWorkspaceApiKeys(
  db: Db,
  workspaceId: string,
  page: PageRequest,
): Promise<Page<ApiKeyRecord>> {
  const rows = await apiKeyPage(db, workspaceId, page);
  return { items: rows.items.map(presentApiKey), nextKey: rows.nextKey };
}

export async function createWorkspaceApiKey(
  trx: Trx,
  actor: Principal,
  body: Static<typeof CreateApiKeyBody>,
): Promise<Static<typeof ApiKeyCreated>> {
  const member = await requireManageableMember(trx, actor, body.member_id, 'create a key for');
  if (member.status !== 'active') throw errors.validation('member_id: has been removed');
  const created = await createApiKey(trx, {
    memberId: member.id,
    ...(body.name === undefined ? {} : { name: body.name }),
    scopes: body.scopes ?? SCOPES,
    ...(body.environment === undefined ? {} : { environment: body.environment }),
  });
  const row = await findWorkspaceApiKey(trx, actor.workspaceId, created.id);
  return { ...presentApiKey(row!), key: created.key };
}

/** Revoking a revoked key answers it as it is, with its first `revoked_at`. */
export async function revokeWorkspaceApiKey(
  trx: Trx,
  actor: Principal,
  keyId: string,
): Promise<ApiKeyRecord> {
  const key = await findWorkspaceApiKey(trx, actor.workspaceId, keyId);
  if (key === undefined) throw errors.notFound('API key');
  await requireManageableMember(trx, actor, key.member_id, 'revoke a key of');
  if (key.revoked_at === null) await revokeApiKey(trx, key.id);
  return presentApiKey((await findWorkspaceApiKey(trx, actor.workspaceId, key.id))!);
}
