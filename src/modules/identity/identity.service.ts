import type { Db, Trx } from '../../db/database.js';
import {
  isFeature,
  isPlan,
  isRole,
  type Feature,
  type Plan,
  type Role,
  type Scope,
} from '../../kernel/access.js';
import { generateCredential, type Environment } from '../../kernel/credentials.js';
import { errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { nowIso } from '../../kernel/time.js';
import { installDefaultStageLists } from '../records/index.js';
import {
  findActiveMemberByEmail,
  findApiKey,
  findMember,
  findMemberInWorkspace,
  listApiKeys as listApiKeyRows,
  listMembers as listMemberRows,
  findWorkspace,
  insertApiKey,
  insertMember,
  insertWorkspace,
  revokeApiKey as revokeApiKeyRow,
  updateMember,
  updateWorkspace,
  listWorkspaces as listWorkspaceRows,
  type ListedApiKey,
  type MemberRow,
  type WorkspaceRow,
} from './identity.repository.js';

export type { ListedApiKey, MemberRow, WorkspaceRow } from './identity.repository.js';

export const WORKSPACE_TYPES = ['lab', 'team'] as const;

/** Days between subcultures unless a lab sets another (an import's `workspace.subculture_interval_days`). */
export const DEFAULT_SUBCULTURE_INTERVAL_DAYS = 28;

export interface NewWorkspace {
  name: string;
  plan?: string;
  type?: string;
  id?: string;
}

function requirePlan(plan: string): Plan {
  if (!isPlan(plan)) {
    throw errors.validation(`plan: must be one of free, hobby, pro_lab, teams, enterprise`);
  }
  return plan;
}

function requireRole(role: string): Role {
  if (!isRole(role)) {
    throw errors.validation('role: must be one of guest, viewer, member, manager, admin, owner');
  }
  return role;
}

function requireName(value: string, field: string, max = 200): string {
  const name = value.trim();
  if (name === '' || name.length > max) {
    throw errors.validation(`${field}: must be 1 to ${max} characters`);
  }
  return name;
}

/** A workspace with the default stage lists, in the caller's transaction. */
export async function createWorkspace(trx: Trx, input: NewWorkspace): Promise<WorkspaceRow> {
  const type = input.type ?? 'lab';
  if (!(WORKSPACE_TYPES as readonly string[]).includes(type)) {
    throw errors.validation('type: must be lab or team');
  }
  const at = nowIso();
  const row: WorkspaceRow = {
    id: input.id ?? newId(),
    name: requireName(input.name, 'name'),
    type,
    plan: requirePlan(input.plan ?? 'teams'),
    features: null,
    device_allowance: null,
    event_seq: 0,
    last_event_at: null,
    created_at: at,
    updated_at: at,
    subculture_interval_days: DEFAULT_SUBCULTURE_INTERVAL_DAYS,
    sop_runs_require_all_steps: 0,
    time_zone: 'UTC',
  };
  await insertWorkspace(trx, row);
  await installDefaultStageLists(trx, row.id);
  return row;
}

/** An IANA time zone name the runtime knows (`Europe/Berlin`, `UTC`), as it names it; else 422. */
function requireTimeZone(name: string): string {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    throw errors.validation(
      `time_zone: "${name}" is not a time zone; use an IANA name such as Europe/Berlin or UTC`,
    );
  }
}

export async function hasAnyWorkspace(db: Db): Promise<boolean> {
  return (await listWorkspaceRows(db)).length > 0;
}

/**
 * Name, type, device allowance (null = the plan's default), subculture interval and
 * the SOP run rule, as an import or the lab settings set them.
 */
export async function updateWorkspaceSettings(
  trx: Trx,
  id: string,
  settings: {
    name?: string;
    type?: string;
    device_allowance?: number | null;
    subculture_interval_days?: number;
    sop_runs_require_all_steps?: boolean;
    time_zone?: string;
  },
  at: string = nowIso(),
): Promise<void> {
  if (
    settings.type !== undefined &&
    !(WORKSPACE_TYPES as readonly string[]).includes(settings.type)
  ) {
    throw errors.validation('type: must be lab or team');
  }
  await updateWorkspace(trx, id, {
    ...(settings.name === undefined ? {} : { name: requireName(settings.name, 'name') }),
    ...(settings.type === undefined ? {} : { type: settings.type }),
    ...(settings.device_allowance === undefined
      ? {}
      : { device_allowance: settings.device_allowance }),
    ...(settings.subculture_interval_days === undefined
      ? {}
      : { subculture_interval_days: settings.subculture_interval_days }),
    ...(settings.sop_runs_require_all_steps === undefined
      ? {}
      : { sop_runs_require_all_steps: settings.sop_runs_require_all_steps ? 1 : 0 }),
    ...(settings.time_zone === undefined ? {} : { time_zone: requireTimeZone(settings.time_zone) }),
    updated_at: at,
  });
}

export async function getWorkspace(db: Db, id: string): Promise<WorkspaceRow> {
  const workspace = await findWorkspace(db, id);
  if (workspace === undefined) throw errors.notFound('Workspace');
  return workspace;
}

export async function setWorkspacePlan(trx: Trx, id: string, plan: string): Promise<WorkspaceRow> {
  await getWorkspace(trx, id);
  await updateWorkspace(trx, id, { plan: requirePlan(plan), updated_at: nowIso() });
  return getWorkspace(trx, id);
}

