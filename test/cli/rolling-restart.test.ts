import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { fixture } from '../files/fixtures.js';
import { TEST_SECRET } from '../support/harness.js';
import { freePort } from '../support/local-services.js';
import { parseResponses } from '../support/raw-http.js';
import { buildIfStale } from '../support/node-script.js';
import { REPO_ROOT, runInProcess, tempDir } from './support.js';

const BUCKET = 'vitro-rolling';
const PROCESSES = 3;
const WRITERS = 4;
const postgresUrl = inject('postgresUrl');
const redisUrl = inject('redisUrl');

interface Node {
  readonly port: number;
  readonly url: string;
  child: ChildProcess | null;
}

/** `node dist/cli/main.js serve`, as a deployment runs it; resolves once it listens. */
async function start(node: Node, env: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, ['dist/cli/main.js', 'serve'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(node.port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  node.child = child;
  for await (const line of createInterface({ input: child.stdout })) {
    if ((JSON.parse(line) as { listening?: string }).listening !== undefined) return;
  }
  throw new Error(`the process on port ${node.port} exited before listening`);
}

/** SIGTERM, then its exit code once it is gone. */
async function stop(node: Node): Promise<number | null> {
  const child = node.child!;
  const exited = once(child, 'exit') as Promise<[number | null]>;
  child.kill('SIGTERM');
  const [code] = await exited;
  node.child = null;
  return code;
}

/** True once nothing accepts connections on the port. */
function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/** Refusals a client retries, on another process, with the same Idempotency-Key. */
const retryable = (status: number | null) => status === null || status === 503;

describe.runIf(postgresUrl !== null && redisUrl !== null)(
  'scaled out: three processes on PostgreSQL, Redis and S3',
  () => {
    let s3: S3rver;
    let env: Record<string, string>;
    let key: string;
    const nodes: Node[] = [];

    beforeAll(async () => {
      // The tests run what `npm start` runs: dist/, compiled when a source changed.
      buildIfStale();
      s3 = new S3rver({
        address: '127.0.0.1',
        port: 0,
        silent: true,
        directory: mkdtempSync(join(tmpdir(), 'vitro-s3rver-')),
        configureBuckets: [{ name: BUCKET }],
      });
      const { port } = await s3.run();
      env = {
        DATABASE_URL: postgresUrl!,
        REDIS_URL: redisUrl!,
        VITRO_SECRET: TEST_SECRET,
        STORAGE_URL: `s3://${BUCKET}?endpoint=http://127.0.0.1:${port}&region=us-east-1&force_path_style=true`,
        AWS_ACCESS_KEY_ID: 'S3RVER',
        AWS_SECRET_ACCESS_KEY: 'S3RVER',
        VITRO_DATA_DIR: tempDir(),
        VITRO_RATE_LIMIT_KEY_PER_MIN: '100000',
        VITRO_RATE_LIMIT_WORKSPACE_PER_MIN: '100000',
        LOG_LEVEL: 'warn',
      };
      const workspace = await runInProcess(env, 'workspace', 'create', '--name', 'Rolling lab');
      const member = await runInProcess(
        env,
        'member',
        'add',
        '--workspace',
        workspace.out.id,
        '--name',
        'Ops',
        '--role',
        'owner',
      );
      key = (await runInProcess(env, 'key', 'create', '--member', member.out.id)).out.key;
      for (let i = 0; i < PROCESSES; i++) {
        const port = await freePort();
        nodes.push({ port, url: `http://127.0.0.1:${port}`, child: null });
      }
      await Promise.all(nodes.map((node) => start(node, env)));
    }, 240_000);

    afterAll(async () => {
      for (const node of nodes) if (node.child !== null) await stop(node);
      s3?.httpServer.closeAllConnections();
      await s3?.close();
    });

    const headers = () => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

    it('a photo uploaded through one process is served through the others’ view_url', async () => {
      const [a, b, c] = nodes;
      const plant = await fetch(`${a!.url}/api/v1/plants`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({ species: 'Ficus lyrata' }),
      });
      const plantId = ((await plant.json()) as { data: { id: string } }).data.id;
      const jpeg = fixture('tiny.jpg');
      const uploaded = await fetch(`${a!.url}/api/v1/assets`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify({
          target: 'plant',
          target_id: plantId,
          image_base64: jpeg.toString('base64'),
        }),
      });
      expect(uploaded.status).toBe(201);
      const assetId = ((await uploaded.json()) as { data: { id: string } }).data.id;
      for (const node of [b!, c!]) {
        const res = await fetch(`${node.url}/api/v1/assets/${assetId}`, { headers: headers() });
        const { view_url } = ((await res.json()) as { data: { view_url: string } }).data;
        const photo = await fetch(view_url);
        expect(photo.status).toBe(200);
        expect(Buffer.from(await photo.arrayBuffer()).equals(jpeg)).toBe(true);
      }
    });

    it('SIGTERM waits for a write in flight and its Idempotency-Key completion', async () => {
      const [a, b] = nodes;
      const idempotencyKey = `in-flight-${randomUUID()}`;
      const body = JSON.stringify({ species: 'Ficus lyrata', external_id: idempotencyKey });
      const socket = connect(a!.port, '127.0.0.1');
      await once(socket, 'connect');
      const received: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      const responses = () =>
        parseResponses(Buffer.concat(received)).responses.filter((r) => r.status !== 100);
      const heard = (done: () => boolean) =>
        new Promise<void>((resolve) => {
          const check = () => {
            if (done()) resolve();
          };
          socket.on('data', check);
          check();
        });
      // The request arrives, its body only half: `100 Continue` says the server has
      // taken it up, so it is in flight when SIGTERM comes.
      socket.write(
        `POST /api/v1/plants HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
          `Content-Type: application/json\r\nIdempotency-Key: ${idempotencyKey}\r\n` +
          `Expect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
      );
      await heard(() => Buffer.concat(received).toString().startsWith('HTTP/1.1 100 Continue'));
      socket.write(body.slice(0, 10));
      const exited = once(a!.child!, 'exit') as Promise<[number | null]>;
      a!.child!.kill('SIGTERM');
      while (!(await refuses(a!.port))) await new Promise((resolve) => setTimeout(resolve, 20));
      // (Not end(): a client's half-close aborts its request in Node's HTTP server.)
      socket.write(body.slice(10));
      await heard(() => responses().length > 0);
      socket.destroy();
      const [response] = responses();
      expect(response?.status).toBe(201);
      const [code] = await exited;
      expect(code).toBe(0);
      a!.child = null;
      // Stored with its response: a retry through another process replays it.
      const replay = await fetch(`${b!.url}/api/v1/plants`, {
        method: 'POST',
        headers: { ...headers(), 'idempotency-key': idempotencyKey },
        body,
      });
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replay')).toBe('true');
      expect(await replay.text()).toBe(response!.body);
      await start(a!, env);
    });

    it('a rolling restart under writes ends with 0 failed requests and 0 lost writes', async () => {
      const acknowledged = new Map<string, string>();
      const failed: string[] = [];
      let retries = 0;
      let stopWriting = false;
      let next = 0;
      let turn = 0;
      const write = async (externalId: string) => {
        const body = JSON.stringify({ species: 'Ficus lyrata', external_id: externalId });
        for (let attempt = 0; attempt < 200; attempt++) {
          const node = nodes[turn++ % nodes.length]!;
          let status: number | null = null;
          let text = '';
          try {
            const res = await fetch(`${node.url}/api/v1/plants`, {
              method: 'POST',
              headers: { ...headers(), 'idempotency-key': externalId },
              body,
            });
            status = res.status;
            text = await res.text();
          } catch {
            status = null;
          }
          if (status === 201) {
            acknowledged.set(externalId, (JSON.parse(text) as { data: { id: string } }).data.id);
            return;
          }
          if (!retryable(status)) {
            failed.push(`${externalId}: ${status} ${text}`);
            return;
          }
          retries += 1;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        failed.push(`${externalId}: gave up`);
      };
      const writer = async () => {
        while (!stopWriting) await write(`rolling-${next++}`);
      };
      const writers = Array.from({ length: WRITERS }, writer);
      const exitCodes: (number | null)[] = [];
      const timings: string[] = [];
      try {
        for (const node of nodes) {
          const before = acknowledged.size;
          while (acknowledged.size < before + 10) await new Promise((r) => setTimeout(r, 20));
          const t0 = Date.now();
          exitCodes.push(await stop(node));
          const t1 = Date.now();
          await start(node, env);
          timings.push(`stop ${t1 - t0} ms, start ${Date.now() - t1} ms`);
          console.log(`restarted ${node.url}: ${timings.at(-1)}`);
        }
        const after = acknowledged.size;
        while (acknowledged.size < after + 10) await new Promise((r) => setTimeout(r, 20));
      } finally {
        stopWriting = true;
        await Promise.all(writers);
      }
      expect(failed).toEqual([]);
      expect(exitCodes).toEqual([0, 0, 0]);
      // Every write acknowledged is there, exactly once.
      const ids = new Map<string, string>();
      let cursor: string | null = null;
      do {
        const page: string = `${nodes[0]!.url}/api/v1/plants?limit=100${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
        const res = await fetch(page, { headers: headers() });
        const json = (await res.json()) as {
          data: { id: string; external_id: string | null }[];
          meta: { next_cursor: string | null };
        };
        for (const plant of json.data) {
          if (plant.external_id?.startsWith('rolling-')) ids.set(plant.external_id, plant.id);
        }
        cursor = json.meta.next_cursor;
      } while (cursor !== null);
      expect(ids).toEqual(acknowledged);
      expect(acknowledged.size).toBeGreaterThanOrEqual(40);
      console.log(
        `rolling restart: ${acknowledged.size} writes acknowledged, ${retries} retried after a refusal, 0 failed; ${timings.join('; ')}`,
      );
    }, 180_000);
  },
);
