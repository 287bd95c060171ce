import type { Db } from '../../db/database.js';
import { fetchPage, type Ordering, type Page, type PageRequest } from '../../db/pages.js';
import type { CommentTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';

export type CommentRow = CommentTable;

const COLUMNS = [
  'id',
  'workspace_id',
  'entity_type',
  'entity_id',
  'parent_id',
  'body',
  'status',
  'is_pinned',
  'author_id',
  'mentioned_user_ids',
  'entity_references',
  'created_at',
  'updated_at',
  'edited_at',
  'deleted_at',
] as const;

/** Comments by id, inserted, updated. Deleted ones stay findable: they keep their slot. */
export const comments = workspaceTable('comments', COLUMNS);

/** Oldest first; comments of the same moment in id order. */
const OLDEST_FIRST: Ordering = { columns: ['created_at', 'id'], direction: 'asc' };

/** One record's comments, replies and deleted ones included, oldest first. */
export function listCommentRows(
  db: Db,
  workspaceId: string,
  entity: { type: string; id: string },
  page: PageRequest,
): Promise<Page<CommentRow>> {
  const query = db
    .selectFrom('comments')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('entity_type', '=', entity.type)
    .where('entity_id', '=', entity.id);
  return fetchPage(query, OLDEST_FIRST, page);
}
