import type { Db } from '../../db/database.js';
import { fetchPage, type Ordering, type Page, type PageRequest } from '../../db/pages.js';
import type { DemandSignalTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';

export type DemandSignalRow = DemandSignalTable;

const COLUMNS = [
  'id',
  'workspace_id',
  'genus',
  'genus_key',
  'source_type',
  'demand_score',
  'source',
  'observed_at',
  'recorded_by',
  'created_at',
] as const;

/** Demand signals by id, inserted; never changed (the history is kept). */
export const demandSignals = workspaceTable('demand_signals', COLUMNS);

/** Newest observation first; signals observed at the same moment, the later recorded first. */
const NEWEST_OBSERVED: Ordering = { columns: ['observed_at', 'id'], direction: 'desc' };

const signalsOf = (db: Db, workspaceId: string, genusKey: string | null) => {
  const query = db
    .selectFrom('demand_signals')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId);
  return genusKey === null ? query : query.where('genus_key', '=', genusKey);
};

export function listDemandRows(
  db: Db,
  workspaceId: string,
  genusKey: string | null,
  page: PageRequest,
): Promise<Page<DemandSignalRow>> {
  return fetchPage(signalsOf(db, workspaceId, genusKey), NEWEST_OBSERVED, page);
}

/** The latest signal of a genus (lower-cased), in the list's order. */
export function latestDemandRow(
  db: Db,
  workspaceId: string,
  genusKey: string,
): Promise<DemandSignalRow | undefined> {
  return signalsOf(db, workspaceId, genusKey)
    .orderBy('observed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
