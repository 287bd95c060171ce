import type { Routes } from '../../kernel/routes/index.js';
import { Room, RoomParams } from './rooms.schemas.js';
import { getRoom, listRooms } from './rooms.service.js';

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
    description: `The workspace's rooms (set up by an import), by name. ${SUMMARY}`,
    scope: 'read:workspace',
    failureCode: 'ROOM_QUERY_FAILED',
    paging: { list: 'rooms', csv: true },
    item: Room,
    handler: (_req, ctx) => listRooms(ctx.db, ctx.principal, ctx.page),
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
}
