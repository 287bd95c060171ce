// One autocannon run against one server: throughput and latency percentiles of 2xx answers.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { watchOtherLoad } from './machine.mjs';

/** Latencies at full hrtime precision (autocannon's own histogram rounds to whole ms). */
class LatencyRecorder {
  #values = new Float64Array(1 << 16);
  #count = 0;

  record(ms) {
    if (this.#count === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.#count++] = ms;
  }

  /** Nearest-rank percentiles, e.g. `percentiles([50, 99])`; nulls when nothing was recorded. */
  percentiles(ranks) {
    const sorted = this.#values.subarray(0, this.#count).sort();
    return ranks.map((p) =>
      sorted.length === 0 ? null : sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)],
    );
  }
}

/**
 * `request.bodies`, when given, makes a body factory per run: each request gets a new body.
 * `rate`, when given, caps the requests per second of the whole run (autocannon overallRate).
 */
export async function loadServer(server, request, { apiKey, connections, duration, rate }) {
  const latencies = new LatencyRecorder();
  const headers = { authorization: `Bearer ${apiKey}`, ...request.headers };
  // A body that changes on every send: a case's `bodies()` generator, or its request's `nextBody`.
  const nextBody = request.bodies?.() ?? request.nextBody;
  const instance = autocannon({
    url: `${server.url}${request.path}`,
    method: request.method,
    headers,
    body: request.body,
    ...(nextBody === undefined
      ? {}
      : {
          requests: [
            {
              method: request.method,
              path: request.path,
              headers,
              setupRequest: (req) => ({ ...req, body: nextBody() }),
            },
          ],
        }),
    ...(rate === undefined ? {} : { overallRate: rate }),
    connections,
    duration,
  });
  instance.on('response', (_client, statusCode, _bytes, ms) => {
    if (statusCode >= 200 && statusCode < 300) latencies.record(ms);
  });
  const otherLoad = watchOtherLoad(server.pid);
  const result = await instance;
  const { otherCores, serverSeconds } = otherLoad.stop();
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `${server.name} ${request.method} ${request.path}: ${result.non2xx} non-2xx answers and ` +
        `${result.errors} errors under load (${JSON.stringify(result.statusCodeStats)})`,
    );
  }
  const [p50, p99] = latencies.percentiles([50, 99]);
  // CPU time the server spent per answer: unlike req/s, barely moved by a busy neighbour.
  const cpuMs =
    serverSeconds === null || result.requests.total === 0
      ? null
      : (serverSeconds * 1000) / result.requests.total;
  return {
    rps: result.requests.average,
    requests: result.requests.total,
    p50,
    p99,
    cpuMs,
    otherCores,
  };
}

/**
 * Open-loop load at a steady `rate`: request i starts at i/rate seconds whatever happened to
 * the ones before (autocannon's overallRate sends each second's share in a burst), and its
 * latency counts from when it was due, so a server that falls behind shows it.
 */
export async function pacedLoad(server, request, { apiKey, connections, duration, rate }) {
  const latencies = new LatencyRecorder();
  const pool = new Pool(server.url, { connections, pipelining: 1 });
  const headers = { authorization: `Bearer ${apiKey}`, ...request.headers };
  const nextBody = request.bodies?.();
  const total = Math.round(rate * duration);
  const otherLoad = watchOtherLoad(server.pid);
  const start = performance.now();
  let failures = 0;
  const one = async (i) => {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const res = await pool.request({
      method: request.method,
      path: request.path,
      headers,
      body: nextBody === undefined ? request.body : nextBody(),
    });
    await res.body.dump();
    if (res.statusCode >= 200 && res.statusCode < 300) latencies.record(performance.now() - due);
    else failures += 1;
  };
  await Promise.all(Array.from({ length: total }, (_, i) => one(i)));
  const elapsed = (performance.now() - start) / 1000;
  const { otherCores, serverSeconds } = otherLoad.stop();
  await pool.close();
  if (failures > 0) throw new Error(`${server.name} ${request.path}: ${failures} failed requests`);
  const [p50, p99] = latencies.percentiles([50, 99]);
  const cpuMs = serverSeconds === null || total === 0 ? null : (serverSeconds * 1000) / total;
  return { rps: total / elapsed, requests: total, p50, p99, cpuMs, otherCores };
}
