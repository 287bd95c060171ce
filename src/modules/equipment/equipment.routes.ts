import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { Routes } from '../../kernel/routes/index.js';
import { timeWindow } from '../../kernel/window.js';
import { listEquipmentEvents, recordEquipmentEvent } from './equipment-events.service.js';
import {
  CreateEquipmentEventBody,
  Equipment,
  EquipmentEvent,
  EquipmentEventQuery,
  EquipmentEventReceipt,
  EquipmentParams,
  EquipmentQuery,
} from './equipment.schemas.js';
import { getEquipment, listEquipment } from './equipment.service.js';

export function registerEquipmentRoutes(routes: Routes, deps: { records: RecordLookup }): void {
  routes.list({
    url: '/api/v1/equipment',
    operationId: 'listEquipment',
    tags: ['Equipment'],
    summary: 'List equipment',
    description:
      'Newest first. Filters `category` and `status`; without `status`, archived equipment is listed too.',
    scope: 'read:equipment',
    failureCode: 'LAB_EQUIPMENT_QUERY_FAILED',
    querystring: EquipmentQuery,
    paging: { list: 'equipment' },
    item: Equipment,
    handler: (req, ctx) => listEquipment(ctx.db, ctx.principal.workspaceId, req.query, ctx.page),
  });

  routes.read({
    url: '/api/v1/equipment/:id',
    operationId: 'getEquipment',
    tags: ['Equipment'],
    summary: 'Get a piece of equipment',
    description: 'With its last and next calibration and maintenance dates.',
    scope: 'read:equipment',
    failureCode: 'LAB_EQUIPMENT_QUERY_FAILED',
    params: EquipmentParams,
    notFound: 'Equipment',
    data: Equipment,
    handler: async (req, ctx) => ({
      data: await getEquipment(ctx.db, ctx.principal.workspaceId, req.params.id),
    }),
  });

  routes.list({
    url: '/api/v1/equipment/:id/events',
    operationId: 'listEquipmentEvents',
    tags: ['Equipment'],
    summary: 'List equipment events',
    description:
      'Newest first by when they happened; fields of other kinds are null. Without `kind` the list ' +
      'pages by cursor only (`offset`: 422); with `kind`, by cursor or offset. `from`/`to` bound ' +
      '`occurred_at`, both inclusive (`from` later than `to`: 422).',
    scope: 'read:equipment',
    feature: 'equipment_calibration',
    failureCode: 'EQUIPMENT_EVENT_QUERY_FAILED',
    errors: ['LAB_EQUIPMENT_QUERY_FAILED', 'FEATURE_CHECK_FAILED'],
    params: EquipmentParams,
    notFound: 'Equipment',
    querystring: EquipmentEventQuery,
    paging: { list: 'equipment-events' },
    item: EquipmentEvent,
    handler: (req, ctx) =>
      listEquipmentEvents(
        ctx.db,
        ctx.principal.workspaceId,
        req.params.id,
        {
          kind: req.query.kind,
          window: timeWindow(req.query),
          // The kernel reads the paging parameters; this list only needs to know one was sent.
          offsetSent: (req.query as { offset?: number }).offset !== undefined,
        },
        ctx.page,
      ),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/equipment/:id/events',
    operationId: 'createEquipmentEvent',
    tags: ['Equipment'],
    summary: 'Record that equipment was used, calibrated, maintained, serviced or faulted',
    description:
      'Append-only. `used` names its subject, which must be in the workspace (404). ' +
      '`calibration` and `preventive_maintenance` (outcome default pass), `service` and `fault` ' +
      '(outcome optional) need the `equipment_calibration` feature (402 FEATURE_NOT_INCLUDED). ' +
      'A calibration sets the equipment’s last_calibrated_at, maintenance and service its ' +
      'last_maintenance_at, and `next_due_at` the matching next due date (an event dated before ' +
      'the latest one of its kind changes no date). used_at/performed_at default to now.',
    scope: 'write:equipment_events',
    failureCode: 'EQUIPMENT_EVENT_CREATE_FAILED',
    errors: ['FEATURE_NOT_INCLUDED', 'FEATURE_CHECK_FAILED'],
    params: EquipmentParams,
    notFound: 'Equipment',
    body: CreateEquipmentEventBody,
    data: EquipmentEventReceipt,
    handler: async (req, ctx) => ({
      data: await recordEquipmentEvent(
        ctx.trx,
        ctx.principal,
        req.params.id,
        req.body,
        deps.records,
        ctx.now,
      ),
    }),
  });
}
