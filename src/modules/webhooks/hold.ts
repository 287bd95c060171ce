import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { DeliveryWorker } from './worker.js';

/** Methods that are never held: reads. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Holds each write request (any method but GET, HEAD and OPTIONS) for as long as the
 * worker's delivery pressure asks before it is served: nothing, unless this process is
 * saturated and its webhook deliveries fall behind (pressure.ts). /metrics shows the
 * hold and the lag it answers.
 */
export function holdWritesForDelivery(
  app: FastifyInstance,
  worker: DeliveryWorker,
  registry: Registry,
): void {
  const held = new Counter({
    name: 'vitro_webhook_writes_held_total',
    help: 'Write requests this process held so that webhook deliveries keep up',
    registers: [registry],
  });
  app.addHook('onRequest', async (request) => {
    if (READS.has(request.method)) return;
    const ms = worker.holdMs();
    if (ms <= 0) return;
    held.inc();
    await sleep(ms);
  });
  new Gauge({
    name: 'vitro_webhook_write_hold_seconds',
    help: 'How long this process holds each write request so that webhook deliveries keep up',
    registers: [registry],
    collect() {
      this.set(worker.holdMs() / 1000);
    },
  });
  new Gauge({
    name: 'vitro_webhook_delivery_lag_seconds',
    help: 'How old the oldest event this process was delivering to a healthy endpoint was, at the last look',
    registers: [registry],
    collect() {
      this.set(worker.lagMs() / 1000);
    },
  });
}
