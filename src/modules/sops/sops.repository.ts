import type { Db } from '../../db/database.js';
import type { SopTable, SopVersionTable } from '../../db/schema.js';

export type SopRow = SopTable;
export type SopVersionRow = SopVersionTable;

export type SopChanges = Partial<Omit<SopRow, 'id' | 'workspace_id' | 'created_at'>>;
export type SopVersionChanges = Partial<
  Omit<SopVersionRow, 'id' | 'workspace_id' | 'sop_id' | 'created_at'>
>;

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

export async function findSop(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<SopRow | undefined> {
  return db
    .selectFrom('sops')
    .select(SOP_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertSop(db: Db, row: SopRow): Promise<void> {
  await db.insertInto('sops').values(row).execute();
}

export async function updateSop(
  db: Db,
  workspaceId: string,
  id: string,
  changes: SopChanges,
): Promise<void> {
  await db
    .updateTable('sops')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

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

export async function insertSopVersion(db: Db, row: SopVersionRow): Promise<void> {
  await db.insertInto('sop_versions').values(row).execute();
}

export async function updateSopVersion(
  db: Db,
  workspaceId: string,
  id: string,
  changes: SopVersionChanges,
): Promise<void> {
  await db
    .updateTable('sop_versions')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** Marks every effective version of the SOP except `keepId` as superseded; returns how many. */
export async function supersedeEffectiveVersions(
  db: Db,
  workspaceId: string,
  sopId: string,
  keepId: string,
): Promise<number> {
  const result = await db
    .updateTable('sop_versions')
    .set({ lifecycle_status: 'superseded' })
    .where('workspace_id', '=', workspaceId)
    .where('sop_id', '=', sopId)
    .where('lifecycle_status', '=', 'effective')
    .where('id', '!=', keepId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The workspace of each of these ids, whichever it is: for refusing ids another workspace holds. */
export async function findSopOwners(
  db: Db,
  ids: readonly string[],
): Promise<{ id: string; workspace_id: string }[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('sops').select(['id', 'workspace_id']).where('id', 'in', ids).execute();
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
