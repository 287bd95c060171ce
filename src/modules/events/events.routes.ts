import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { errors } from '../../kernel/errors.js';
import { defineRoute, type Kernel } from '../../kernel/route.js';
import { Nullable, StringEnum, Uuid } from '../../kernel/schemas.js';
import { parseDateOrTimestamp } from '../../kernel/time.js';
import { listChangeEvents } from './events.service.js';

const ChangeEvent = Type.Object({
  id: Uuid(),
  entity_type: StringEnum(['plant', 'explant']),
  entity_id: Uuid(),
  stage_id: Nullable(Uuid()),
  event_type: Type.String({
    description: 'created, updated, stage_change, transfer, contamination, …',
  }),
  event_time: Type.String(),
  recorded_by: Nullable(Uuid()),
  payload: Type.Unknown(),
  created_at: Type.String(),
});

export function registerEventRoutes(app: FastifyInstance, kernel: Kernel): void {
  defineRoute(app, kernel, {
    method: 'GET',
    url: '/api/v1/events',
    operationId: 'listChangeEvents',
    tags: ['Change history'],
    summary: 'List change history',
    description:
      'What happened to plant or explant records, oldest first, for incremental sync. ' +
      '`since` is exclusive and compares with `created_at`; equal timestamps keep a fixed order. ' +
      'Event types: created, updated (payload.changes: field -> {from, to}), stage_change, transfer, contamination.',
    scope: 'read:events',
    failureCode: 'EVENT_QUERY_FAILED',
    querystring: Type.Object({
      entity: StringEnum(['plant', 'explant']),
      since: Type.Optional(
        Type.String({ description: 'Only events recorded strictly after this ISO 8601 time' }),
      ),
    }),
    paging: { list: 'events' },
    data: Type.Array(ChangeEvent),
    handler: async (req, ctx) => {
      let since: string | null = null;
      if (req.query.since !== undefined) {
        since = parseDateOrTimestamp(req.query.since);
        if (since === null) {
          throw errors.validation(
            'since: must be an ISO 8601 timestamp with a time zone, or a date',
          );
        }
      }
      const { items, nextKey } = await listChangeEvents(
        ctx.db,
        ctx.principal.workspaceId,
        { entityType: req.query.entity, since },
        ctx.page,
      );
      return ctx.list(items, nextKey);
    },
  });
}
