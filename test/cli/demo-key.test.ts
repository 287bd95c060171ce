import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { demoKeyPath } from '../../src/cli/demo-key.js';
import { startServe } from '../../src/cli/serve.js';
import { loadConfig } from '../../src/config.js';
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

/**
 * `vitro serve --demo` in this process: its start line's `demo` entry, then it
 * stops. `terminal`: stdout is a terminal (else a file or a service's log).
 */
async function startDemo(
  env: Record<string, string>,
  demo = true,
  terminal = false,
): Promise<DemoLine | undefined> {
  const started = await startServe(
    {
      env: { PORT: '0', LOG_LEVEL: 'silent', ...env },
      terminal,
      out: () => undefined,
      err: () => undefined,
    },
    { demo, handleSignals: false, logger: false },
  );
  try {
    const summary = started.summary as {
      demo?: DemoLine & {
        base_url?: string;
        sign_in_url?: string;
        sign_in_expires_at?: string;
        sign_in_command?: string;
      };
    };
    // A lab just made, or a working key on a terminal, comes with its owner's sign-in
    // link; a working key on a later start that may land in a log, with the command
    // that mints one.
    const { base_url, sign_in_url, sign_in_expires_at, sign_in_command, ...line } =
      summary.demo ?? {};
    if (summary.demo?.key !== undefined || (terminal && summary.demo?.status === 'ok')) {
      expect(sign_in_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sign-in#vsl_/);
      expect(sign_in_url!.startsWith(`${base_url}/sign-in#`)).toBe(true);
      expect(Date.parse(sign_in_expires_at!)).toBeGreaterThan(Date.now());
      expect(sign_in_command).toBeUndefined();
    } else if (summary.demo?.status === 'ok') {
      expect(sign_in_url).toBeUndefined();
      expect(sign_in_expires_at).toBeUndefined();
      expect(sign_in_command).toMatch(/^npx vitro member link --member [0-9a-f-]{36}$/);
      expect(base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } else {
      expect(sign_in_url).toBeUndefined();
      expect(sign_in_command).toBeUndefined();
    }
    if (summary.demo?.status === 'ok') {
      const me = await fetch(`${(started.summary as { listening: string }).listening}/api/v1/me`, {
        headers: { authorization: `Bearer ${readFileSync(summary.demo.key_file, 'utf8').trim()}` },
      });
      expect(me.status).toBe(200);
    }
    return summary.demo === undefined ? undefined : (line as DemoLine);
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

  it('prints a live sign-in link on a later start only to a terminal', async () => {
    const dir = tempDir();
    const first = await startDemo({ VITRO_DATA_DIR: dir });
    const links = () => {
      const db = new SqliteDatabase(join(dir, 'vitro.db'), { readonly: true });
      try {
        return db.prepare('select count(*) from sign_in_links').pluck().get() as number;
      } finally {
        db.close();
      }
    };
    const minted = links();
    expect(minted).toBe(1);
    // Not a terminal (a service's log): no link minted, none printed.
    expect(await startDemo({ VITRO_DATA_DIR: dir })).toMatchObject({ status: 'ok' });
    expect(links()).toBe(minted);
    // A terminal: a fresh link (checked by startDemo).
    expect(await startDemo({ VITRO_DATA_DIR: dir }, true, true)).toEqual({
      status: 'ok',
      key_file: join(dir, 'demo-key.txt'),
      workspace_id: first!.workspace_id,
    });
    expect(links()).toBe(minted + 1);
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

  it('belongs to its database: a start against another one keeps a key file of its own', async () => {
    const dir = tempDir();
    const keyFile = join(dir, 'demo-key.txt');
    const first = await startDemo(sqliteEnv(dir));
    expect(first?.status).toBe('created');
    expect(first?.key_file).toBe(keyFile);

    const other = await startDemo(sqliteEnv(dir, 'other.db'));
    expect(other).toMatchObject({
      status: 'created',
      key_file: expect.stringMatching(/\/demo-key\.sqlite-[0-9a-f]{8}\.txt$/),
      workspace_id: expect.stringMatching(UUID),
      key: expect.stringMatching(/^xpk_live_/),
    });
    expect(other!.key).not.toBe(first!.key);
    expect(readFileSync(keyFile, 'utf8')).toBe(`${first!.key}\n`);
    expect(readFileSync(other!.key_file, 'utf8')).toBe(`${other!.key}\n`);

    // Later starts against either database find their own key working.
    expect(await startDemo(sqliteEnv(dir, 'other.db'))).toMatchObject({
      status: 'ok',
      key_file: other!.key_file,
      workspace_id: other!.workspace_id,
    });
    expect(await startDemo(sqliteEnv(dir))).toMatchObject({
      status: 'ok',
      key_file: keyFile,
      workspace_id: first!.workspace_id,
    });
  });

  it('says so, and leaves the file, when a key file of this database does not work here', async () => {
    const dir = tempDir();
    const keyFile = join(dir, 'demo-key.txt');
    const first = await startDemo(sqliteEnv(dir));
    // The database is emptied (deleted): the next start makes a new lab, keeps the file.
    rmSync(join(dir, 'vitro.db'));
    const again = await startDemo(sqliteEnv(dir));
    expect(again).toMatchObject({
      status: 'stale',
      key_file: keyFile,
      key: expect.stringMatching(/^xpk_live_/),
      message: expect.stringContaining('is left as it is'),
    });
    expect(readFileSync(keyFile, 'utf8')).toBe(`${first!.key}\n`);
  });

  it('comes with a sign-in link for the demo lab owner at the real address', async () => {
    const dir = tempDir();
    const started = await startServe(
      {
        env: { PORT: '0', LOG_LEVEL: 'silent', ...sqliteEnv(dir) },
        out: () => undefined,
        err: () => undefined,
      },
      { demo: true, handleSignals: false, logger: false },
    );
    try {
      const summary = started.summary as {
        listening: string;
        console: string;
        demo: { base_url: string; sign_in_url: string; sign_in_expires_at: string };
      };
      expect(summary.listening).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(summary.listening.endsWith(':0')).toBe(false);
      expect(summary.console).toBe(`${summary.listening}/`);
      expect(summary.demo.base_url).toBe(summary.listening);
      expect(summary.demo.sign_in_url).toMatch(
        new RegExp(`^${summary.listening}/sign-in#vsl_[A-Za-z0-9_-]{43}$`),
      );
      const secret = summary.demo.sign_in_url.split('#')[1]!;
      const res = await fetch(`${summary.listening}/api/v1/session`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, origin: summary.listening },
      });
      expect(res.status).toBe(201);
      const session = (await res.json()) as { data: { member: { role: string } } };
      expect(session.data.member.role).toBe('owner');
    } finally {
      await started.server.close();
    }
  });

  it.each(cliTargets())('vitro demo saves and refreshes the key file on $name', async (target) => {
    const env = target.env();
    const keyFile = demoKeyPath(env.VITRO_DATA_DIR!, loadConfig(env).database);
    expect(keyFile.endsWith(target.name === 'sqlite' ? '/demo-key.txt' : '.txt')).toBe(true);
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

  it.each(cliTargets().filter((target) => target.name === 'postgres'))(
    "vitro demo on $name leaves the SQLite demo's key of the same data directory alone",
    async (target) => {
      const env = target.env();
      const sqlite = await startDemo({ VITRO_DATA_DIR: env.VITRO_DATA_DIR! });
      expect(sqlite?.key_file).toBe(join(env.VITRO_DATA_DIR!, 'demo-key.txt'));
      const made = await runInProcess(env, 'demo');
      expect(made.out.key_file).toMatch(/\/demo-key\.postgres-[0-9a-f]{8}\.txt$/);
      expect(await startDemo(env)).toMatchObject({ status: 'ok', key_file: made.out.key_file });
      expect(await startDemo({ VITRO_DATA_DIR: env.VITRO_DATA_DIR! })).toEqual({
        status: 'ok',
        key_file: sqlite!.key_file,
        workspace_id: sqlite!.workspace_id,
      });
    },
  );
});
