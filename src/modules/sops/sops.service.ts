import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { indexForSearch } from '../search/index.js';
import { errors } from '../../kernel/errors.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { RecordRef, RecordSource } from '../../kernel/record-lookup.js';
import {
  findEffectiveVersions,
  findSopVersionOwners,
  latestVersionNumbers,
  listSopRows,
  listSopVersions,
  sops,
  sopVersions,
  type SopRow,
  type SopVersionRow,
} from './sops.repository.js';
import {
  SOP_LEVELS,
  SOP_LIFECYCLE_STATUSES,
  SOP_STATUSES,
  type Sop,
  type SopSummary,
  type SopVersion,
} from './sops.schemas.js';

export type SopRecord = Static<typeof Sop>;
export type SopSummaryRecord = Static<typeof SopSummary>;
export type SopVersionRecord = Static<typeof SopVersion>;

export { SOP_LEVELS, SOP_LIFECYCLE_STATUSES, SOP_STATUSES };
export type SopLifecycleStatus = (typeof SOP_LIFECYCLE_STATUSES)[number];

/** A reading a step asks for: its metric, its unit and the range accepted (null: open). */
export interface SopStepMeasurement {
  metric: string;
  unit: string;
  min: number | null;
  max: number | null;
}

/**
 * A step as the API shows it (camelCase); a version's steps are stored in this
 * shape (versions stored before steps declared readings have no `measurements`).
 */
export interface SopStep {
  id: string;
  instruction: string;
  notes: string | null;
  safetyWarning: string | null;
  estimatedMinutes: number | null;
  measurements: SopStepMeasurement[];
}

/** Why a version of an SOP cannot be saved as given. */
export interface SopVersionConflict {
  versionIndex: number;
  field: 'id' | 'version';
  problem: string;
}

/**
 * The first version of `sop` that cannot be saved: its id belongs to another
 * workspace or another SOP, or its number is stored under another id.
 */
export async function findSopVersionConflict(
  db: Db,
  workspaceId: string,
  sop: { id: string; versions: readonly { id: string; version: number }[] },
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

const stringList = (text: string) => JSON.parse(text) as string[];
export const stepsOf = (row: SopVersionRow): SopStep[] =>
  (JSON.parse(row.steps) as (Omit<SopStep, 'measurements'> & Partial<SopStep>)[]).map((step) => ({
    ...step,
    measurements: step.measurements ?? [],
  }));

function presentSummary(row: SopRow, currentVersion: number): SopSummaryRecord {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    status: row.status,
    level: row.level,
    tags: stringList(row.tags),
    equipment: stringList(row.equipment),
    estimatedTimeMinutes: row.estimated_time_minutes,
    durationHours: row.duration_hours,
    currentVersion,
    updatedAt: row.updated_at,
    createdAt: row.created_at,
  };
}

function presentVersion(row: SopVersionRow): SopVersionRecord {
  return {
    id: row.id,
    version: row.version,
    lifecycleStatus: 'effective',
    effectiveAt: row.effective_at,
    approvedAt: row.approved_at,
    steps: stepsOf(row),
    title: row.title,
    description: row.description,
  };
}

/**
 * `currentVersion` of each SOP: the number of the version in force, else the
 * highest number stored, else 0. The effective versions are handed in when the
 * caller has them already.
 */
async function currentVersions(
  db: Db,
  workspaceId: string,
  sopIds: readonly string[],
  effective: readonly SopVersionRow[],
): Promise<Map<string, number>> {
  const current = await latestVersionNumbers(db, workspaceId, sopIds);
  for (const version of effective) current.set(version.sop_id, version.version);
  return current;
}

/** GET /sops: summaries, most recently updated first, drafts and archived ones included. */
export async function listSops(
  db: Db,
  workspaceId: string,
  page: PageRequest,
): Promise<Page<SopSummaryRecord>> {
  const { items, nextKey } = await listSopRows(db, workspaceId, page);
  const ids = items.map((row) => row.id);
  const effective = await findEffectiveVersions(db, workspaceId, ids);
  const current = await currentVersions(db, workspaceId, ids, effective);
  return { items: items.map((row) => presentSummary(row, current.get(row.id) ?? 0)), nextKey };
}

/** GET /sops/{id}: the SOP with only the version in force and its steps (null when none is). */
export async function getSop(db: Db, workspaceId: string, id: string): Promise<SopRecord> {
  const row = await sops.find(db, workspaceId, id);
  if (row === undefined) throw errors.notFound('SOP');
  const effective = await findEffectiveVersions(db, workspaceId, [id]);
  const current = await currentVersions(db, workspaceId, [id], effective);
  const inForce = effective[0];
  return {
    ...presentSummary(row, current.get(id) ?? 0),
    version: inForce === undefined ? null : presentVersion(inForce),
  };
}

/** The version a new run of an SOP follows: its id, number and the ids of its steps in order. */
export interface VersionInForce {
  id: string;
  version: number;
  stepIds: string[];
}

/**
 * The version in force of an SOP of the workspace (null when none is), or
 * undefined when the workspace has no such SOP.
 */
export async function findVersionInForce(
  db: Db,
  workspaceId: string,
  sopId: string,
): Promise<{ version: VersionInForce | null } | undefined> {
  if ((await sops.find(db, workspaceId, sopId)) === undefined) return undefined;
  const [inForce] = await findEffectiveVersions(db, workspaceId, [sopId]);
  if (inForce === undefined) return { version: null };
  return {
    version: {
      id: inForce.id,
      version: inForce.version,
      stepIds: stepsOf(inForce).map((step) => step.id),
    },
  };
}

/** A step of one stored version of the workspace (a run's pinned version), if it has it. */
export async function findVersionStep(
  db: Db,
  workspaceId: string,
  versionId: string,
  stepId: string,
): Promise<SopStep | undefined> {
  const version = await sopVersions.find(db, workspaceId, versionId);
  return version === undefined ? undefined : stepsOf(version).find((step) => step.id === stepId);
}

const refOf = (row: SopRow | undefined): (RecordRef & { title: string }) | undefined =>
  row === undefined ? undefined : { id: row.id, created_by: null, title: row.title };

/** SOPs as records other modules name (assets, comments); imported, so without a creator. */
export const sopRecords: RecordSource<RecordRef & { title: string }> = {
  find: async (db, workspaceId, id) => refOf(await sops.find(db, workspaceId, id)),
  lock: async (trx, workspaceId, id) => refOf(await sops.lock(trx, workspaceId, id)),
};

/** What GET /search finds of an SOP; an archived one is left out. */
export function indexSop(trx: Trx, row: SopRow): Promise<void> {
  return indexForSearch(trx, {
    kind: 'sop',
    id: row.id,
    workspaceId: row.workspace_id,
    title: row.title,
    subtitle: row.category,
    names: [row.title],
    fields: [row.description, row.category, ...stringList(row.tags)],
    archived: row.status === 'archived',
  });
}
