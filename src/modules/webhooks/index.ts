/** Webhooks: endpoints, their delivery log, and the worker that delivers the change feed. */
export { registerWebhookRoutes } from './webhooks.routes.js';
export { targetPolicy, type TargetPolicy } from './target.js';
export { DeliveryWorker, type Deliverer, type DeliveryWorkerOptions } from './worker.js';
export { DeliveryThread, deliveryThreadAvailable } from './delivery-thread.js';
export { holdWritesForDelivery } from './hold.js';
export { DeliveryPressure } from './pressure.js';
export { webhookBody } from './attempt.js';
export { RETRY_DELAYS_MS } from './schedule.js';
export {
  createEndpoint,
  deleteEndpoint,
  disableEndpoint,
  enableEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
  workspaceOfEndpoint,
} from './endpoints.service.js';
export { CreateWebhookEndpointBody, UpdateWebhookEndpointBody } from './webhooks.schemas.js';
export { getDelivery, listDeliveries, redeliver, redeliverById } from './deliveries.service.js';
