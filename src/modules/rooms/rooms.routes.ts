import type { Routes } from '../../kernel/routes/index.js';
import { CreateRoomBody, Room, RoomParams, RoomQuery, UpdateRoomBody } from './rooms.schemas.js';
import { createRoom, getRoom, listRooms, updateRoom } from './rooms.service.js';

const SUMMARY =
  'Each room carries its device count, how many plants and explants are in it now (their ' +
  "current stage's room) and the latest value of each sensor type; a part the key may not " +
  'read (read:devices, read:plants, read:explants, read:sensor_readings) is null.';

export function registerRoomRoutes(routes: Routes): void {
  routes.list({
    url: '/api/v1/rooms',
    operationId: 'listRooms',
    tags: ['Rooms'],
    summary: 'List rooms',
    description: `The workspace's rooms, by name; archived rooms only when asked for. ${SUMMARY}`,
    scope: 'read:workspace',
    failureCode: 'ROOM_QUERY_FAILED',
    querystring: RoomQuery,
    paging: { list: 'rooms', csv: true },
    item: Room,
    handler: (req, ctx) =>
      listRooms(ctx.db, ctx.principal, req.query.archived ?? 'exclude', ctx.page),
  });

  routes.read({
    url: '/api/v1/rooms/:id',
    operationId: 'getRoom',
    tags: ['Rooms'],
    summary: 'Get a room',
    description: SUMMARY,
    scope: 'read:workspace',
    failureCode: 'ROOM_QUERY_FAILED',
    params: RoomParams,
    notFound: 'Room',
    data: Room,
    handler: async (req, ctx) => ({ data: await getRoom(ctx.db, ctx.principal, req.params.id) }),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/rooms',
    operationId: 'createRoom',
    tags: ['Rooms'],
    summary: 'Create a room',
    description:
      "A room's name is what an import matches rooms on: another room of the lab with the same " +
      `name answers 409 DUPLICATE_ENTRY. ${SUMMARY}`,
    scope: 'write:workspace',
    failureCode: 'ROOM_CREATE_FAILED',
    errors: ['DUPLICATE_ENTRY'],
    body: CreateRoomBody,
    data: Room,
    handler: async (req, ctx) => ({
      data: await createRoom(ctx.trx, ctx.principal, req.body, ctx.now),
    }),
  });

  routes.write({
    method: 'PATCH',
    url: '/api/v1/rooms/:id',
    operationId: 'updateRoom',
    tags: ['Rooms'],
    summary: 'Rename or archive a room',
    description:
      'Renames the room (a name another room has: 409 DUPLICATE_ENTRY) and/or archives it ' +
      '(`archived: true`: left out of the rooms list; the records, stages and devices in it keep ' +
      `it) or brings it back. ${SUMMARY}`,
    scope: 'write:workspace',
    failureCode: 'ROOM_UPDATE_FAILED',
    errors: ['DUPLICATE_ENTRY'],
    params: RoomParams,
    notFound: 'Room',
    body: UpdateRoomBody,
    data: Room,
    handler: async (req, ctx) => ({
      data: await updateRoom(ctx.trx, ctx.principal, req.params.id, req.body, ctx.now),
    }),
  });
}
