import type { Db } from '../../db/database.js';
import { fetchPage, NEWEST_FIRST, type Page, type PageRequest } from '../../db/pages.js';
import type { ContaminationTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';
import type { RecordSource } from '../../kernel/record-lookup.js';

export type ContaminationRow = ContaminationTable;

const COLUMNS = [
  'id',
  'workspace_id',
  'entity_type',
  'entity_id',
  'type',
  'type_other',
  'issue',
  'description',
  'notes',
  'severity',
  'status',
  'suspected_source',
  'observed_at',
  'resolved_at',
  'vessels_affected',
  'plants_affected',
  'affected_vessel_markings',
  'stage',
  'room_id',
  'custom_fields',
  'created_by',
  'created_at',
  'updated_at',
  'deleted_at',
  'resolution_outcome',
  'resolution_notes',
  'resolved_by',
] as const;

/** Contamination logs by id, inserted, listed; withdrawn ones (deleted_at) hidden. */
export const contaminations = workspaceTable('contaminations', COLUMNS, { softDelete: true });

/** How other modules find and lock contaminations (the record lookup's source of kind `contamination`). */
export const contaminationRecords: RecordSource<ContaminationRow> = contaminations;

export interface ContaminationFilter {
  /** Logs of these records; a plant and an explant together match nothing. */
  records: readonly { entityType: string; entityId: string }[];
  status: string | null;
  /** created_at at or after. */
  since: string | null;
  /** Only (true) or never (false) these statuses. */
  open: { statuses: readonly string[]; only: boolean } | null;
}

/** Newest first (created_at, then id), withdrawn logs never listed. */
export function listContaminations(
  db: Db,
  workspaceId: string,
  filter: ContaminationFilter,
  page: PageRequest,
): Promise<Page<ContaminationRow>> {
  let query = db
    .selectFrom('contaminations')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null);
  for (const record of filter.records) {
    query = query
      .where('entity_type', '=', record.entityType)
      .where('entity_id', '=', record.entityId);
  }
  if (filter.status !== null) query = query.where('status', '=', filter.status);
  if (filter.since !== null) query = query.where('created_at', '>=', filter.since);
  if (filter.open !== null) {
    query = query.where('status', filter.open.only ? 'in' : 'not in', [...filter.open.statuses]);
  }
  return fetchPage(query, NEWEST_FIRST, page);
}
