import type { Db, Trx } from '../../db/database.js';
import type { DeviceEventTable } from '../../db/schema.js';

export type DeviceEventRow = DeviceEventTable;

const COLUMNS = [
  'id',
  'workspace_id',
  'device_id',
  'event_type',
  'payload',
  'occurred_at',
  'external_id',
  'created_at',
] as const;

/** Inserts the event unless its device already has one with its external id; says which. */
export async function insertDeviceEvent(trx: Trx, row: DeviceEventRow): Promise<boolean> {
  const result = await trx
    .insertInto('device_events')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function findDeviceEventByExternalId(
  db: Db,
  workspaceId: string,
  deviceId: string,
  externalId: string,
): Promise<DeviceEventRow | undefined> {
  return db
    .selectFrom('device_events')
    .select(COLUMNS)
    .where('device_id', '=', deviceId)
    .where('external_id', '=', externalId)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
}
