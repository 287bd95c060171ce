import { toUtc } from '../../kernel/formats.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { Routes } from '../../kernel/routes/index.js';
import { ActivityQuery, ChangeEvent, ChangeEventQuery } from './events.schemas.js';
import { listActivity, listChangeEvents } from './events.service.js';

export function registerEventRoutes(routes: Routes, deps: { records: RecordLookup }): void {
  routes.list({
    url: '/api/v1/events',
    operationId: 'listChangeEvents',
    tags: ['Change history'],
    summary: 'List change history',
    description:
      'What happened to plant or explant records, oldest first, for incremental sync. ' +
      '`since` is exclusive and compares with `created_at`; equal timestamps keep a fixed order. ' +
      'Event types: created, updated (payload.changes: field -> {from, to}), stage_change, transfer, ' +
      'contamination, and (beyond the wire format) contamination_resolved, archived, unarchived. ' +
      '`entity=sensor_alert` lists the episodes of sensor alert rules instead (opened, resolved; payload: the alert); ' +
      '`entity=stock_lot` lists the lots that fell below their reorder level or passed their ' +
      'expiry (low, expired; payload: the lot, its item and the task raised). Neither ever ' +
      'appears in the plant or explant history.',
    scope: 'read:events',
    failureCode: 'EVENT_QUERY_FAILED',
    querystring: ChangeEventQuery,
    paging: { list: 'events', csv: true },
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

  routes.list({
    url: '/api/v1/activity',
    operationId: 'listActivity',
    tags: ['Change history'],
    summary: 'List the latest activity',
    description:
      'The change history newest first, of plants and explants together, of one kind (`entity`) ' +
      'or of one record (`entity_id`, 404 when not a plant or explant of the workspace): what a ' +
      'Today screen or a record’s timeline shows. `recorded_by` is a member id; GET /people ' +
      'names them. For sync, use GET /events (oldest first, `since`).',
    scope: 'read:events',
    failureCode: 'EVENT_QUERY_FAILED',
    errors: ['NOT_FOUND'],
    querystring: ActivityQuery,
    paging: { list: 'activity', csv: true },
    item: ChangeEvent,
    handler: (req, ctx) =>
      listActivity(ctx.db, ctx.principal.workspaceId, req.query, deps.records, ctx.page),
  });
}
