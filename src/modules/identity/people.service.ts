import type { Db } from '../../db/database.js';
import type { Page, PageRequest } from '../../db/pages.js';
import { listPersonRows, type PersonRow } from './people.repository.js';

export type { PersonRow } from './people.repository.js';

/**
 * The workspace's people by name, removed ones too unless `status` says otherwise:
 * the history names members who have left. Only what every member may know.
 */
export function listPeople(
  db: Db,
  workspaceId: string,
  filter: { status?: string },
  page: PageRequest,
): Promise<Page<PersonRow>> {
  return listPersonRows(db, workspaceId, filter, page);
}
