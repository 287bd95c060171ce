import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { cliTargets, runInProcess } from './support.js';

/** The read-only commands an admin uses to find ids, and what `member add` refuses. */
describe.each(cliTargets())('vitro lists and member checks on $name', (target) => {
  let env: Record<string, string>;
  let ws: string;
  let owner: string;
  const cli = (...argv: string[]) => runInProcess(env, ...argv);
  beforeAll(async () => {
    env = target.env();
    ws = (await cli('workspace', 'create', '--name', `List lab ${Date.now()}`)).out.id;
    owner = (
      await cli(
        'member',
        'add',
        '--workspace',
        ws,
        '--name',
        'Olga',
        '--email',
        'olga@lab.example',
        '--role',
        'owner',
      )
    ).out.id;
  });

  it('vitro alone prints the help and exits 0', async () => {
    let stdout = '';
    let stderr = '';
    const code = await runCli([], {
      env,
      out: (text) => (stdout += text),
      err: (text) => (stderr += text),
    });
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: vitro');
    expect(stdout).toMatch(/workspace\s/);
    expect(stderr).toBe('');
  });

  it('workspace list shows the workspace with its plan and features in force', async () => {
    const { code, out } = await cli('workspace', 'list');
    expect(code).toBe(0);
    expect(out.workspaces).toContainEqual(
      expect.objectContaining({
        id: ws,
        plan: 'teams',
        features: ['pricing', 'commerce', 'equipment_calibration'],
      }),
    );
  });

  it('member list shows members, removed ones too', async () => {
    const gone = (
      await cli('member', 'add', '--workspace', ws, '--name', 'Gus', '--role', 'viewer')
    ).out.id;
    await cli('member', 'remove', '--member', gone);
    const { out } = await cli('member', 'list', '--workspace', ws);
    expect(out.members).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: owner,
          email: 'olga@lab.example',
          role: 'owner',
          status: 'active',
        }),
        expect.objectContaining({ id: gone, status: 'removed' }),
      ]),
    );
  });

  it('key list shows prefix, scopes and last use, never the secret', async () => {
    const created = await cli('key', 'create', '--member', owner, '--scopes', 'read:plants');
    const revoked = await cli('key', 'create', '--member', owner, '--name', 'old');
    await cli('key', 'revoke', '--key', revoked.out.id);
    const result = await cli('key', 'list', '--workspace', ws);
    expect(result.code).toBe(0);
    expect(result.out.keys).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: created.out.id,
          prefix: created.out.prefix,
          scopes: ['read:plants'],
          member_id: owner,
          last_used_at: null,
          revoked_at: null,
        }),
        expect.objectContaining({ id: revoked.out.id, revoked_at: expect.any(String) }),
      ]),
    );
    expect(result.stdout).not.toContain(created.out.key);
    expect(result.stdout).not.toContain('key_hash');
  });

  it('refuses an unknown workspace in a list', async () => {
    const result = await cli(
      'member',
      'list',
      '--workspace',
      '01a1fd6e-1c47-7086-b1d4-b2fc11449b2a',
    );
    expect(result.code).not.toBe(0);
    expect(result.err).toEqual({ error: 'Workspace not found' });
  });

  it('member add refuses a malformed email and an email another active member has', async () => {
    const bad = await cli(
      'member',
      'add',
      '--workspace',
      ws,
      '--name',
      'Bo',
      '--email',
      'bo at lab',
      '--role',
      'member',
    );
    expect(bad.code).not.toBe(0);
    expect(bad.err.error).toMatch(/^email: "bo at lab" is not an email address/);
    const duplicate = await cli(
      'member',
      'add',
      '--workspace',
      ws,
      '--name',
      'Olga 2',
      '--email',
      'OLGA@lab.example',
      '--role',
      'member',
    );
    expect(duplicate.code).not.toBe(0);
    expect(duplicate.err.error).toMatch(/^email: OLGA@lab.example is already the email of member/);
    const members = (await cli('member', 'list', '--workspace', ws)).out.members as {
      name: string;
    }[];
    expect(members.map((m) => m.name)).not.toContain('Olga 2');
  });
});
