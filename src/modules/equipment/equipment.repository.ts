import type { EquipmentTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';

export type EquipmentRow = EquipmentTable;

export const equipment = workspaceTable('equipment', [
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
]);
