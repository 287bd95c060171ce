import type { Db } from '../../db/database.js';
import {
  fetchPage,
  NEWEST_FIRST,
  type Ordering,
  type Page,
  type PageRequest,
} from '../../db/pages.js';
import type { EquipmentEventTable, EquipmentTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';
import { withinWindow, type TimeWindow } from '../../kernel/window.js';

export type EquipmentRow = EquipmentTable;
export type EquipmentEventRow = EquipmentEventTable;

const EQUIPMENT_COLUMNS = [
  'id',
  'workspace_id',
  'name',
  'category',
  'status',
  'manufacturer',
  'model',
  'serial_number',
  'location',
  'purchase_date',
  'vendor_url',
  'notes',
  'last_calibrated_at',
  'next_calibration_due_at',
  'last_maintenance_at',
  'next_maintenance_due_at',
  'created_at',
  'updated_at',
] as const;

const EVENT_COLUMNS = [
  'id',
  'workspace_id',
  'equipment_id',
  'kind',
  'occurred_at',
  'outcome',
  'subject_type',
  'subject_id',
  'subject_label',
  'performed_by_name',
  'provider',
  'as_found_condition',
  'as_left_condition',
  'result_summary',
  'certificate_number',
  'certificate_url',
  'next_due_at',
  'notes',
  'recorded_by',
  'recorded_at',
] as const;

export const equipment = workspaceTable('equipment', EQUIPMENT_COLUMNS);

/** Equipment events are append-only: inserted, never updated or deleted. */
export const equipmentEvents = workspaceTable('equipment_events', EVENT_COLUMNS);

/** The equipment library, newest first, optionally of one category and/or status. */
export function listEquipmentRows(
  db: Db,
  workspaceId: string,
  filters: { category: string | null; status: string | null },
  page: PageRequest,
): Promise<Page<EquipmentRow>> {
  let query = db
    .selectFrom('equipment')
    .select(EQUIPMENT_COLUMNS)
    .where('workspace_id', '=', workspaceId);
  if (filters.category !== null) query = query.where('category', '=', filters.category);
  if (filters.status !== null) query = query.where('status', '=', filters.status);
  return fetchPage(query, NEWEST_FIRST, page);
}

const BY_OCCURRED_AT: Ordering = { columns: ['occurred_at', 'id'], direction: 'desc' };

/** One piece of equipment's events, newest first, optionally of one kind, within a window. */
export function listEquipmentEventRows(
  db: Db,
  workspaceId: string,
  equipmentId: string,
  filters: { kind: string | null; window: TimeWindow },
  page: PageRequest,
): Promise<Page<EquipmentEventRow>> {
  let query = db
    .selectFrom('equipment_events')
    .select(EVENT_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('equipment_id', '=', equipmentId);
  if (filters.kind !== null) query = query.where('kind', '=', filters.kind);
  return fetchPage(withinWindow(query, 'occurred_at', filters.window), BY_OCCURRED_AT, page);
}

/** The equipment of the workspace with exactly this name (what imports match it on). */
export function findEquipmentByName(
  db: Db,
  workspaceId: string,
  name: string,
): Promise<EquipmentRow[]> {
  return db
    .selectFrom('equipment')
    .select(EQUIPMENT_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('name', '=', name)
    .execute();
}