/** Sets the explicit feature set (`[]` = none); parsing of a comma list is the caller's. */
export async function setWorkspaceFeatures(
  trx: Trx,
  id: string,
  features: readonly string[],
): Promise<Feature[]> {
  const unknown = features.filter((f) => !isFeature(f));
  if (unknown.length > 0) {
    throw errors.validation(
      `features: unknown feature ${unknown.join(', ')}; use pricing, commerce, equipment_calibration`,
    );
  }
  const set = [...new Set(features)] as Feature[];
  await getWorkspace(trx, id);
  await updateWorkspace(trx, id, { features: JSON.stringify(set), updated_at: nowIso() });
  return set;
}

export interface NewMember {
  workspaceId: string;
  name: string;
  email?: string | null;
  role: string;
  id?: string;
}

/** A plausible email address: something@domain.tld, no spaces, at most 254 characters. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Adds an active member; an email must look like one and not be another active member's. */
export async function addMember(trx: Trx, input: NewMember): Promise<MemberRow> {
  await getWorkspace(trx, input.workspaceId);
  const email = input.email?.trim() ?? null;
  if (email !== null) {
    if (email.length > 254 || !EMAIL.test(email)) {
      throw errors.validation(`email: "${email}" is not an email address`);
    }
    const holder = await findActiveMemberByEmail(trx, input.workspaceId, email);
    if (holder !== undefined) {
      throw errors.conflict(
        'DUPLICATE_ENTRY',
        `email: ${email} is already the email of member ${holder.id} (${holder.name}) in this workspace`,
      );
    }
  }
  const at = nowIso();
  const row: MemberRow = {
    id: input.id ?? newId(),
    workspace_id: input.workspaceId,
    name: requireName(input.name, 'name'),
    email,
    role: requireRole(input.role),
    status: 'active',
    created_at: at,
    updated_at: at,
  };
  await insertMember(trx, row);
  return row;
}

export async function getMember(db: Db, id: string): Promise<MemberRow> {
  const member = await findMember(db, id);
  if (member === undefined) throw errors.notFound('Member');
  return member;
}

/** Whether `id` is an active member of the workspace; a removed one, or another workspace's, is not. */
export async function isActiveMember(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const member = await findMemberInWorkspace(db, workspaceId, id);
  return member?.status === 'active';
}

export async function setMemberRole(trx: Trx, id: string, role: string): Promise<MemberRow> {
  await getMember(trx, id);
  await updateMember(trx, id, { role: requireRole(role), updated_at: nowIso() });
  return getMember(trx, id);
}

/** A removed member's keys stop working at once (authentication checks the owner). */
export async function removeMember(trx: Trx, id: string): Promise<MemberRow> {
  await getMember(trx, id);
  await updateMember(trx, id, { status: 'removed', updated_at: nowIso() });
  return getMember(trx, id);
}

export interface NewApiKey {
  memberId: string;
  name?: string;
  scopes: readonly Scope[];
  environment?: string;
}

export interface CreatedApiKey {
  id: string;
  key: string;
  prefix: string;
  scopes: Scope[];
  environment: Environment;
  workspace_id: string;
  member_id: string;
}

/** Creates a key; the full secret is in the result and nowhere else (only its SHA-256 is kept). */
export async function createApiKey(trx: Trx, input: NewApiKey): Promise<CreatedApiKey> {
  const member = await getMember(trx, input.memberId);
  if (member.status !== 'active') throw errors.validation('member: has been removed');
  const environment = input.environment ?? 'production';
  if (environment !== 'production' && environment !== 'development') {
    throw errors.validation('environment: must be production or development');
  }
  const credential = generateCredential('key', environment);
  const id = newId();
  await insertApiKey(trx, {
    id,
    workspace_id: member.workspace_id,
    member_id: member.id,
    name: requireName(input.name ?? 'API key', 'name'),
    prefix: credential.displayPrefix,
    key_hash: credential.hash,
    scopes: JSON.stringify(input.scopes),
    environment,
    created_at: nowIso(),
    last_used_at: null,
    revoked_at: null,
  });
  return {
    id,
    key: credential.secret,
    prefix: credential.displayPrefix,
    scopes: [...input.scopes],
    environment,
    workspace_id: member.workspace_id,
    member_id: member.id,
  };
}

export async function revokeApiKey(
  trx: Trx,
  id: string,
): Promise<{ id: string; revoked_at: string }> {
  const key = await findApiKey(trx, id);
  if (key === undefined) throw errors.notFound('API key');
  await revokeApiKeyRow(trx, id, nowIso());
  const revoked = await findApiKey(trx, id);
  return { id, revoked_at: revoked!.revoked_at! };
}

/** Every workspace, oldest first. */
export function listWorkspaces(db: Db): Promise<WorkspaceRow[]> {
  return listWorkspaceRows(db);
}

/** A workspace's members, oldest first, removed ones too (404 for an unknown workspace). */
export async function listMembers(db: Db, workspaceId: string): Promise<MemberRow[]> {
  await getWorkspace(db, workspaceId);
  return listMemberRows(db, workspaceId);
}

/** A workspace's API keys, oldest first, revoked ones too; never their hashes. */
export async function listApiKeys(db: Db, workspaceId: string): Promise<ListedApiKey[]> {
  await getWorkspace(db, workspaceId);
  return listApiKeyRows(db, workspaceId);
}
