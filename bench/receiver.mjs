// The bench's webhook receiver, in a process of its own (started by webhooks.mjs): its
// event loop is not the runner's, which autocannon keeps busy, so a delivery is timed when
// it arrives, not when the load generator next lets a callback run. Answers 204 at once and
// reports, over IPC, what it saw since the last `take`: each delivery timed from its event's
// `timestamp`, and the deliveries of the runner's probes (records it created and noted when
// their creation was answered) from that answer.
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import process from 'node:process';

let latencies = [];
let first = null;
let last = null;
/** When each record's deliveries arrived, by the record's id (the event's entity_id). */
let arrivals = new Map();

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const now = Date.now();
    res.writeHead(204).end();
    try {
      const { timestamp, data } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      latencies.push(now - Date.parse(timestamp));
      const entity = data?.entity_id;
      if (typeof entity === 'string') {
        const seen = arrivals.get(entity);
        if (seen === undefined) arrivals.set(entity, [now]);
        else seen.push(now);
      }
    } catch {
      latencies.push(Number.NaN);
    }
    first ??= now;
    last = now;
  });
});
server.keepAliveTimeout = 60_000;

const percentile = (sorted, p) =>
  sorted.length === 0 ? null : sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];

function take(probes = []) {
  const sorted = latencies.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const at = (p) => percentile(sorted, p);
  const fromAnswer = probes
    .flatMap(({ id, at: answeredAt }) => (arrivals.get(id) ?? []).map((t) => t - answeredAt))
    .sort((a, b) => a - b);
  const seconds = first === null || last === first ? null : (last - first) / 1000;
  const stats = {
    deliveries: latencies.length,
    perSecond: seconds === null ? null : latencies.length / seconds,
    p50: at(50),
    p99: at(99),
    probes: {
      deliveries: fromAnswer.length,
      p50: percentile(fromAnswer, 50),
      p99: percentile(fromAnswer, 99),
    },
  };
  latencies = [];
  arrivals = new Map();
  first = null;
  last = null;
  return stats;
}

process.on('message', ({ id, ask, probes }) => {
  if (ask === 'count') process.send({ id, answer: latencies.length });
  else if (ask === 'take') process.send({ id, answer: take(probes) });
  else if (ask === 'close') {
    server.closeAllConnections();
    server.close(() => process.send({ id, answer: null }, () => process.exit(0)));
  }
});

server.listen(0, '127.0.0.1', () => process.send({ id: 0, answer: server.address().port }));
