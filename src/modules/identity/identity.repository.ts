import { sql } from 'kysely';
import type { Db, Trx } from '../../db/database.js';
import { preparedQuery } from '../../db/prepared.js';
import type { ApiKeyTable, MemberTable, WorkspaceTable } from '../../db/schema.js';

export type WorkspaceRow = WorkspaceTable;
export type MemberRow = MemberTable;
export type ApiKeyRow = ApiKeyTable;
export type ListedApiKey = Omit<ApiKeyRow, 'key_hash'>;

const WORKSPACE_COLUMNS = [
  'id',
  'name',
  'type',
  'plan',
  'features',
  'device_allowance',
  'event_seq',
  'last_event_at',
  'created_at',
  'updated_at',
  'subculture_interval_days',
  'sop_runs_require_all_steps',
  'time_zone',
] as const;

export const MEMBER_COLUMNS = [
  'id',
  'workspace_id',
  'name',
  'email',
  'role',
  'status',
  'created_at',
  'updated_at',
] as const;

const KEY_COLUMNS = [
  'id',
  'workspace_id',
  'member_id',
  'name',
  'prefix',
  'key_hash',
  'scopes',
  'environment',
  'created_at',
  'last_used_at',
  'revoked_at',
] as const;

export async function insertWorkspace(trx: Trx, row: WorkspaceRow): Promise<void> {
  await trx.insertInto('workspaces').values(row).execute();
}

export async function findWorkspace(db: Db, id: string): Promise<WorkspaceRow | undefined> {
  return db
    .selectFrom('workspaces')
    .select(WORKSPACE_COLUMNS)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function listWorkspaces(db: Db): Promise<WorkspaceRow[]> {
  return db.selectFrom('workspaces').select(WORKSPACE_COLUMNS).orderBy('created_at').execute();
}

export async function updateWorkspace(
  trx: Trx,
  id: string,
  changes: Partial<
    Pick<
      WorkspaceRow,
      | 'name'
      | 'type'
      | 'plan'
      | 'features'
      | 'device_allowance'
      | 'subculture_interval_days'
      | 'sop_runs_require_all_steps'
      | 'time_zone'
    >
  > & {
    updated_at: string;
  },
): Promise<boolean> {
  const result = await trx
    .updateTable('workspaces')
    .set(changes)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function insertMember(trx: Trx, row: MemberRow): Promise<void> {
  await trx.insertInto('members').values(row).execute();
}

export async function findMember(db: Db, id: string): Promise<MemberRow | undefined> {
  return db.selectFrom('members').select(MEMBER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function findMemberInWorkspace(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<MemberRow | undefined> {
  return db
    .selectFrom('members')
    .select(MEMBER_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function firstMemberWithRole(
  db: Db,
  workspaceId: string,
  role: string,
): Promise<MemberRow | undefined> {
  return db
    .selectFrom('members')
    .select(MEMBER_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', role)
    .where('status', '=', 'active')
    .orderBy('created_at')
    .executeTakeFirst();
}

export async function updateMember(
  trx: Trx,
  id: string,
  changes: Partial<Pick<MemberRow, 'role' | 'status' | 'name' | 'email'>> & { updated_at: string },
): Promise<void> {
  await trx.updateTable('members').set(changes).where('id', '=', id).execute();
}

/** A workspace's members, oldest first (removed ones included). */
export async function listMembers(db: Db, workspaceId: string): Promise<MemberRow[]> {
  return db
    .selectFrom('members')
    .select(MEMBER_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** An active member of the workspace with this email (any case), if any. */
export async function findActiveMemberByEmail(
  db: Db,
  workspaceId: string,
  email: string,
): Promise<MemberRow | undefined> {
  return db
    .selectFrom('members')
    .select(MEMBER_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'active')
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

/** A workspace's keys (revoked ones included), oldest first; never their hashes. */
export async function listApiKeys(db: Db, workspaceId: string): Promise<ListedApiKey[]> {
  return db
    .selectFrom('api_keys')
    .select(KEY_COLUMNS.filter((c): c is Exclude<typeof c, 'key_hash'> => c !== 'key_hash'))
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertApiKey(trx: Trx, row: ApiKeyRow): Promise<void> {
  await trx.insertInto('api_keys').values(row).execute();
}

export async function findApiKey(db: Db, id: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').select(KEY_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function revokeApiKey(trx: Trx, id: string, at: string): Promise<void> {
  await trx
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

const keyForAuth = preparedQuery((db, p: { keyHash: string }) =>
  db
    .selectFrom('api_keys as k')
    .innerJoin('members as m', 'm.id', 'k.member_id')
    .innerJoin('workspaces as w', 'w.id', 'k.workspace_id')
    .select([
      'k.id',
      'k.workspace_id',
      'k.member_id',
      'k.name',
      'k.prefix',
      'k.scopes',
      'k.environment',
      'k.created_at',
      'k.last_used_at',
      'k.revoked_at',
      'm.role',
      'm.status as member_status',
      'm.workspace_id as member_workspace_id',
      'w.plan',
      'w.features',
    ])
    .where('k.key_hash', '=', p.keyHash),
);

/** The key, its owner and its workspace in one read: what authentication needs. */
export async function findKeyForAuth(db: Db, keyHash: string) {
  return keyForAuth.first(db, { keyHash });
}

export async function touchApiKey(db: Db, id: string, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}
