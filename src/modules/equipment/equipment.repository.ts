import type { Db } from '../../db/database.js';
import type { EquipmentTable } from '../../db/schema.js';

export type EquipmentRow = EquipmentTable;

export type EquipmentChanges = Partial<Omit<EquipmentRow, 'id' | 'workspace_id' | 'created_at'>>;

const COLUMNS = [
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

export async function findEquipment(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<EquipmentRow | undefined> {
  return db
    .selectFrom('equipment')
    .select(COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertEquipment(db: Db, row: EquipmentRow): Promise<void> {
  await db.insertInto('equipment').values(row).execute();
}

export async function updateEquipment(
  db: Db,
  workspaceId: string,
  id: string,
  changes: EquipmentChanges,
): Promise<void> {
  await db
    .updateTable('equipment')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

/** The workspace of each of these ids, whichever it is: for refusing ids another workspace holds. */
export async function findEquipmentOwners(
  db: Db,
  ids: readonly string[],
): Promise<{ id: string; workspace_id: string }[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('equipment').select(['id', 'workspace_id']).where('id', 'in', ids).execute();
}
