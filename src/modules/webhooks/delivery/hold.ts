import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { DeliveryPressure } from './pressure.js';

/** Methods that are never held: reads. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Makes each write request (any method but GET, HEAD and OPTIONS) wait, before it is
 * served, while this process is saturated and its webhook deliveries fall behind
 * (pressure.ts, told by the delivery worker or thread); at once otherwise. The gate
 * samples this event loop while the app runs. /metrics shows the writes held and
 * waiting, and the lag.
 */
export function holdWritesForDelivery(
  app: FastifyInstance,
  pressure: DeliveryPressure,
  registry: Registry,
): void {
  const held = new Counter({
    name: 'vitro_webhook_writes_held_total',
    help: 'Write requests this process held so that webhook deliveries keep up',
    registers: [registry],
  });
  app.addHook('onReady', async () => pressure.startSampling());
  app.addHook('onClose', async () => pressure.stopSampling());
  // Synchronous unless it holds: it runs on every request, and an async hook costs a
  // promise each time.
  app.addHook('onRequest', (request, _reply, done) => {
    if (READS.has(request.method) || !pressure.behind()) {
      done();
      return;
    }
    pressure.admit().then((wasHeld) => {
      if (wasHeld) held.inc();
      done();
    }, done);
  });
  new Gauge({
    name: 'vitro_webhook_writes_waiting',
    help: 'Write requests waiting now so that webhook deliveries keep up',
    registers: [registry],
    collect() {
      this.set(pressure.waiting());
    },
  });
  new Gauge({
    name: 'vitro_webhook_delivery_lag_seconds',
    help: 'How old the oldest event a healthy endpoint may still wait for is, in this process',
    registers: [registry],
    collect() {
      this.set(pressure.lagMs() / 1000);
    },
  });
}
