import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import type { Page, PageRequest } from '../../db/pages.js';
import { effectiveScopes, type Scope } from '../../kernel/access.js';
import type { Principal } from '../../kernel/principal.js';
import { deviceCountsByRoom } from '../devices/index.js';
import { newId } from '../../kernel/ids.js';
import {
  createRoom as createRoomRow,
  getRoom as getRoomRow,
  listRooms as listRoomRows,
  updateRoom as updateRoomRow,
  type RoomRow,
} from '../lab/index.js';
import { latestReadingsOfRoom } from '../readings/index.js';
import { countRecordsByRoom } from '../records/index.js';
import type { CreateRoomBody, Room, UpdateRoomBody } from './rooms.schemas.js';

export type RoomRecord = Static<typeof Room>;

/**
 * Rooms with what a Today screen or a rooms page shows of each, in a fixed number
 * of queries per page (three grouped counts, one bounded readings range per room).
 * A part the key may not read (its owner's role and the plan count too) is null.
 */
async function summarise(
  db: Db,
  principal: Principal,
  rooms: readonly RoomRow[],
): Promise<RoomRecord[]> {
  const { workspaceId } = principal;
  const scopes = new Set<Scope>(
    principal.role === null
      ? []
      : effectiveScopes(principal.scopes, principal.role, principal.plan),
  );
  const ids = rooms.map((room) => room.id);
  const [devices, plants, explants] = await Promise.all([
    scopes.has('read:devices') ? deviceCountsByRoom(db, workspaceId, ids) : null,
    scopes.has('read:plants') ? countRecordsByRoom(db, 'plant', workspaceId, ids) : null,
    scopes.has('read:explants') ? countRecordsByRoom(db, 'explant', workspaceId, ids) : null,
  ]);
  const out: RoomRecord[] = [];
  for (const room of rooms) {
    out.push({
      id: room.id,
      name: room.name,
      created_at: room.created_at,
      archived_at: room.archived_at,
      device_count: devices?.get(room.id) ?? null,
      plant_count: plants?.get(room.id) ?? null,
      explant_count: explants?.get(room.id) ?? null,
      latest_readings: scopes.has('read:sensor_readings')
        ? await latestReadingsOfRoom(db, workspaceId, room.id)
        : null,
    });
  }
  return out;
}

/** GET /rooms: the workspace's rooms by name, each summarised; archived ones as asked. */
export async function listRooms(
  db: Db,
  principal: Principal,
  archived: 'exclude' | 'include' | 'only',
  page: PageRequest,
): Promise<Page<RoomRecord>> {
  const { items, nextKey } = await listRoomRows(db, principal.workspaceId, archived, page);
  return { items: await summarise(db, principal, items), nextKey };
}

/** GET /rooms/{id}: one room of the workspace, summarised (404 for any other). */
export async function getRoom(db: Db, principal: Principal, id: string): Promise<RoomRecord> {
  const room = await getRoomRow(db, principal.workspaceId, id);
  const [summary] = await summarise(db, principal, [room]);
  return summary!;
}

/** POST /rooms: a new room of the workspace, its name free there (409). */
export async function createRoom(
  trx: Trx,
  principal: Principal,
  input: Static<typeof CreateRoomBody>,
  now: string,
): Promise<RoomRecord> {
  const room = await createRoomRow(
    trx,
    principal.workspaceId,
    { id: newId(), name: input.name },
    now,
  );
  const [summary] = await summarise(trx, principal, [room]);
  return summary!;
}

/** PATCH /rooms/{id}: renames it (a free name, 409) and/or archives it or brings it back. */
export async function updateRoom(
  trx: Trx,
  principal: Principal,
  id: string,
  input: Static<typeof UpdateRoomBody>,
  now: string,
): Promise<RoomRecord> {
  const room = await updateRoomRow(trx, principal.workspaceId, id, input, now);
  const [summary] = await summarise(trx, principal, [room]);
  return summary!;
}
