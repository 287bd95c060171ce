import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import {
  cliTargets,
  listeningUrl,
  runInProcess,
  spawnBuiltVitro,
  stopServer,
  type CliTarget,
} from '../cli/support.js';
import { buildIfStale } from '../support/node-script.js';
import { isolatedPostgres, startReceiver, verified, type Receiver } from './support.js';

/**
 * Real server processes, as deployed: the built `vitro serve` (dist/, compiled when a source
 * changed), its deliveries on a thread of their own, a process killed with SIGKILL in the
 * middle of deliveries, and three processes on one PostgreSQL database sharing the work.
 */

/** Waits (bounded) until `done` holds; fails naming what was awaited. */
async function until(what: string, done: () => boolean, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function labOn(target: CliTarget, receiver: Receiver, databaseUrl: string | null) {
  const env: Record<string, string> = {
    ...target.env(),
    // On PostgreSQL, a database of this test's own: the servers' workers serve every
    // workspace of theirs, and must not take (or be taken) other test files' work.
    ...(databaseUrl === null ? {} : { DATABASE_URL: databaseUrl }),
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    // Attempts time out after 1 s; a dead process's leases run out 3 s after.
    WEBHOOK_TIMEOUT_SECONDS: '1',
    VITRO_RATE_LIMIT_KEY_PER_MIN: '100000',
    VITRO_RATE_LIMIT_WORKSPACE_PER_MIN: '100000',
    PORT: '0',
  };
  const ws = (await runInProcess(env, 'workspace', 'create', '--name', 'Pushed lab')).out.id;
  const member = (
    await runInProcess(env, 'member', 'add', '--workspace', ws, '--name', 'O', '--role', 'owner')
  ).out.id;
  const key = (await runInProcess(env, 'key', 'create', '--member', member)).out.key as string;
  const endpoint = (
    await runInProcess(env, 'webhook', 'create', '--workspace', ws, '--url', receiver.url)
  ).out as { id: string; secret: string };
  // The CLI runs in this process (it may run while servers serve); the servers are real ones.
  return { env, key, endpoint };
}

async function createPlants(bases: string[], key: string, count: number): Promise<void> {
  let next = 0;
  const lane = async (lane: number) => {
    while (next < count) {
      const n = next++;
      const res = await fetch(`${bases[(n + lane) % bases.length]}/api/v1/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ species: `Pushed plant ${n}` }),
      });
      expect(res.status).toBe(201);
      await res.arrayBuffer();
    }
  };
  await Promise.all([0, 1, 2, 3, 4, 5].map(lane));
}

const ids = (receiver: Receiver) => receiver.requests.map((r) => String(r.headers['webhook-id']));

describe.each(cliTargets())('webhook deliveries across processes ($name)', (target) => {
  let own: Awaited<ReturnType<typeof isolatedPostgres>> = null;
  beforeAll(async () => {
    buildIfStale();
    if (target.name === 'postgres') own = await isolatedPostgres();
  });
  afterAll(() => own?.drop());

  it('loses nothing when the delivering process is killed (kill -9) mid-delivery', async () => {
    let answering = false;
    const receiver = await startReceiver((_req, res) => {
      if (answering) res.writeHead(200).end();
    });
    const { env, key, endpoint } = await labOn(target, receiver, own?.url ?? null);
    const first = spawnBuiltVitro(env, 'serve');
    let second: ChildProcess | null = null;
    try {
      const base = await listeningUrl(first);
      await createPlants([base], key, 20);
      // Deliveries are in flight, unanswered: the process dies with them.
      await until('the first attempts', () => receiver.requests.length > 0);
      first.kill('SIGKILL');
      await once(first, 'exit');
      const cut = new Set(ids(receiver));
      answering = true;
      second = spawnBuiltVitro(env, 'serve');
      const secondBase = await listeningUrl(second);
      const events = (await (
        await fetch(`${secondBase}/api/v1/events?entity=plant&limit=200`, {
          headers: { authorization: `Bearer ${key}` },
        })
      ).json()) as { data: { id: string }[] };
      expect(events.data).toHaveLength(20);
      await until('every event delivered after the restart', () =>
        events.data.every((event) => ids(receiver).includes(event.id)),
      );
      // What the killed process was sending went out again, with the same webhook-id.
      const afterRestart = receiver.requests
        .slice(cut.size)
        .map((r) => String(r.headers['webhook-id']));
      for (const id of cut) expect(afterRestart).toContain(id);
      for (const request of receiver.requests) verified(request, endpoint.secret);

      // The CLI sends one again: the running server delivers it, same webhook-id.
      const log = await runInProcess(
        env,
        'webhook',
        'deliveries',
        '--endpoint',
        endpoint.id,
        '--limit',
        '1',
      );
      const [latest] = log.out.deliveries as { id: string; event_id: string; status: string }[];
      expect(latest!.status).toBe('delivered');
      const before = receiver.requests.length;
      const again = await runInProcess(env, 'webhook', 'redeliver', '--delivery', latest!.id);
      expect(again.out).toMatchObject({ id: latest!.id, status: 'pending' });
      await until('the redelivery', () => receiver.requests.length > before);
      expect(ids(receiver).at(-1)).toBe(latest!.event_id);
    } finally {
      await stopServer(first);
      if (second !== null) await stopServer(second);
      await receiver.close();
    }
  }, 120_000);

  it.runIf(target.name === 'postgres')(
    'three processes deliver 1,000 events with none missing and no webhook-id twice',
    async () => {
      const receiver = await startReceiver();
      const { env, key, endpoint } = await labOn(target, receiver, own?.url ?? null);
      const servers = [
        spawnBuiltVitro(env, 'serve'),
        spawnBuiltVitro(env, 'serve'),
        spawnBuiltVitro(env, 'serve'),
      ];
      try {
        const bases = await Promise.all(servers.map(listeningUrl));
        await createPlants(bases, key, 1000);
        await until('1,000 deliveries', () => receiver.requests.length >= 1000, 120_000);
        // Before counting, the work is done: the cursor at the last event, no lease held,
        // no retry pending (a duplicate could only come from work still under way).
        const database = openDatabase({ dialect: 'postgres', url: env.DATABASE_URL! });
        try {
          const idle = async () => {
            const row = await database.db
              .selectFrom('webhook_endpoints as e')
              .innerJoin('workspaces as w', 'w.id', 'e.workspace_id')
              .select(['e.feed_seq', 'w.event_seq', 'e.lease_owner'])
              .where('e.id', '=', endpoint.id)
              .executeTakeFirstOrThrow();
            const pending = await database.db
              .selectFrom('webhook_deliveries')
              .select('id')
              .where('endpoint_id', '=', endpoint.id)
              .where('status', '=', 'pending')
              .execute();
            return (
              Number(row.feed_seq) === Number(row.event_seq) &&
              row.lease_owner === null &&
              pending.length === 0
            );
          };
          const deadline = Date.now() + 60_000;
          while (!(await idle())) {
            if (Date.now() > deadline) throw new Error('the processes never finished');
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        } finally {
          await database.close();
        }
        const delivered = ids(receiver);
        expect(new Set(delivered).size).toBe(1000);
        expect(delivered).toHaveLength(1000);
      } finally {
        await Promise.all(servers.map(stopServer));
        await receiver.close();
      }
    },
    240_000,
  );
});
