import type { Db } from '../../db/database.js';
import { diffFields } from '../../kernel/changes.js';
import {
  findSop,
  findSopOwners,
  findSopVersionOwners,
  insertSop,
  insertSopVersion,
  listSopVersions,
  supersedeEffectiveVersions,
  updateSop,
  updateSopVersion,
  type SopRow,
  type SopVersionRow,
} from './sops.repository.js';

export const SOP_STATUSES = ['draft', 'active', 'archived'] as const;
export const SOP_LEVELS = ['beginner', 'intermediate', 'advanced', 'expert'] as const;
export const SOP_LIFECYCLE_STATUSES = ['effective', 'draft', 'superseded'] as const;
export type SopLifecycleStatus = (typeof SOP_LIFECYCLE_STATUSES)[number];

/** A step as the API shows it (camelCase); a version's steps are stored in this shape. */
export interface SopStep {
  id: string;
  instruction: string;
  notes: string | null;
  safetyWarning: string | null;
  estimatedMinutes: number | null;
}

export interface SopVersionInput {
  id: string;
  version: number;
  lifecycle_status: SopLifecycleStatus;
  effective_at: string | null;
  approved_at: string | null;
  title: string | null;
  description: string | null;
  steps: SopStep[];
}

export interface SopInput {
  id: string;
  title: string;
  description: string | null;
  category: string | null;
  status: string | null;
  level: string | null;
  tags: string[];
  equipment: string[];
  estimated_time_minutes: number | null;
  duration_hours: number | null;
  versions: SopVersionInput[];
}

/** Why a version of an SOP cannot be saved as given. */
export interface SopVersionConflict {
  versionIndex: number;
  field: 'id' | 'version';
  problem: string;
}

const SOP_FIELDS = [
  'title',
  'description',
  'category',
  'status',
  'level',
  'tags',
  'equipment',
  'estimated_time_minutes',
  'duration_hours',
] as const;

const VERSION_FIELDS = [
  'version',
  'lifecycle_status',
  'effective_at',
  'approved_at',
  'title',
  'description',
  'steps',
] as const;

/** The ids among `ids` that an SOP of another workspace already has. */
export async function sopIdsUsedElsewhere(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  const owners = await findSopOwners(db, ids);
  return new Set(owners.filter((o) => o.workspace_id !== workspaceId).map((o) => o.id));
}

/**
 * The first version of `sop` that cannot be saved: its id belongs to another
 * workspace or another SOP, or its number is stored under another id.
 */
export async function findSopVersionConflict(
  db: Db,
  workspaceId: string,
  sop: SopInput,
): Promise<SopVersionConflict | null> {
  const owners = new Map(
    (
      await findSopVersionOwners(
        db,
        sop.versions.map((v) => v.id),
      )
    ).map((o) => [o.id, o]),
  );
  const stored = await listSopVersions(db, workspaceId, sop.id);
  for (const [versionIndex, version] of sop.versions.entries()) {
    const owner = owners.get(version.id);
    if (owner !== undefined && owner.workspace_id !== workspaceId) {
      return { versionIndex, field: 'id', problem: 'already used by another workspace' };
    }
    if (owner !== undefined && owner.sop_id !== sop.id) {
      return { versionIndex, field: 'id', problem: `already a version of SOP ${owner.sop_id}` };
    }
    const sameNumber = stored.find((s) => s.version === version.version && s.id !== version.id);
    if (sameNumber !== undefined) {
      return {
        versionIndex,
        field: 'version',
        problem: `version ${version.version} of this SOP is already stored with id ${sameNumber.id}`,
      };
    }
  }
  return null;
}

/**
 * Inserts or updates an SOP and the versions given (stored versions not given are
 * kept). A version given as effective becomes the one in force: any other stored
 * effective version of the SOP is superseded. Unchanged rows are left untouched.
 */
export async function saveSop(
  db: Db,
  workspaceId: string,
  sop: SopInput,
  now: string,
): Promise<void> {
  const fields: Pick<SopRow, (typeof SOP_FIELDS)[number]> = {
    title: sop.title,
    description: sop.description,
    category: sop.category,
    status: sop.status,
    level: sop.level,
    tags: JSON.stringify(sop.tags),
    equipment: JSON.stringify(sop.equipment),
    estimated_time_minutes: sop.estimated_time_minutes,
    duration_hours: sop.duration_hours,
  };
  const existing = await findSop(db, workspaceId, sop.id);
  if (existing === undefined) {
    await insertSop(db, {
      id: sop.id,
      workspace_id: workspaceId,
      ...fields,
      created_at: now,
      updated_at: now,
    });
  }
  let changed = existing !== undefined && hasChanges(existing, fields, SOP_FIELDS);

  const stored = new Map(
    (await listSopVersions(db, workspaceId, sop.id)).map((row) => [row.id, row]),
  );
  for (const version of sop.versions) {
    if (await saveVersion(db, workspaceId, sop.id, version, stored.get(version.id), now)) {
      changed = true;
    }
  }
  const effective = sop.versions.find((v) => v.lifecycle_status === 'effective');
  if (
    effective !== undefined &&
    (await supersedeEffectiveVersions(db, workspaceId, sop.id, effective.id)) > 0
  ) {
    changed = true;
  }
  if (existing !== undefined && changed) {
    await updateSop(db, workspaceId, sop.id, { ...fields, updated_at: now });
  }
}

/** Inserts or updates one version; true when anything was written. */
async function saveVersion(
  db: Db,
  workspaceId: string,
  sopId: string,
  version: SopVersionInput,
  existing: SopVersionRow | undefined,
  now: string,
): Promise<boolean> {
  const fields: Pick<SopVersionRow, (typeof VERSION_FIELDS)[number]> = {
    version: version.version,
    lifecycle_status: version.lifecycle_status,
    effective_at: version.effective_at,
    approved_at: version.approved_at,
    title: version.title,
    description: version.description,
    steps: JSON.stringify(version.steps),
  };
  if (existing === undefined) {
    await insertSopVersion(db, {
      id: version.id,
      workspace_id: workspaceId,
      sop_id: sopId,
      ...fields,
      created_at: now,
    });
    return true;
  }
  if (!hasChanges(existing, fields, VERSION_FIELDS)) return false;
  await updateSopVersion(db, workspaceId, version.id, fields);
  return true;
}

function hasChanges<R extends object, K extends keyof R & string>(
  row: R,
  next: Pick<R, K>,
  fields: readonly K[],
): boolean {
  return Object.keys(diffFields(row, next, fields)).length > 0;
}
