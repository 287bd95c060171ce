import { countsByKey } from '../../lib/counts.js';
import { sql } from 'kysely';
import { isPostgres, type Db, type Trx } from '../../db/database.js';
import { fetchPage, NEWEST_FIRST, type Page, type PageRequest } from '../../db/pages.js';
import { preparedQuery } from '../../db/prepared.js';
import type { DeviceTable, DeviceTokenTable } from '../../db/schema.js';
import { workspaceTable } from '../../db/tables.js';

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

/** Devices by id, inserted, updated, listed newest first. */
export const devices = workspaceTable('devices', DEVICE_COLUMNS);

/** Every column but the secret's hash, which only authentication reads. */
const TOKEN_COLUMNS = [
  'id',
  'workspace_id',
  'device_id',
  'name',
  'prefix',
  'environment',
  'created_at',
  'last_used_at',
  'revoked_at',
] as const;

export type ListedDeviceToken = Pick<DeviceTokenRow, (typeof TOKEN_COLUMNS)[number]>;

export async function findDeviceById(db: Db, id: string): Promise<DeviceRow | undefined> {
  return db.selectFrom('devices').select(DEVICE_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** A workspace's devices, oldest first (the CLI's list). */
export async function listAllDevices(db: Db, workspaceId: string): Promise<DeviceRow[]> {
  return db
    .selectFrom('devices')
    .select(DEVICE_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The devices among `ids` that belong to the workspace: what an ingest checks. */
export async function findDevicesIn(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): Promise<Pick<DeviceRow, 'id' | 'status' | 'room_id'>[]> {
  return db
    .selectFrom('devices')
    .select(['id', 'status', 'room_id'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .execute();
}

/**
 * The same devices, on PostgreSQL each row held until the transaction ends, so
 * their status cannot change under a write that relies on it: a pause or retire
 * committed by another process (the CLI) either waits for this write to commit or
 * is the status this write reads. The rows are taken in id order, so two writes
 * naming the same devices queue instead of deadlocking; `for no key update`, the
 * lock the write's own `last_seen_at` stamp needs, so it never has to upgrade a
 * weaker one. SQLite has one writer: its transaction is enough.
 */
export async function lockDevicesIn(
  trx: Trx,
  workspaceId: string,
  ids: readonly string[],
): Promise<Pick<DeviceRow, 'id' | 'status' | 'room_id'>[]> {
  if (!isPostgres(trx)) return findDevicesIn(trx, workspaceId, ids);
  return trx
    .selectFrom('devices')
    .select(['id', 'status', 'room_id'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
}

/**
 * The workspace's plan and device allowance, holding the workspace row until the
 * transaction ends (PostgreSQL; SQLite has one writer): registrations of one
 * workspace count its devices one after another.
 */
export async function lockDeviceAllowance(
  trx: Trx,
  workspaceId: string,
): Promise<{ plan: string; device_allowance: number | null } | undefined> {
  const query = trx
    .selectFrom('workspaces')
    .select(['plan', 'device_allowance'])
    .where('id', '=', workspaceId);
  if (!isPostgres(trx)) return query.executeTakeFirst();
  // Waits for the lock only so long: a workspace held by a long write (an import)
  // answers 503 DEVICE_LIMIT_UNAVAILABLE instead of hanging the request.
  await sql`set local lock_timeout = '2s'`.execute(trx);
  return query.forNoKeyUpdate().executeTakeFirst();
}

/** Devices that count against the allowance: all but retired ones. */
export async function countDevicesInUse(trx: Trx, workspaceId: string): Promise<number> {
  const row = await trx
    .selectFrom('devices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('status', '!=', 'retired')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setDeviceStatus(
  trx: Trx,
  workspaceId: string,
  id: string,
  status: string,
  at: string,
): Promise<void> {
  await devices.update(trx, workspaceId, id, { status, updated_at: at });
}

const stampLastSeen = preparedQuery(
  (db, p: { workspaceId: string; id: string; at: string; before: string }) =>
    db
      .updateTable('devices')
      .set({ last_seen_at: p.at })
      .where('workspace_id', '=', p.workspaceId)
      .where('id', '=', p.id)
      .where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<', p.before)])),
);

/**
 * Sets `last_seen_at` to `at` unless it already is `before` or later: a device
 * row written on every batch of a busy sensor would queue concurrent batches
 * behind its lock, so readings stamp it at most once per interval.
 */
export async function touchLastSeen(
  trx: Trx,
  workspaceId: string,
  id: string,
  at: string,
  before: string,
): Promise<void> {
  await stampLastSeen.run(trx, { workspaceId, id, at, before });
}

export function listDevicePage(
  db: Db,
  workspaceId: string,
  page: PageRequest,
): Promise<Page<DeviceRow>> {
  return devices.newest(db, workspaceId, page);
}

export async function insertDeviceToken(trx: Trx, row: DeviceTokenRow): Promise<void> {
  await trx.insertInto('device_tokens').values(row).execute();
}

export async function findDeviceToken(
  db: Db,
  workspaceId: string,
  deviceId: string,
  id: string,
): Promise<ListedDeviceToken | undefined> {
  return db
    .selectFrom('device_tokens')
    .select(TOKEN_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('device_id', '=', deviceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A device's tokens, active and revoked, newest first. */
export function listDeviceTokenPage(
  db: Db,
  workspaceId: string,
  deviceId: string,
  page: PageRequest,
): Promise<Page<ListedDeviceToken>> {
  return fetchPage(
    db
      .selectFrom('device_tokens')
      .select(TOKEN_COLUMNS)
      .where('device_id', '=', deviceId)
      .where('workspace_id', '=', workspaceId),
    NEWEST_FIRST,
    page,
  );
}

/** Revokes one token unless it already is; says whether it did. */
export async function revokeDeviceToken(
  trx: Trx,
  workspaceId: string,
  id: string,
  at: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('device_tokens')
    .set({ revoked_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
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

/** How many devices each of `roomIds` holds, retired ones left out (one grouped query). */
export async function countDevicesByRoom(
  db: Db,
  workspaceId: string,
  roomIds: readonly string[],
): Promise<Map<string, number>> {
  return countsByKey(roomIds, (ids) =>
    db
      .selectFrom('devices')
      .select(['room_id as key', (eb) => eb.fn.countAll<number>().as('count')])
      .where('workspace_id', '=', workspaceId)
      .where('room_id', 'in', ids)
      .where('status', '!=', 'retired')
      .groupBy('room_id')
      .execute(),
  );
}
