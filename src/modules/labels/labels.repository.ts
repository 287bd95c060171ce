import type { Db, Trx } from '../../db/database.js';
import type { LabelContentTable, LabelTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';

export type LabelRow = LabelTable;
export type LabelContentRow = LabelContentTable;

const LABEL_COLUMNS = [
  'id',
  'workspace_id',
  'barcode',
  'record_type',
  'record_id',
  'display_name',
  'created_at',
] as const;

const CONTENT_COLUMNS = [
  'id',
  'workspace_id',
  'label_id',
  'record_type',
  'record_id',
  'position',
] as const;

/** A label by its exact barcode (barcodes are unique per workspace). */
export async function findLabelByBarcode(
  db: Db,
  workspaceId: string,
  barcode: string,
): Promise<LabelRow | undefined> {
  return db
    .selectFrom('labels')
    .select(LABEL_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('barcode', '=', barcode)
    .executeTakeFirst();
}

/** The labels of some exact barcodes, in no particular order. */
export async function findLabelsByBarcodes(
  db: Db,
  workspaceId: string,
  barcodes: readonly string[],
): Promise<LabelRow[]> {
  if (barcodes.length === 0) return [];
  return db
    .selectFrom('labels')
    .select(LABEL_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('barcode', 'in', [...new Set(barcodes)])
    .execute();
}

export const labels = workspaceTable('labels', LABEL_COLUMNS);

/** What a container label holds, in label order. */
export async function listLabelContents(
  db: Db,
  workspaceId: string,
  labelId: string,
): Promise<LabelContentRow[]> {
  return db
    .selectFrom('label_contents')
    .select(CONTENT_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('label_id', '=', labelId)
    .orderBy('position')
    .execute();
}

export async function replaceLabelContents(
  trx: Trx,
  workspaceId: string,
  labelId: string,
  rows: readonly LabelContentRow[],
): Promise<void> {
  await trx
    .deleteFrom('label_contents')
    .where('workspace_id', '=', workspaceId)
    .where('label_id', '=', labelId)
    .execute();
  if (rows.length > 0) {
    await trx
      .insertInto('label_contents')
      .values([...rows])
      .execute();
  }
}

/** The labels imported for some plants or explants, by barcode (a record may have several). */
export async function findLabelsOfRecords(
  db: Db,
  workspaceId: string,
  recordType: 'plant' | 'explant',
  recordIds: readonly string[],
): Promise<LabelRow[]> {
  if (recordIds.length === 0) return [];
  return db
    .selectFrom('labels')
    .select(LABEL_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('record_type', '=', recordType)
    .where('record_id', 'in', [...recordIds])
    .orderBy('barcode')
    .execute();
}
