import type { Db, Trx } from '../../db/database.js';
import { diffFields } from '../../kernel/changes.js';
import {
  findSopVersionOwners,
  listSopVersions,
  sops,
  sopVersions,
  supersedeEffectiveVersions,
  type SopRow,
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

/** The ids among `ids` that an SOP of another workspace already has. */
export const sopIdsUsedElsewhere = sops.idsHeldElsewhere;

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
  trx: Trx,
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
  const existing = await sops.find(trx, workspaceId, sop.id);
  if (existing === undefined) {
    await sops.insert(trx, {
      id: sop.id,
      workspace_id: workspaceId,
      ...fields,
      created_at: now,
      updated_at: now,
    });
  }
  let changed =
    existing !== undefined && Object.keys(diffFields(existing, fields, SOP_FIELDS)).length > 0;
  for (const version of sop.versions) {
    if ((await saveVersion(trx, workspaceId, sop.id, version, now)) !== 'unchanged') {
      changed = true;
    }
  }
  const effective = sop.versions.find((v) => v.lifecycle_status === 'effective');
  if (
    effective !== undefined &&
    (await supersedeEffectiveVersions(trx, workspaceId, sop.id, effective.id)) > 0
  ) {
    changed = true;
  }
  if (existing !== undefined && changed) {
    await sops.update(trx, workspaceId, sop.id, { ...fields, updated_at: now });
  }
}

function saveVersion(
  trx: Trx,
  workspaceId: string,
  sopId: string,
  version: SopVersionInput,
  now: string,
) {
  const fields = {
    version: version.version,
    lifecycle_status: version.lifecycle_status,
    effective_at: version.effective_at,
    approved_at: version.approved_at,
    title: version.title,
    description: version.description,
    steps: JSON.stringify(version.steps),
  };
  return sopVersions.save(trx, workspaceId, version.id, fields, {
    insert: () => ({
      id: version.id,
      workspace_id: workspaceId,
      sop_id: sopId,
      ...fields,
      created_at: now,
    }),
  });
}

/** SOPs' ids by title and versions' by number, for matching imported ones sent without an id. */
export const sopIdentities = (db: Db, workspaceId: string) =>
  sops.identities(db, workspaceId, ['title']);
export const sopVersionIdentities = (db: Db, workspaceId: string) =>
  sopVersions.identities(db, workspaceId, ['sop_id', 'version']);
