import type { Db } from '../../db/database.js';
import { fetchPage, type Ordering, type Page, type PageRequest } from '../../db/pages.js';
import type { MemberTable } from '../../db/schema.js';

/** What any member may know of another: no email, no keys. */
export type PersonRow = Pick<MemberTable, 'id' | 'name' | 'role' | 'status'>;

/** By name, then id (the index members_workspace_name). */
const BY_NAME: Ordering = { columns: ['name', 'id'], direction: 'asc' };

export function listPersonRows(
  db: Db,
  workspaceId: string,
  filter: { status?: string },
  page: PageRequest,
): Promise<Page<PersonRow>> {
  let query = db
    .selectFrom('members')
    .select(['id', 'name', 'role', 'status'])
    .where('workspace_id', '=', workspaceId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  return fetchPage(query, BY_NAME, page);
}
