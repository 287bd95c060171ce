import type { Db } from '../../db/database.js';
import { diffFields } from '../../kernel/changes.js';
import {
  findEquipment,
  findEquipmentOwners,
  insertEquipment,
  updateEquipment,
  type EquipmentRow,
} from './equipment.repository.js';

export const EQUIPMENT_CATEGORIES = [
  'balance_scale',
  'autoclave_pressure_cooker',
  'laminar_flow_hood',
  'still_air_box',
  'incubator',
  'light_rack',
  'fridge_freezer',
  'ph_ec_meter',
  'microscope',
  'label_printer',
  'other',
] as const;
export const EQUIPMENT_STATUSES = ['active', 'archived'] as const;

/** The library fields of a piece of equipment; calibration and maintenance dates come from its events. */
export interface EquipmentInput {
  id: string;
  name: string;
  category: (typeof EQUIPMENT_CATEGORIES)[number];
  status: (typeof EQUIPMENT_STATUSES)[number];
  manufacturer: string | null;
  model: string | null;
  serial_number: string | null;
  location: string | null;
  purchase_date: string | null;
  vendor_url: string | null;
  notes: string | null;
}

const FIELDS = [
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
] as const;

/** The ids among `ids` that equipment of another workspace already has. */
export async function equipmentIdsUsedElsewhere(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  const owners = await findEquipmentOwners(db, ids);
  return new Set(owners.filter((o) => o.workspace_id !== workspaceId).map((o) => o.id));
}

/** Inserts the equipment or updates its library fields; an unchanged row is left untouched. */
export async function saveEquipment(
  db: Db,
  workspaceId: string,
  input: EquipmentInput,
  now: string,
): Promise<void> {
  const { id, ...fields } = input;
  const existing = await findEquipment(db, workspaceId, id);
  if (existing === undefined) {
    const row: EquipmentRow = {
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
    await insertEquipment(db, row);
    return;
  }
  if (Object.keys(diffFields(existing, fields, FIELDS)).length === 0) return;
  await updateEquipment(db, workspaceId, id, { ...fields, updated_at: now });
}
