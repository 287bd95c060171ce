import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listeningUrl, runProcess, spawnVitro, stopServer, tempDir } from './support.js';

/** `count` plant creations against `base`, `concurrency` at a time; the statuses answered. */
async function createPlants(
  base: string,
  key: string,
  count: number,
  concurrency: number,
): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const res = await fetch(`${base}/api/v1/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ species: `Writer plant ${n}`, external_id: `${base}-${n}` }),
      });
      statuses.push(res.status);
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return statuses;
}

/**
 * Two server processes and the CLI on one SQLite file (DESIGN: the CLI may run
 * while the server serves). Write transactions take the write lock when they
 * begin and queue for it; none fails.
 */
describe('two writer processes on one SQLite file', () => {
  it('lose no request: every write of both servers and the CLI succeeds', async () => {
    const dir = tempDir();
    const env = {
      VITRO_DATA_DIR: dir,
      DATABASE_URL: `sqlite:${join(dir, 'lab.db')}`,
      LOG_LEVEL: 'silent',
    };
    const workspace = await runProcess(env, 'workspace', 'create', '--name', 'Two writers');
    const member = await runProcess(
      env,
      'member',
      'add',
      '--workspace',
      workspace.out.id,
      '--name',
      'Ada',
      '--role',
      'owner',
    );
    const key = (await runProcess(env, 'key', 'create', '--member', member.out.id)).out.key;

    const servers = [
      spawnVitro({ ...env, PORT: '0' }, 'serve'),
      spawnVitro({ ...env, PORT: '0' }, 'serve'),
    ];
    try {
      const [a, b] = await Promise.all(servers.map(listeningUrl));
      const [fromA, fromB, cli] = await Promise.all([
        createPlants(a!, key, 150, 8),
        createPlants(b!, key, 150, 8),
        Promise.all(
          Array.from({ length: 4 }, (_, i) =>
            runProcess(
              env,
              'member',
              'add',
              '--workspace',
              workspace.out.id,
              '--name',
              `M${i}`,
              '--role',
              'member',
            ),
          ),
        ),
      ]);
      const failures = [...fromA, ...fromB].filter((status) => status !== 201);
      expect(failures).toEqual([]);
      expect(cli.map((result) => [result.code, result.stderr])).toEqual(Array(4).fill([0, '']));

      let total = 0;
      let cursor: string | null = null;
      do {
        const res: Response = await fetch(
          `${a}/api/v1/plants?limit=200${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
          { headers: { authorization: `Bearer ${key}` } },
        );
        const page = (await res.json()) as {
          data: unknown[];
          meta: { next_cursor: string | null };
        };
        total += page.data.length;
        cursor = page.meta.next_cursor;
      } while (cursor !== null);
      expect(total).toBe(300);
    } finally {
      await Promise.all(servers.map(stopServer));
    }
  }, 120_000);
});
