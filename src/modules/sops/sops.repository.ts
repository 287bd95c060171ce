import type { Db, Trx } from '../../db/database.js';
import type { SopTable, SopVersionTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';

export type SopRow = SopTable;
export type SopVersionRow = SopVersionTable;

export const sops = workspaceTable('sops', [
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
]);

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
