// Media files: peak memory of 10 concurrent 10 MB image_url uploads, and upload throughput of
// 1 MB inline images, against the real Vitro server (dist/) on SQLite and the local file store.
//   node bench/assets.mjs [--duration 10] [--connections 10]
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import autocannon from 'autocannon';
import { URL } from 'node:url';
import { parseArgs } from 'node:util';
import { startServer } from './servers.mjs';
import { seed } from './seed.mjs';

const { fetch } = globalThis;

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
  },
});
const FIXTURES = new URL('../test/files/fixtures/', import.meta.url);
const PNG = readFileSync(new URL('tiny.png', FIXTURES));
const CERT = new URL('test-server.crt', FIXTURES).pathname;
const MB = 1024 * 1024;
/** A valid PNG signature and header, padded to `size` bytes: what the server sniffs and stores. */
const imageOf = (size) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length, 7)]);

/** Peak resident memory of a process so far (Linux VmHWM), in MB. */
function peakRssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) / 1024;
}
function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

const dir = mkdtempSync(join(tmpdir(), 'vitro-bench-assets-'));
const path = join(dir, 'bench.db');
const seeded = await seed({ dialect: 'sqlite', path }, { plants: 10 });

const big = imageOf(10 * MB);
const images = createServer(
  {
    key: readFileSync(new URL('test-server.key', FIXTURES)),
    cert: readFileSync(CERT),
  },
  (req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(big),
);
await new Promise((resolve) => images.listen(0, '127.0.0.1', resolve));
const imagesPort = images.address().port;

const server = await startServer({
  name: 'vitro',
  script: new URL('./vitro-server.mjs', import.meta.url).pathname,
  env: {
    ...process.env,
    DATABASE_URL: `sqlite:${path}`,
    VITRO_DATA_DIR: dir,
    VITRO_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    LOG_LEVEL: 'silent',
    VITRO_RATE_LIMIT_KEY_PER_MIN: '100000000',
    VITRO_RATE_LIMIT_WORKSPACE_PER_MIN: '100000000',
    VITRO_ALLOWED_PRIVATE_ADDRESSES: '127.0.0.1/32',
    // The loopback image server's self-signed certificate, trusted by this process only.
    NODE_EXTRA_CA_CERTS: CERT,
  },
  execArgv: [],
});
const headers = { authorization: `Bearer ${seeded.apiKey}`, 'content-type': 'application/json' };
const post = (payload) =>
  fetch(`${server.url}/api/v1/assets`, { method: 'POST', headers, body: JSON.stringify(payload) });

try {
  // Warm up (loads the code paths once) and note the baseline.
  const warm = await post({
    target: 'plant',
    target_id: seeded.plantId,
    image_base64: PNG.toString('base64'),
  });
  if (warm.status !== 201)
    throw new Error(`warm-up upload answered ${warm.status}: ${await warm.text()}`);
  const idle = rssMb(server.pid);

  const started = Date.now();
  const statuses = await Promise.all(
    Array.from({ length: 10 }, () =>
      post({
        target: 'plant',
        target_id: seeded.plantId,
        image_url: `https://127.0.0.1:${imagesPort}/big.png`,
      }).then(async (res) => {
        await res.arrayBuffer();
        return res.status;
      }),
    ),
  );
  const elapsed = (Date.now() - started) / 1000;
  if (statuses.some((s) => s !== 201))
    throw new Error(`10 MB uploads answered ${statuses.join(', ')}`);
  console.log(
    `10 concurrent 10 MB image_url uploads: all 201 in ${elapsed.toFixed(1)} s; ` +
      `RSS idle ${idle.toFixed(0)} MB, peak ${peakRssMb(server.pid).toFixed(0)} MB (budget 400 MB)`,
  );

  const oneMb = JSON.stringify({
    target: 'plant',
    target_id: seeded.plantId,
    image_base64: imageOf(MB).toString('base64'),
  });
  const result = await autocannon({
    url: `${server.url}/api/v1/assets`,
    method: 'POST',
    headers,
    body: oneMb,
    connections: Number(args.connections),
    duration: Number(args.duration),
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`1 MB uploads: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  console.log(
    `1 MB inline uploads, ${args.connections} connections, ${args.duration} s: ` +
      `${result.requests.average.toFixed(1)} uploads/s (${result.requests.average.toFixed(1)} MB/s of images), ` +
      `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; peak RSS ${peakRssMb(server.pid).toFixed(0)} MB`,
  );
} finally {
  await server.stop();
  images.close();
}
