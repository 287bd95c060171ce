import type { Db } from '../../db/database.js';
import { fetchPage, NEWEST_FIRST, type Page, type PageRequest } from '../../db/pages.js';
import type { AssetTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';

export type AssetRow = AssetTable;

const COLUMNS = [
  'id',
  'workspace_id',
  'target',
  'target_id',
  'kind',
  'file_name',
  'content_type',
  'byte_size',
  'storage_key',
  'caption',
  'captured_at',
  'uploaded_by',
  'created_at',
] as const;

export const assets = workspaceTable('assets', COLUMNS);

/** The files of one record, newest first. */
export function listAssetsOf(
  db: Db,
  workspaceId: string,
  target: string,
  targetId: string,
  page: PageRequest,
): Promise<Page<AssetRow>> {
  const query = db
    .selectFrom('assets')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('target', '=', target)
    .where('target_id', '=', targetId);
  return fetchPage(query, NEWEST_FIRST, page);
}
