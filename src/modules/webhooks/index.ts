/**
 * Webhooks: endpoints and their delivery log (this folder), and the engine that
 * delivers the change feed to them (`delivery/`: the worker, its thread, the write gate).
 */
export { registerWebhookRoutes } from './webhooks.routes.js';
export { targetPolicy, type TargetPolicy } from './target.js';
export { DeliveryWorker, type Deliverer, type DeliveryWorkerOptions } from './delivery/worker.js';
export { DeliveryThread, deliveryThreadAvailable } from './delivery/delivery-thread.js';
export { holdWritesForDelivery } from './delivery/hold.js';
export { DeliveryPressure } from './delivery/pressure.js';
export { webhookBody } from './delivery/attempt.js';
export { RETRY_DELAYS_MS } from './delivery/schedule.js';
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
