import type { Db, Trx } from '../../db/database.js';
import { equipment } from './equipment.repository.js';

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

/** The ids among `ids` that equipment of another workspace already has. */
export const equipmentIdsUsedElsewhere = equipment.idsHeldElsewhere;

/** Inserts the equipment or updates its library fields; an unchanged row is left untouched. */
export async function saveEquipment(
  trx: Trx,
  workspaceId: string,
  input: EquipmentInput,
  now: string,
): Promise<void> {
  const { id, ...fields } = input;
  await equipment.save(trx, workspaceId, id, fields, {
    insert: () => ({
      id,
      workspace_id: workspaceId,
      ...fields,
      last_calibrated_at: null,
      next_calibration_due_at: null,
      last_maintenance_at: null,
      next_maintenance_due_at: null,
      created_at: now,
      updated_at: now,
    }),
    onChange: () => ({ updated_at: now }),
  });
}

/** Equipment ids by name, for matching imported equipment sent without an id. */
export const equipmentIdentities = (db: Db, workspaceId: string) =>
  equipment.identities(db, workspaceId, ['name']);
