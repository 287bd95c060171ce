import type { Routes } from '../../kernel/routes/index.js';
import { getDelivery, listDeliveries, redeliver } from './deliveries.service.js';
import {
  createEndpoint,
  deleteEndpoint,
  disableEndpoint,
  enableEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
} from './endpoints.service.js';
import type { TargetPolicy } from './target.js';
import {
  CreateWebhookEndpointBody,
  DeliveryQuery,
  DisableWebhookEndpointBody,
  EmptyBody,
  UpdateWebhookEndpointBody,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryParams,
  WebhookEndpoint,
  WebhookEndpointParams,
  WebhookEndpointWithSecret,
} from './webhooks.schemas.js';

const TAGS = ['Webhooks'];
const ENDPOINT = { params: WebhookEndpointParams, notFound: 'Webhook endpoint' } as const;

export function registerWebhookRoutes(routes: Routes, deps: { policy: TargetPolicy }): void {
  routes.list({
    url: '/api/v1/webhook-endpoints',
    operationId: 'listWebhookEndpoints',
    tags: TAGS,
    summary: 'List webhook endpoints',
    description: 'Newest first, without their secrets.',
    scope: 'read:webhooks',
    failureCode: 'WEBHOOK_QUERY_FAILED',
    paging: { list: 'webhook-endpoints' },
    item: WebhookEndpoint,
    handler: (_req, ctx) => listEndpoints(ctx.db, ctx.principal.workspaceId, ctx.page),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/webhook-endpoints',
    operationId: 'createWebhookEndpoint',
    tags: TAGS,
    summary: 'Create a webhook endpoint',
    description:
      'From now on every change-history event of the workspace (or those of `event_types`) is ' +
      'POSTed to `url`, signed as Standard Webhooks 1.0 with the `secret` of this answer, which ' +
      'is shown here only (a retry, even with the same Idempotency-Key, creates another ' +
      'endpoint). `url` must be https and reach a public address, unless WEBHOOK_ALLOWED_HOSTS ' +
      'names its host or range; at most 20 endpoints per workspace (409 CONFLICT).',
    scope: 'write:webhooks',
    failureCode: 'WEBHOOK_UPDATE_FAILED',
    errors: ['CONFLICT'],
    body: CreateWebhookEndpointBody,
    idempotency: 'ignore',
    data: WebhookEndpointWithSecret,
    handler: async (req, ctx) => ({
      data: await createEndpoint(ctx.trx, ctx.principal, req.body, deps.policy, ctx.now),
    }),
  });

  routes.read({
    url: '/api/v1/webhook-endpoints/:id',
    operationId: 'getWebhookEndpoint',
    tags: TAGS,
    summary: 'Get a webhook endpoint',
    description: 'Whether it is enabled, why it was disabled, and since when its deliveries fail.',
    scope: 'read:webhooks',
    failureCode: 'WEBHOOK_QUERY_FAILED',
    ...ENDPOINT,
    data: WebhookEndpoint,
    handler: async (req, ctx) => ({
      data: await getEndpoint(ctx.db, ctx.principal.workspaceId, req.params.id),
    }),
  });

  routes.write({
    method: 'PATCH',
    url: '/api/v1/webhook-endpoints/:id',
    operationId: 'updateWebhookEndpoint',
    tags: TAGS,
    summary: 'Update a webhook endpoint',
    description: 'Changes `url`, `description` or `event_types` (null: every type).',
    scope: 'write:webhooks',
    failureCode: 'WEBHOOK_UPDATE_FAILED',
    ...ENDPOINT,
    body: UpdateWebhookEndpointBody,
    data: WebhookEndpoint,
    handler: async (req, ctx) => ({
      data: await updateEndpoint(
        ctx.trx,
        ctx.principal.workspaceId,
        req.params.id,
        req.body,
        deps.policy,
        ctx.now,
      ),
    }),
  });

  routes.write({
    method: 'DELETE',
    url: '/api/v1/webhook-endpoints/:id',
    operationId: 'deleteWebhookEndpoint',
    tags: TAGS,
    summary: 'Delete a webhook endpoint',
    description: 'Deletes it with its delivery log; answers it as it was. Takes no body.',
    scope: 'write:webhooks',
    failureCode: 'WEBHOOK_UPDATE_FAILED',
    ...ENDPOINT,
    data: WebhookEndpoint,
    handler: async (req, ctx) => ({
      data: await deleteEndpoint(ctx.trx, ctx.principal.workspaceId, req.params.id),
    }),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/webhook-endpoints/:id/disable',
    operationId: 'disableWebhookEndpoint',
    tags: TAGS,
    summary: 'Disable a webhook endpoint',
    description:
      'Nothing more is sent; pending retries fail with the reason (default "disabled by hand").',
    scope: 'write:webhooks',
    status: 200,
    failureCode: 'WEBHOOK_UPDATE_FAILED',
    ...ENDPOINT,
    body: DisableWebhookEndpointBody,
    bodyOptional: true,
    data: WebhookEndpoint,
    handler: async (req, ctx) => ({
      data: await disableEndpoint(
        ctx.trx,
        ctx.principal.workspaceId,
        req.params.id,
        req.body.reason ?? 'disabled by hand',
        ctx.now,
      ),
    }),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/webhook-endpoints/:id/enable',
    operationId: 'enableWebhookEndpoint',
    tags: TAGS,
    summary: 'Enable a webhook endpoint',
    description:
      'It receives the events recorded from now on; what happened while it was disabled is in ' +
      'GET /events, and any logged delivery can be sent again.',
    scope: 'write:webhooks',
    status: 200,
    failureCode: 'WEBHOOK_UPDATE_FAILED',
    ...ENDPOINT,
    body: EmptyBody,
    bodyOptional: true,
    data: WebhookEndpoint,
    handler: async (req, ctx) => ({
      data: await enableEndpoint(ctx.trx, ctx.principal.workspaceId, req.params.id, ctx.now),
    }),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/webhook-endpoints/:id/rotate-secret',
    operationId: 'rotateWebhookEndpointSecret',
    tags: TAGS,
    summary: 'Rotate the signing secret',
    description:
      'A new secret, shown in this answer only; for 24 hours every delivery is signed with the ' +
      'old and the new one (two signatures in webhook-signature), then with the new one only.',
    scope: 'write:webhooks',
    status: 200,
    failureCode: 'WEBHOOK_UPDATE_FAILED',
    ...ENDPOINT,
    body: EmptyBody,
    bodyOptional: true,
    idempotency: 'ignore',
    data: WebhookEndpointWithSecret,
    handler: async (req, ctx) => ({
      data: await rotateSecret(ctx.trx, ctx.principal.workspaceId, req.params.id, ctx.now),
    }),
  });

  routes.list({
    url: '/api/v1/webhook-endpoints/:id/deliveries',
    operationId: 'listWebhookDeliveries',
    tags: TAGS,
    summary: 'List deliveries of a webhook endpoint',
    description:
      'The delivery log of the last 30 days, newest first: status, attempts, the last answer ' +
      '(status, duration, first 1 KB) and when a pending delivery is tried next.',
    scope: 'read:webhooks',
    failureCode: 'WEBHOOK_QUERY_FAILED',
    ...ENDPOINT,
    querystring: DeliveryQuery,
    paging: { list: 'webhook-deliveries' },
    item: WebhookDelivery,
    handler: (req, ctx) =>
      listDeliveries(ctx.db, ctx.principal.workspaceId, req.params.id, req.query, ctx.page),
  });

  routes.read({
    url: '/api/v1/webhook-endpoints/:id/deliveries/:deliveryId',
    operationId: 'getWebhookDelivery',
    tags: TAGS,
    summary: 'Get a webhook delivery',
    description: 'One delivery with its latest 50 attempts, newest first.',
    scope: 'read:webhooks',
    failureCode: 'WEBHOOK_QUERY_FAILED',
    params: WebhookDeliveryParams,
    notFound: 'Webhook delivery',
    data: WebhookDeliveryDetail,
    handler: async (req, ctx) => ({
      data: await getDelivery(
        ctx.db,
        ctx.principal.workspaceId,
        req.params.id,
        req.params.deliveryId,
      ),
    }),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/webhook-endpoints/:id/deliveries/:deliveryId/redeliver',
    operationId: 'redeliverWebhookDelivery',
    tags: TAGS,
    summary: 'Send a delivery again',
    description:
      'Due at once, with the same webhook-id and body; a failure retries on the schedule from ' +
      'its start. The endpoint must be enabled (409 WEBHOOK_ENDPOINT_DISABLED).',
    scope: 'write:webhooks',
    status: 200,
    failureCode: 'WEBHOOK_UPDATE_FAILED',
    errors: ['WEBHOOK_ENDPOINT_DISABLED'],
    params: WebhookDeliveryParams,
    notFound: 'Webhook delivery',
    body: EmptyBody,
    bodyOptional: true,
    data: WebhookDeliveryDetail,
    handler: async (req, ctx) => ({
      data: await redeliver(
        ctx.trx,
        ctx.principal.workspaceId,
        req.params.id,
        req.params.deliveryId,
        ctx.now,
      ),
    }),
  });
}
