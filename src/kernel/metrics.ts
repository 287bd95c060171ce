import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { AppError } from './errors.js';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  readonly labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative); the last slot is above the largest bound. */
  readonly buckets: number[];
}

/**
 * Request counts and latency by route template, method and status. prom-client's
 * own Counter/Histogram validate and hash their labels on every observation,
 * which costs a measurable share of a fast request; these series add with plain
 * arithmetic and hand prom-client's registry the same values when scraped.
 */
function httpMetrics(registry: Registry) {
  const series = new Map<string, Series>();
  const seriesFor = (method: string, route: string, status: number): Series => {
    const key = `${method} ${status} ${route}`;
    let found = series.get(key);
    if (found === undefined) {
      found = {
        labels: { method, route, status: String(status) },
        count: 0,
        sum: 0,
        buckets: new Array<number>(BUCKETS.length + 1).fill(0),
      };
      series.set(key, found);
    }
    return found;
  };

  const requests = {
    name: 'vitro_http_requests_total',
    help: 'HTTP requests by method, route template and status',
    type: 'counter',
    aggregator: 'sum',
    get: async () => ({
      ...requests,
      values: [...series.values()].map((s) => ({ labels: s.labels, value: s.count })),
    }),
  };
  const latencyName = 'vitro_http_request_duration_seconds';
  const latency = {
    name: latencyName,
    help: 'HTTP request latency in seconds by method, route template and status',
    type: 'histogram',
    aggregator: 'sum',
    get: async () => ({
      ...latency,
      values: [...series.values()].flatMap((s) => {
        let cumulative = 0;
        const buckets = BUCKETS.map((bound, i) => {
          cumulative += s.buckets[i]!;
          return {
            metricName: `${latencyName}_bucket`,
            labels: { ...s.labels, le: bound },
            value: cumulative,
          };
        });
        return [
          ...buckets,
          {
            metricName: `${latencyName}_bucket`,
            labels: { ...s.labels, le: '+Inf' },
            value: s.count,
          },
          { metricName: `${latencyName}_sum`, labels: s.labels, value: s.sum },
          { metricName: `${latencyName}_count`, labels: s.labels, value: s.count },
        ];
      }),
    }),
  };
  registry.registerMetric(requests as unknown as Metric);
  registry.registerMetric(latency as unknown as Metric);

  return (method: string, route: string, status: number, seconds: number) => {
    const s = seriesFor(method, route, status);
    s.count += 1;
    s.sum += seconds;
    let bucket = 0;
    while (bucket < BUCKETS.length && seconds > BUCKETS[bucket]!) bucket += 1;
    s.buckets[bucket]! += 1;
  };
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function isLoopback(address: string | undefined): boolean {
  if (address === undefined || !ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'loopback';
}

/** Who may read /metrics. */
export interface MetricsAccess {
  /** METRICS_TOKEN: required from every client; null = loopback clients only. */
  readonly token: string | null;
  /**
   * Names of this server a loopback client may call it by (lower case), besides
   * `localhost` and IP addresses: this machine's host name, PUBLIC_URL's, HOST's.
   */
  readonly hostNames: readonly string[];
}

/** The host name of a Host header, lower case, without port or IPv6 brackets. */
function hostNameOf(host: string | undefined): string {
  if (host === undefined) return '';
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.split(':')[0]!;
  return name.toLowerCase();
}

/**
 * Whether a loopback client called this server by a name of its own. A page of
 * another site that has rebound its DNS name to 127.0.0.1 sends that name as its
 * Host: it is none of these, so the page cannot read the metrics.
 */
function ownHost(host: string | undefined, names: readonly string[]): boolean {
  const name = hostNameOf(host);
  return name === 'localhost' || ipaddr.isValid(name) || names.includes(name);
}

/**
 * Who may read /metrics: with METRICS_TOKEN set, any client sending it as a
 * Bearer token; without, clients on this machine only (their socket address is
 * loopback), so a server on 0.0.0.0 does not publish its metrics by default, and
 * only by one of the server's own names, so a page that rebinds its DNS name to
 * this machine does not read them either.
 */
function checkMetricsAccess(req: FastifyRequest, access: MetricsAccess): void {
  const token = access.token;
  if (token !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (match === null || !sameSecret(match[1]!, token)) {
      throw new AppError('UNAUTHORIZED', '/metrics needs Authorization: Bearer <METRICS_TOKEN>', {
        'www-authenticate': 'Bearer realm="metrics"',
      });
    }
    return;
  }
  if (!isLoopback(req.socket.remoteAddress)) {
    throw new AppError(
      'FORBIDDEN',
      '/metrics answers clients on this machine only; set METRICS_TOKEN on the server to ' +
        'read it from elsewhere with Authorization: Bearer <METRICS_TOKEN>',
    );
  }
  if (!ownHost(req.headers.host, access.hostNames)) {
    throw new AppError(
      'FORBIDDEN',
      `/metrics answers clients on this machine only by this server's own names ` +
        `(localhost, an IP address${access.hostNames.map((n) => `, ${n}`).join('')}), ` +
        `not by Host "${hostNameOf(req.headers.host)}"; scrape it at one of those, or set ` +
        'METRICS_TOKEN on the server and send Authorization: Bearer <METRICS_TOKEN>',
    );
  }
}

/** The names a loopback scraper may call this server by, besides localhost and IP addresses. */
export function ownHostNames(input: {
  machine: string;
  publicUrl: string;
  host: string;
}): string[] {
  const names = new Set<string>();
  const add = (name: string) => {
    const lower = name.toLowerCase().replace(/\.$/, '');
    if (lower !== '' && !ipaddr.isValid(lower)) names.add(lower);
  };
  add(input.machine);
  add(input.machine.split('.')[0]!);
  add(new URL(input.publicUrl).hostname.replace(/^\[|\]$/g, ''));
  add(input.host);
  names.delete('localhost');
  return [...names];
}

/**
 * Prometheus metrics: request counts and latency by route and status, at GET
 * /metrics, for loopback clients calling the server by its own names, or holders
 * of the token.
 */
export function installMetrics(app: FastifyInstance, access: MetricsAccess): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'vitro_' });
  const record = httpMetrics(registry);

  app.addHook('onResponse', (req, reply, done) => {
    record(
      req.method,
      req.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    checkMetricsAccess(req, access);
    const text = await registry.metrics();
    return reply.type(registry.contentType).send(text);
  });
  return registry;
}
