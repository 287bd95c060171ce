import type { Db, Trx } from '../../db/database.js';
import { preparedQuery } from '../../db/prepared.js';
import type { DeviceTable, DeviceTokenTable } from '../../db/schema.js';

export type DeviceRow = DeviceTable;
export type DeviceTokenRow = DeviceTokenTable;

const DEVICE_COLUMNS = [
  'id',
  'workspace_id',
  'name',
  'type',
  'hardware',
  'status',
  'firmware_version',
  'room_id',
  'last_seen_at',
  'metadata',
  'created_by',
  'created_at',
  'updated_at',
] as const;

export async function insertDevice(trx: Trx, row: DeviceRow): Promise<void> {
  await trx.insertInto('devices').values(row).execute();
}

export async function findDevice(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<DeviceRow | undefined> {
  return db
    .selectFrom('devices')
    .select(DEVICE_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findDeviceById(db: Db, id: string): Promise<DeviceRow | undefined> {
  return db.selectFrom('devices').select(DEVICE_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function setDeviceStatus(
  trx: Trx,
  workspaceId: string,
  id: string,
  status: string,
  at: string,
): Promise<void> {
  await trx
    .updateTable('devices')
    .set({ status, updated_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}

export async function insertDeviceToken(trx: Trx, row: DeviceTokenRow): Promise<void> {
  await trx.insertInto('device_tokens').values(row).execute();
}

export async function revokeDeviceTokens(
  trx: Trx,
  workspaceId: string,
  deviceId: string,
  at: string,
): Promise<number> {
  const result = await trx
    .updateTable('device_tokens')
    .set({ revoked_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('device_id', '=', deviceId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

const deviceTokenForAuth = preparedQuery((db, p: { tokenHash: string }) =>
  db
    .selectFrom('device_tokens as t')
    .innerJoin('devices as d', 'd.id', 't.device_id')
    .innerJoin('workspaces as w', 'w.id', 't.workspace_id')
    .select([
      't.id',
      't.workspace_id',
      't.device_id',
      't.last_used_at',
      't.revoked_at',
      'd.status as device_status',
      'd.workspace_id as device_workspace_id',
      'w.plan',
      'w.features',
    ])
    .where('t.token_hash', '=', p.tokenHash),
);

/** The token, its device and the device's workspace in one read: what authentication needs. */
export async function findDeviceTokenForAuth(db: Db, tokenHash: string) {
  return deviceTokenForAuth.first(db, { tokenHash });
}

export async function touchDeviceToken(db: Db, id: string, at: string): Promise<void> {
  await db.updateTable('device_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
}
