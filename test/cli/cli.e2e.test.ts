import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { demoKeyPath } from '../../src/cli/demo-key.js';
import { loadConfig } from '../../src/config.js';
import { runProcess, spawnVitro, tempDir } from './support.js';

interface ServeSummary {
  listening: string;
  demo: { workspace_id: string; key: string; key_file: string };
}

/** The real `vitro` process against a temporary SQLite file; few tests, since each spawn costs ~1 s. */
describe('vitro as a process', () => {
  const freshEnv = () => {
    const dir = tempDir();
    return {
      VITRO_DATA_DIR: dir,
      DATABASE_URL: `sqlite:${join(dir, 'lab.db')}`,
      LOG_LEVEL: 'silent',
    };
  };

  it('creates a workspace, a member and a key, then revokes the key', async () => {
    const env = freshEnv();
    const workspace = await runProcess(env, 'workspace', 'create', '--name', 'E2E lab');
    expect(workspace).toMatchObject({
      code: 0,
      stderr: '',
      out: { name: 'E2E lab', plan: 'teams' },
    });
    const member = await runProcess(
      env,
      'member',
      'add',
      '--workspace',
      workspace.out.id,
      '--name',
      'Eve',
      '--role',
      'owner',
    );
    expect(member).toMatchObject({ code: 0, out: { role: 'owner' } });
    const key = await runProcess(env, 'key', 'create', '--member', member.out.id);
    expect(key).toMatchObject({ code: 0, out: { key: expect.stringMatching(/^xpk_live_/) } });
    const revoked = await runProcess(env, 'key', 'revoke', '--key', key.out.id);
    expect(revoked).toMatchObject({
      code: 0,
      out: { id: key.out.id, revoked_at: expect.any(String) },
    });
    expect(revoked.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('prints {"error"} on stderr and exits non-zero', async () => {
    const env = freshEnv();
    const [badPlan, missingMember, badUrl] = await Promise.all([
      runProcess(env, 'workspace', 'create', '--name', 'x', '--plan', 'platinum'),
      runProcess(
        env,
        'member',
        'set-role',
        '--member',
        '01a1fd6e-1c47-7086-b1d4-b2fc11449b2a',
        '--role',
        'owner',
      ),
      runProcess({ ...env, DATABASE_URL: 'mysql://localhost/vitro' }, 'migrate'),
    ]);
    for (const result of [badPlan, missingMember, badUrl]) {
      expect(result.code).not.toBe(0);
      expect(result.stdout).toBe('');
    }
    expect(badPlan.err.error).toMatch(/'platinum' is invalid/);
    expect(missingMember.err).toEqual({ error: 'Member not found' });
    expect(badUrl.err.error).toMatch(/^DATABASE_URL: /);
  });

  it('serve --demo listens, answers with the demo key, and lets the CLI write meanwhile', async () => {
    const env = { ...freshEnv(), PORT: '0', LOG_LEVEL: 'warn' };
    const server = spawnVitro(env, 'serve', '--demo');
    try {
      let summary: ServeSummary | null = null;
      for await (const line of createInterface({ input: server.stdout! })) {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        if ('listening' in parsed) {
          summary = parsed as unknown as ServeSummary;
          break;
        }
      }
      expect(summary).not.toBeNull();
      const { listening, demo } = summary!;
      // lab.db is not the data directory's own vitro.db: the key file is named after it.
      expect(demo.key_file).toBe(demoKeyPath(env.VITRO_DATA_DIR, loadConfig(env).database));

      expect((await fetch(`${listening}/healthz`)).status).toBe(200);
      const me = await fetch(`${listening}/api/v1/me`, {
        headers: { authorization: `Bearer ${demo.key}` },
      });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { data: { workspace: { id: string } } }).data.workspace.id).toBe(
        demo.workspace_id,
      );

      const added = await runProcess(
        env,
        'member',
        'add',
        '--workspace',
        demo.workspace_id,
        '--name',
        'Night shift',
        '--role',
        'viewer',
      );
      expect(added).toMatchObject({ code: 0, out: { role: 'viewer' } });
    } finally {
      server.kill('SIGTERM');
      const [code] = (await once(server, 'exit')) as [number | null];
      expect(code).toBe(0);
    }
  });
});
