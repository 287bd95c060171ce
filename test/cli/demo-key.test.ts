import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServe } from '../../src/cli/serve.js';
import { generateCredential } from '../../src/kernel/credentials.js';
import { cliTargets, runInProcess, tempDir } from './support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface DemoLine {
  status: string;
  key_file: string;
  workspace_id?: string;
  key?: string;
  message?: string;
}

/** `vitro serve --demo` in this process: its start line's `demo` entry, then it stops. */
async function startDemo(env: Record<string, string>, demo = true): Promise<DemoLine | undefined> {
  const started = await startServe(
    { env: { PORT: '0', LOG_LEVEL: 'silent', ...env }, out: () => undefined, err: () => undefined },
    { demo, handleSignals: false, logger: false },
  );
  try {
    const summary = started.summary as { demo?: DemoLine };
    if (summary.demo?.status === 'ok') {
      const me = await fetch(`${(started.summary as { listening: string }).listening}/api/v1/me`, {
        headers: { authorization: `Bearer ${readFileSync(summary.demo.key_file, 'utf8').trim()}` },
      });
      expect(me.status).toBe(200);
    }
    return summary.demo;
  } finally {
    await started.server.close();
  }
}

const sqliteEnv = (dir: string, file = 'vitro.db') => ({
  VITRO_DATA_DIR: dir,
  DATABASE_URL: `sqlite:${join(dir, file)}`,
});

describe('the demo key file on start', () => {
  it('is written on the first start (0600) and reported working on later ones', async () => {
    const dir = tempDir();
    const keyFile = join(dir, 'demo-key.txt');
    const first = await startDemo({ VITRO_DATA_DIR: dir });
    expect(first).toEqual({
      status: 'created',
      key_file: keyFile,
      workspace_id: expect.stringMatching(UUID),
      key: expect.stringMatching(/^xpk_live_/),
    });
    expect(readFileSync(keyFile, 'utf8')).toBe(`${first!.key}\n`);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    const second = await startDemo({ VITRO_DATA_DIR: dir });
    expect(second).toEqual({ status: 'ok', key_file: keyFile, workspace_id: first!.workspace_id });
    // Without --demo the line still says whether the saved key works.
    expect(await startDemo({ VITRO_DATA_DIR: dir }, false)).toEqual(second);
  });

  it('says when the file is missing and how to get a new key, creating nothing', async () => {
    const dir = tempDir();
    await startDemo(sqliteEnv(dir));
    rmSync(join(dir, 'demo-key.txt'));
    const line = await startDemo(sqliteEnv(dir));
    expect(line).toEqual({
      status: 'missing',
      key_file: join(dir, 'demo-key.txt'),
      message: expect.stringContaining('does not exist; run `npx vitro demo`'),
    });
    expect(() => statSync(join(dir, 'demo-key.txt'))).toThrow();
    // Without --demo and without a file there is nothing to say.
    expect(await startDemo(sqliteEnv(dir), false)).toBeUndefined();
  });

  it.each([
    ['an unknown key', generateCredential('key', 'production').secret],
    ['a malformed key', 'not-a-key'],
    ['an empty file', ''],
  ])('reports %s as not working against this database and leaves it', async (_name, content) => {
    const dir = tempDir();
    await startDemo(sqliteEnv(dir));
    writeFileSync(join(dir, 'demo-key.txt'), content);
    const line = await startDemo(sqliteEnv(dir));
    expect(line).toEqual({
      status: 'stale',
      key_file: join(dir, 'demo-key.txt'),
      message: expect.stringMatching(/does not work against this database \(sqlite:.*vitro\.db\)/),
    });
    expect(line!.message).toContain('npx vitro demo');
    expect(readFileSync(join(dir, 'demo-key.txt'), 'utf8')).toBe(content);
  });

  it('is never overwritten by a start against another database', async () => {
    const dir = tempDir();
    const keyFile = join(dir, 'demo-key.txt');
    const first = await startDemo(sqliteEnv(dir, 'first.db'));
    expect(first?.status).toBe('created');

    const other = await startDemo(sqliteEnv(dir, 'other.db'));
    expect(other).toEqual({
      status: 'stale',
      key_file: keyFile,
      workspace_id: expect.stringMatching(UUID),
      key: expect.stringMatching(/^xpk_live_/),
      message: expect.stringContaining('is left as it is'),
    });
    expect(other!.key).not.toBe(first!.key);
    expect(readFileSync(keyFile, 'utf8')).toBe(`${first!.key}\n`);

    // Later starts against the other database keep saying so; the first still works.
    expect((await startDemo(sqliteEnv(dir, 'other.db')))?.status).toBe('stale');
    expect(await startDemo(sqliteEnv(dir, 'first.db'))).toEqual({
      status: 'ok',
      key_file: keyFile,
      workspace_id: first!.workspace_id,
    });
  });

  it.each(cliTargets())('vitro demo saves and refreshes the key file on $name', async (target) => {
    const env = target.env();
    const keyFile = join(env.VITRO_DATA_DIR!, 'demo-key.txt');
    const made = await runInProcess(env, 'demo');
    expect(made).toMatchObject({ code: 0, out: { key_file: keyFile } });
    expect(readFileSync(keyFile, 'utf8')).toBe(`${made.out.key}\n`);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    writeFileSync(keyFile, 'stale\n', { mode: 0o644 });
    expect((await startDemo(env))?.status).toBe('stale');
    const again = await runInProcess(env, 'demo');
    expect(again.code).toBe(0);
    expect(again.out.workspace_id).not.toBe(made.out.workspace_id);
    expect(readFileSync(keyFile, 'utf8')).toBe(`${again.out.key}\n`);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(await startDemo(env)).toEqual({
      status: 'ok',
      key_file: keyFile,
      workspace_id: again.out.workspace_id,
    });
  });
});
