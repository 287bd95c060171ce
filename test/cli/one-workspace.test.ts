import { afterAll, describe, expect, it } from 'vitest';
import { backupTargets } from '../backup/support.js';
import { runInProcess } from './support.js';

/** Commands that name a workspace take the only one when a lab has one (a fresh install). */
describe.each(backupTargets())('vitro with one workspace on $name', (target) => {
  afterAll(() => target.cleanup());

  it('member list needs no --workspace when there is one; with several it says which', async () => {
    const env = await target.empty();
    const cli = (...argv: string[]) => runInProcess(env, ...argv);
    const none = await cli('member', 'list');
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/no workspace yet.*vitro workspace create/);
    const ws = (await cli('workspace', 'create', '--name', 'Only lab')).out.id as string;
    const owner = (
      await cli('member', 'add', '--workspace', ws, '--name', 'Ana', '--role', 'owner')
    ).out.id as string;
    const listed = await cli('member', 'list');
    expect(listed.code).toBe(0);
    expect(listed.out.members).toEqual([expect.objectContaining({ id: owner, name: 'Ana' })]);
    const second = (await cli('workspace', 'create', '--name', 'Second lab')).out.id as string;
    const several = await cli('member', 'list');
    expect(several.code).not.toBe(0);
    expect(several.stderr).toContain('--workspace');
    expect(several.stderr).toContain(ws);
    expect(several.stderr).toContain(second);
    expect((await cli('member', 'list', '--workspace', second)).out.members).toEqual([]);
  });
});
