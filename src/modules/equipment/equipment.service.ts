import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import { newId } from '../../kernel/ids.js';
import type { Page, PageRequest } from '../../db/pages.js';
import { changedValues, diffFields } from '../../lib/changes.js';
import {
  equipment,
  findEquipmentByName,
  listEquipmentRows,
  type EquipmentRow,
} from './equipment.repository.js';
import {
  equipmentFields,
  type CreateEquipmentBody,
  type Equipment,
  type UpdateEquipmentBody,
} from './equipment.schemas.js';

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

/** 409 when other equipment of the workspace has this name (imports match equipment on it). */
async function requireFreeName(
  db: Db,
  workspaceId: string,
  name: string,
  id: string | null,
): Promise<void> {
  const holders = await findEquipmentByName(db, workspaceId, name);
  if (holders.some((row) => row.id !== id)) {
    throw errors.conflict('DUPLICATE_ENTRY', `name: the lab already has equipment named "${name}"`);
  }
}

/** The library fields: what the API and an import write. */
const LIBRARY_FIELDS = Object.keys(equipmentFields) as (keyof typeof equipmentFields)[];

/** POST /equipment: a new piece of the library (the import file's equipment fields). */
export async function createEquipment(
  trx: Trx,
  workspaceId: string,
  input: Static<typeof CreateEquipmentBody>,
  now: string,
): Promise<EquipmentRecord> {
  await requireFreeName(trx, workspaceId, input.name, null);
  const row = newEquipmentRow(
    workspaceId,
    newId(),
    {
      name: input.name,
      category: input.category,
      status: input.status ?? 'active',
      manufacturer: input.manufacturer ?? null,
      model: input.model ?? null,
      serial_number: input.serial_number ?? null,
      location: input.location ?? null,
      purchase_date: input.purchase_date ?? null,
      vendor_url: input.vendor_url ?? null,
      notes: input.notes ?? null,
    },
    now,
  );
  await equipment.insert(trx, row);
  return presentEquipment(row);
}

/** What a piece of equipment is written with, by the API and an import alike. */
export type EquipmentLibraryFields = Pick<
  EquipmentRow,
  | 'name'
  | 'category'
  | 'status'
  | 'manufacturer'
  | 'model'
  | 'serial_number'
  | 'location'
  | 'purchase_date'
  | 'vendor_url'
  | 'notes'
>;

/** A new piece's row: its library fields; calibration and maintenance dates come from its events. */
export function newEquipmentRow(
  workspaceId: string,
  id: string,
  fields: EquipmentLibraryFields,
  now: string,
): EquipmentRow {
  return {
    id,
    workspace_id: workspaceId,
    ...fields,
    last_calibrated_at: null,
    next_calibration_due_at: null,
    last_maintenance_at: null,
    next_maintenance_due_at: null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * PATCH /equipment/{id}: the library fields sent change (null clears, a name must
 * stay free); `status: archived` retires it. Nothing changed: nothing written.
 */
export async function updateEquipment(
  trx: Trx,
  workspaceId: string,
  id: string,
  input: Static<typeof UpdateEquipmentBody>,
  now: string,
): Promise<EquipmentRecord> {
  const row = await equipment.lock(trx, workspaceId, id);
  if (row === undefined) throw errors.notFound('Equipment');
  const update = changedValues(diffFields(row, input, LIBRARY_FIELDS)) as Partial<EquipmentRow>;
  if (Object.keys(update).length === 0) return presentEquipment(row);
  if (update.name !== undefined) await requireFreeName(trx, workspaceId, update.name, id);
  update.updated_at = now;
  await equipment.update(trx, workspaceId, id, update);
  return presentEquipment({ ...row, ...update });
}
