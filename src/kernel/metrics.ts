import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics: request counts and latency by route and status, at GET /metrics. */
export function installMetrics(app: FastifyInstance): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'vitro_' });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'vitro_http_requests_total',
    help: 'HTTP requests by method, route template and status',
    labelNames,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'vitro_http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  app.addHook('onResponse', async (req, reply) => {
    const labels = {
      method: req.method,
      route: req.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
    const text = await registry.metrics();
    return reply.type(registry.contentType).send(text);
  });
  return registry;
}
