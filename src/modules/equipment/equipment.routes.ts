import type { RecordLookup } from '../../kernel/record-lookup.js';
import type { Routes } from '../../kernel/routes/index.js';
import { timeWindow } from '../../kernel/window.js';
import { listEquipmentEvents, recordEquipmentEvent } from './equipment-events.service.js';
import {
  CreateEquipmentBody,
  CreateEquipmentEventBody,
  Equipment,
  EquipmentEvent,
  EquipmentEventQuery,
  EquipmentEventReceipt,
  EquipmentParams,
  EquipmentQuery,
  UpdateEquipmentBody,
} from './equipment.schemas.js';
import {
  createEquipment,
  getEquipment,
  listEquipment,
  updateEquipment,
} from './equipment.service.js';

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

  routes.write({
    method: 'POST',
    url: '/api/v1/equipment',
    operationId: 'createEquipment',
    tags: ['Equipment'],
    summary: 'Add equipment to the library',
    description:
      "The import file's equipment fields. A name other equipment of the lab has answers 409 " +
      'DUPLICATE_ENTRY (imports match equipment on its name). Calibration and maintenance dates ' +
      'come from its events.',
    scope: 'write:equipment',
    failureCode: 'EQUIPMENT_CREATE_FAILED',
    errors: ['DUPLICATE_ENTRY'],
    body: CreateEquipmentBody,
    data: Equipment,
    handler: async (req, ctx) => ({
      data: await createEquipment(ctx.trx, ctx.principal.workspaceId, req.body, ctx.now),
    }),
  });

  routes.write({
    method: 'PATCH',
    url: '/api/v1/equipment/:id',
    operationId: 'updateEquipment',
    tags: ['Equipment'],
    summary: 'Edit or retire equipment',
    description:
      'The fields sent change (null clears an optional one); `status: archived` retires it ' +
      '(`active` brings it back). A name other equipment has answers 409 DUPLICATE_ENTRY.',
    scope: 'write:equipment',
    failureCode: 'EQUIPMENT_UPDATE_FAILED',
    errors: ['DUPLICATE_ENTRY'],
    params: EquipmentParams,
    notFound: 'Equipment',
    body: UpdateEquipmentBody,
    data: Equipment,
    handler: async (req, ctx) => ({
      data: await updateEquipment(
        ctx.trx,
        ctx.principal.workspaceId,
        req.params.id,
        req.body,
        ctx.now,
      ),
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
