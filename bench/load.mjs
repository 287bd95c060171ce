// One autocannon run against one server: throughput and latency percentiles of 2xx answers.
import autocannon from 'autocannon';
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

export async function loadServer(server, request, { apiKey, connections, duration }) {
  const latencies = new LatencyRecorder();
  const instance = autocannon({
    url: `${server.url}${request.path}`,
    method: request.method,
    headers: { authorization: `Bearer ${apiKey}`, ...request.headers },
    body: request.body,
    // A request whose body changes every time (`nextBody`) is built anew for each send.
    ...(request.nextBody && {
      requests: [{ setupRequest: (built) => ({ ...built, body: request.nextBody() }) }],
    }),
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
