import { toUtc } from '../../kernel/formats.js';
import type { Routes } from '../../kernel/routes/index.js';
import { ChangeEvent, ChangeEventQuery } from './events.schemas.js';
import { listChangeEvents } from './events.service.js';

export function registerEventRoutes(routes: Routes): void {
  routes.list({
    url: '/api/v1/events',
    operationId: 'listChangeEvents',
    tags: ['Change history'],
    summary: 'List change history',
    description:
      'What happened to plant or explant records, oldest first, for incremental sync. ' +
      '`since` is exclusive and compares with `created_at`; equal timestamps keep a fixed order. ' +
      'Event types: created, updated (payload.changes: field -> {from, to}), stage_change, transfer, contamination. ' +
      '`entity=sensor_alert` lists the episodes of sensor alert rules instead (opened, resolved; payload: the alert); ' +
      'they never appear in the plant or explant history.',
    scope: 'read:events',
    failureCode: 'EVENT_QUERY_FAILED',
    querystring: ChangeEventQuery,
    paging: { list: 'events' },
    item: ChangeEvent,
    handler: (req, ctx) =>
      listChangeEvents(
        ctx.db,
        ctx.principal.workspaceId,
        {
          entityType: req.query.entity,
          since: req.query.since === undefined ? null : toUtc(req.query.since),
        },
        ctx.page,
      ),
  });
}
