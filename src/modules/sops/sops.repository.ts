import type { Db, Trx } from '../../db/database.js';
import { fetchPage, type Ordering, type Page, type PageRequest } from '../../db/pages.js';
import type { SopTable, SopVersionTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';

export type SopRow = SopTable;
export type SopVersionRow = SopVersionTable;

const SOP_COLUMNS = [
  'id',
  'workspace_id',
  'title',
  'description',
  'category',
  'status',
  'level',
  'tags',
  'equipment',
  'estimated_time_minutes',
  'duration_hours',
  'created_at',
  'updated_at',
] as const;

export const sops = workspaceTable('sops', SOP_COLUMNS);

const VERSION_COLUMNS = [
  'id',
  'workspace_id',
  'sop_id',
  'version',
  'lifecycle_status',
  'effective_at',
  'approved_at',
  'title',
  'description',
  'steps',
  'created_at',
] as const;

export const sopVersions = workspaceTable('sop_versions', VERSION_COLUMNS);

/** Every stored version of one SOP, lowest version first. */
export async function listSopVersions(
  db: Db,
  workspaceId: string,
  sopId: string,
): Promise<SopVersionRow[]> {
  return db
    .selectFrom('sop_versions')
    .select(VERSION_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('sop_id', '=', sopId)
    .orderBy('version')
    .execute();
}

/** Marks every effective version of the SOP except `keepId` as superseded; returns how many. */
export async function supersedeEffectiveVersions(
  trx: Trx,
  workspaceId: string,
  sopId: string,
  keepId: string,
): Promise<number> {
  const result = await trx
    .updateTable('sop_versions')
    .set({ lifecycle_status: 'superseded' })
    .where('workspace_id', '=', workspaceId)
    .where('sop_id', '=', sopId)
    .where('lifecycle_status', '=', 'effective')
    .where('id', '!=', keepId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The workspace and SOP of each of these version ids, whichever they are. */
export async function findSopVersionOwners(
  db: Db,
  ids: readonly string[],
): Promise<{ id: string; workspace_id: string; sop_id: string }[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('sop_versions')
    .select(['id', 'workspace_id', 'sop_id'])
    .where('id', 'in', ids)
    .execute();
}

/** Most recently updated first; ties in a fixed order. */
const BY_UPDATED: Ordering = { columns: ['updated_at', 'id'], direction: 'desc' };

/** A page of the workspace's SOPs, drafts and archived ones included. */
export function listSopRows(db: Db, workspaceId: string, page: PageRequest): Promise<Page<SopRow>> {
  return fetchPage(
    db.selectFrom('sops').select(SOP_COLUMNS).where('workspace_id', '=', workspaceId),
    BY_UPDATED,
    page,
  );
}

/** The version in force of each of these SOPs that has one (at most one each). */
export async function findEffectiveVersions(
  db: Db,
  workspaceId: string,
  sopIds: readonly string[],
): Promise<SopVersionRow[]> {
  if (sopIds.length === 0) return [];
  return db
    .selectFrom('sop_versions')
    .select(VERSION_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('sop_id', 'in', sopIds)
    .where('lifecycle_status', '=', 'effective')
    .orderBy('version', 'desc')
    .execute();
}

/** The highest version number stored of each of these SOPs that has a version. */
export async function latestVersionNumbers(
  db: Db,
  workspaceId: string,
  sopIds: readonly string[],
): Promise<Map<string, number>> {
  if (sopIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('sop_versions')
    .select((eb) => ['sop_id', eb.fn.max('version').as('latest')])
    .where('workspace_id', '=', workspaceId)
    .where('sop_id', 'in', sopIds)
    .groupBy('sop_id')
    .execute();
  return new Map(rows.map((row) => [row.sop_id, Number(row.latest)]));
}

/** The SOPs of the workspace with exactly this title (what imports match SOPs on). */
export function findSopsByTitle(db: Db, workspaceId: string, title: string): Promise<SopRow[]> {
  return db
    .selectFrom('sops')
    .select(SOP_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('title', '=', title)
    .execute();
}

/** Newest version first. */
const BY_VERSION: Ordering = { columns: ['version', 'id'], direction: 'desc' };

/** A page of one SOP's versions, every lifecycle, newest first. */
export function listSopVersionRows(
  db: Db,
  workspaceId: string,
  sopId: string,
  page: PageRequest,
): Promise<Page<SopVersionRow>> {
  return fetchPage(
    db
      .selectFrom('sop_versions')
      .select(VERSION_COLUMNS)
      .where('workspace_id', '=', workspaceId)
      .where('sop_id', '=', sopId),
    BY_VERSION,
    page,
  );
}
