import type { Static } from 'typebox';
import type { Trx } from '../../db/database.js';
import { toUtc } from '../../kernel/formats.js';
import { newId } from '../../kernel/ids.js';
import type { Principal } from '../../kernel/principal.js';
import { requireNamedPlantAndExplant, type RecordLookup } from '../../kernel/record-lookup.js';
import { labelScans, type LabelScanRow } from './label-scans.repository.js';
import type { CreateLabelScanBody, LabelScan } from './label-scans.schemas.js';

export type LabelScanRecord = Static<typeof LabelScan>;

export function presentLabelScan(row: LabelScanRow): LabelScanRecord {
  return {
    id: row.id,
    barcode: row.barcode,
    resolved: row.plant_id !== null || row.explant_id !== null,
    plantId: row.plant_id,
    explantId: row.explant_id,
    context: row.context,
    scannedAt: row.scanned_at,
  };
}

/**
 * Appends a scan as the key's owner. The plant and explant it names must be
 * records of the workspace (404, nothing written); the scan is `resolved` when
 * it names either.
 */
export async function recordLabelScan(
  trx: Trx,
  principal: Principal,
  input: Static<typeof CreateLabelScanBody>,
  records: RecordLookup,
  now: string,
): Promise<LabelScanRecord> {
  const workspaceId = principal.workspaceId;
  const plantId = input.plant_id ?? null;
  const explantId = input.explant_id ?? null;
  await requireNamedPlantAndExplant(trx, records, workspaceId, { plantId, explantId });
  const row: LabelScanRow = {
    id: newId(),
    workspace_id: workspaceId,
    barcode: input.barcode,
    plant_id: plantId,
    explant_id: explantId,
    context: input.context ?? null,
    scanned_at: input.scanned_at === undefined ? now : toUtc(input.scanned_at),
    created_by: principal.memberId,
    created_at: now,
  };
  await labelScans.insert(trx, row);
  return presentLabelScan(row);
}
