import type { Db } from '../../db/database.js';
import type { LabelContentTable, LabelTable } from '../../db/schema.js';

export type LabelRow = LabelTable;
export type LabelContentRow = LabelContentTable;

export type LabelChanges = Partial<Pick<LabelRow, 'record_type' | 'record_id' | 'display_name'>>;

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

export async function insertLabel(db: Db, row: LabelRow): Promise<void> {
  await db.insertInto('labels').values(row).execute();
}

export async function updateLabel(
  db: Db,
  workspaceId: string,
  id: string,
  changes: LabelChanges,
): Promise<void> {
  await db
    .updateTable('labels')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

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
  db: Db,
  workspaceId: string,
  labelId: string,
  rows: readonly LabelContentRow[],
): Promise<void> {
  await db
    .deleteFrom('label_contents')
    .where('workspace_id', '=', workspaceId)
    .where('label_id', '=', labelId)
    .execute();
  if (rows.length > 0) {
    await db
      .insertInto('label_contents')
      .values([...rows])
      .execute();
  }
}
