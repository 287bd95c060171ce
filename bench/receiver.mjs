// The bench's webhook receiver, in a process of its own (started by webhooks.mjs): its
// event loop is not the runner's, which autocannon keeps busy, so a delivery is timed when
// it arrives, not when the load generator next lets a callback run. Answers 204 at once and
// reports, over IPC, what it saw since the last `take`.
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import process from 'node:process';

let latencies = [];
let first = null;
let last = null;

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const now = Date.now();
    res.writeHead(204).end();
    try {
      const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      latencies.push(now - Date.parse(timestamp));
    } catch {
      latencies.push(Number.NaN);
    }
    first ??= now;
    last = now;
  });
});
server.keepAliveTimeout = 60_000;

function take() {
  const sorted = latencies.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const at = (p) =>
    sorted.length === 0 ? null : sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
  const seconds = first === null || last === first ? null : (last - first) / 1000;
  const stats = {
    deliveries: latencies.length,
    perSecond: seconds === null ? null : latencies.length / seconds,
    p50: at(50),
    p99: at(99),
  };
  latencies = [];
  first = null;
  last = null;
  return stats;
}

process.on('message', ({ id, ask }) => {
  if (ask === 'count') process.send({ id, answer: latencies.length });
  else if (ask === 'take') process.send({ id, answer: take() });
  else if (ask === 'close') {
    server.closeAllConnections();
    server.close(() => process.send({ id, answer: null }, () => process.exit(0)));
  }
});

server.listen(0, '127.0.0.1', () => process.send({ id: 0, answer: server.address().port }));
