import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { SopTable } from '../../db/schema.js';
import { AppError, errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import { changedValues, diffFields } from '../../lib/changes.js';
import { checkSopSteps, storedSteps } from './sop-rules.js';
import {
  findSopsByTitle,
  latestVersionNumbers,
  listSopVersionRows,
  sops,
  sopVersions,
  supersedeEffectiveVersions,
  type SopRow,
  type SopVersionRow,
} from './sops.repository.js';
import {
  SOP_FIELDS,
  type CreateSopBody,
  type CreateSopVersionBody,
  type SopVersionDetail,
  type UpdateSopBody,
  type UpdateSopVersionBody,
} from './sops.schemas.js';
import { getSop, indexSop, stepsOf, type SopRecord } from './sops.service.js';

/*
 * SOPs written through the API: the SOP's fields, its draft versions, and making
 * a version the one in force. A version in force or superseded never changes, so
 * a run stays pinned to the steps it started with.
 */

export type SopVersionRecord = Static<typeof SopVersionDetail>;

export function presentVersionDetail(row: SopVersionRow): SopVersionRecord {
  return {
    id: row.id,
    sopId: row.sop_id,
    version: row.version,
    lifecycleStatus: row.lifecycle_status,
    effectiveAt: row.effective_at,
    approvedAt: row.approved_at,
    steps: stepsOf(row),
    title: row.title,
    description: row.description,
    createdAt: row.created_at,
  };
}

/** 409 when another SOP of the workspace has this title (imports match SOPs on it). */
async function requireFreeTitle(
  db: Db,
  workspaceId: string,
  title: string,
  id: string | null,
): Promise<void> {
  const holders = await findSopsByTitle(db, workspaceId, title);
  if (holders.some((row) => row.id !== id)) {
    throw errors.conflict('DUPLICATE_ENTRY', `title: the lab already has an SOP titled "${title}"`);
  }
}

type SopFields = Pick<SopTable, (typeof SOP_FIELDS)[number]>;

/** The stored form of the SOP fields sent (lists as JSON text). */
function sopColumns(input: Static<typeof UpdateSopBody>): Partial<SopFields> {
  const { tags, equipment, ...rest } = input;
  return {
    ...rest,
    ...(tags === undefined ? {} : { tags: JSON.stringify(tags) }),
    ...(equipment === undefined ? {} : { equipment: JSON.stringify(equipment) }),
  };
}

async function insertVersion(
  trx: Trx,
  workspaceId: string,
  sopId: string,
  input: Static<typeof CreateSopVersionBody>,
  version: number,
  now: string,
): Promise<SopVersionRow> {
  checkSopSteps(input.steps, 'steps');
  const row: SopVersionRow = {
    id: newId(),
    workspace_id: workspaceId,
    sop_id: sopId,
    version,
    lifecycle_status: 'draft',
    effective_at: null,
    approved_at: null,
    title: input.title ?? null,
    description: input.description ?? null,
    steps: JSON.stringify(storedSteps(input.steps)),
    created_at: now,
  };
  await sopVersions.insert(trx, row);
  return row;
}

/** POST /sops: a new SOP (its title free in the lab); with `steps`, a draft version 1. */
export async function createSop(
  trx: Trx,
  workspaceId: string,
  input: Static<typeof CreateSopBody>,
  now: string,
): Promise<SopRecord> {
  const { steps, ...fields } = input;
  await requireFreeTitle(trx, workspaceId, input.title, null);
  const row: SopRow = {
    id: newId(),
    workspace_id: workspaceId,
    title: fields.title,
    description: fields.description ?? null,
    category: fields.category ?? null,
    status: fields.status === undefined ? 'active' : fields.status,
    level: fields.level ?? null,
    tags: JSON.stringify(fields.tags ?? []),
    equipment: JSON.stringify(fields.equipment ?? []),
    estimated_time_minutes: fields.estimated_time_minutes ?? null,
    duration_hours: fields.duration_hours ?? null,
    created_at: now,
    updated_at: now,
  };
  await sops.insert(trx, row);
  await indexSop(trx, row);
  if (steps !== undefined) await insertVersion(trx, workspaceId, row.id, { steps }, 1, now);
  return getSop(trx, workspaceId, row.id);
}

async function lockSop(trx: Trx, workspaceId: string, id: string): Promise<SopRow> {
  const row = await sops.lock(trx, workspaceId, id);
  if (row === undefined) throw errors.notFound('SOP');
  return row;
}

/** PATCH /sops/{id}: the SOP's own fields sent change (null clears; a title must stay free). */
export async function updateSop(
  trx: Trx,
  workspaceId: string,
  id: string,
  input: Static<typeof UpdateSopBody>,
  now: string,
): Promise<SopRecord> {
  const row = await lockSop(trx, workspaceId, id);
  const update = changedValues(diffFields(row, sopColumns(input), SOP_FIELDS)) as Partial<SopRow>;
  if (Object.keys(update).length > 0) {
    if (update.title !== undefined) await requireFreeTitle(trx, workspaceId, update.title, id);
    await sops.update(trx, workspaceId, id, { ...update, updated_at: now });
    await indexSop(trx, { ...row, ...update });
  }
  return getSop(trx, workspaceId, id);
}

/** GET /sops/{id}/versions: every version of the SOP, drafts and superseded ones too. */
export async function listVersions(
  db: Db,
  workspaceId: string,
  sopId: string,
  page: PageRequest,
): Promise<Page<SopVersionRecord>> {
  if ((await sops.find(db, workspaceId, sopId)) === undefined) throw errors.notFound('SOP');
  const { items, nextKey } = await listSopVersionRows(db, workspaceId, sopId, page);
  return { items: items.map(presentVersionDetail), nextKey };
}

/** POST /sops/{id}/versions: a draft numbered after the highest version stored. */
export async function createVersion(
  trx: Trx,
  workspaceId: string,
  sopId: string,
  input: Static<typeof CreateSopVersionBody>,
  now: string,
): Promise<SopVersionRecord> {
  await lockSop(trx, workspaceId, sopId);
  const latest = (await latestVersionNumbers(trx, workspaceId, [sopId])).get(sopId) ?? 0;
  const row = await insertVersion(trx, workspaceId, sopId, input, latest + 1, now);
  await sops.update(trx, workspaceId, sopId, { updated_at: now });
  return presentVersionDetail(row);
}

async function lockVersion(
  trx: Trx,
  workspaceId: string,
  sopId: string,
  versionId: string,
): Promise<SopVersionRow> {
  await lockSop(trx, workspaceId, sopId);
  const row = await sopVersions.lock(trx, workspaceId, versionId);
  if (row === undefined || row.sop_id !== sopId) throw errors.notFound('SOP version');
  return row;
}

/** PATCH /sops/{id}/versions/{versionId}: a draft's fields change; any other version is 409. */
export async function updateVersion(
  trx: Trx,
  workspaceId: string,
  sopId: string,
  versionId: string,
  input: Static<typeof UpdateSopVersionBody>,
  now: string,
): Promise<SopVersionRecord> {
  const row = await lockVersion(trx, workspaceId, sopId, versionId);
  if (row.lifecycle_status !== 'draft') {
    throw errors.conflict(
      'CONFLICT',
      `Version ${row.version} is ${row.lifecycle_status}: only a draft can be edited (runs ` +
        'follow the versions that were in force); start a new version instead',
    );
  }
  if (input.steps !== undefined) checkSopSteps(input.steps, 'steps');
  const update: Partial<SopVersionRow> = {
    ...(input.title === undefined ? {} : { title: input.title }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.steps === undefined ? {} : { steps: JSON.stringify(storedSteps(input.steps)) }),
  };
  await sopVersions.update(trx, workspaceId, versionId, update);
  await sops.update(trx, workspaceId, sopId, { updated_at: now });
  return presentVersionDetail({ ...row, ...update });
}

/**
 * POST /sops/{id}/versions/{versionId}/make-effective: the version becomes the one
 * in force (new runs follow it) and the one in force before is superseded; runs
 * already started stay pinned to theirs. A version without steps cannot be (422).
 * The version in force already: nothing changes.
 */
export async function makeVersionEffective(
  trx: Trx,
  workspaceId: string,
  sopId: string,
  versionId: string,
  now: string,
): Promise<SopVersionRecord> {
  const row = await lockVersion(trx, workspaceId, sopId, versionId);
  if (row.lifecycle_status === 'effective') return presentVersionDetail(row);
  if (stepsOf(row).length === 0) {
    throw new AppError(
      'VALIDATION_ERROR',
      `Version ${row.version} has no steps: give it steps before making it effective`,
    );
  }
  const update = {
    lifecycle_status: 'effective',
    effective_at: now,
    approved_at: row.approved_at ?? now,
  };
  await supersedeEffectiveVersions(trx, workspaceId, sopId, versionId);
  await sopVersions.update(trx, workspaceId, versionId, update);
  await sops.update(trx, workspaceId, sopId, { updated_at: now });
  return presentVersionDetail({ ...row, ...update });
}
