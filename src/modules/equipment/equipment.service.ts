import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import type { Page, PageRequest } from '../../db/pages.js';
import { equipment, listEquipmentRows, type EquipmentRow } from './equipment.repository.js';
import type { Equipment } from './equipment.schemas.js';

export {
  EQUIPMENT_CATEGORIES,
  EQUIPMENT_EVENT_KINDS,
  EQUIPMENT_OUTCOMES,
  EQUIPMENT_STATUSES,
  SUBJECT_TYPES,
  type EquipmentEventKind,
  type SubjectType,
} from './equipment.schemas.js';

export type EquipmentRecord = Static<typeof Equipment>;

export function presentEquipment(row: EquipmentRow): EquipmentRecord {
  return {
    id: row.id,
    name: row.name,
    category: row.category,
    status: row.status,
    manufacturer: row.manufacturer,
    model: row.model,
    serial_number: row.serial_number,
    location: row.location,
    purchase_date: row.purchase_date,
    vendor_url: row.vendor_url,
    notes: row.notes,
    last_calibrated_at: row.last_calibrated_at,
    next_calibration_due_at: row.next_calibration_due_at,
    last_maintenance_at: row.last_maintenance_at,
    next_maintenance_due_at: row.next_maintenance_due_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function getEquipment(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<EquipmentRecord> {
  const row = await equipment.find(db, workspaceId, id);
  if (row === undefined) throw errors.notFound('Equipment');
  return presentEquipment(row);
}

/** The equipment library, newest first; without a status filter archived equipment is listed too. */
export async function listEquipment(
  db: Db,
  workspaceId: string,
  query: { category?: string; status?: string },
  page: PageRequest,
): Promise<Page<EquipmentRecord>> {
  const { items, nextKey } = await listEquipmentRows(
    db,
    workspaceId,
    { category: query.category ?? null, status: query.status ?? null },
    page,
  );
  return { items: items.map(presentEquipment), nextKey };
}
