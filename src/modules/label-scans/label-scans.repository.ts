import type { LabelScanTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';

export type LabelScanRow = LabelScanTable;

const COLUMNS = [
  'id',
  'workspace_id',
  'barcode',
  'plant_id',
  'explant_id',
  'context',
  'scanned_at',
  'created_by',
  'created_at',
] as const;

/** Scans are appended, never changed. */
export const labelScans = workspaceTable('label_scans', COLUMNS);
