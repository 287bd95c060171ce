import { describe, expect, it } from 'vitest';
import { cliTargets, runInProcess } from './support.js';

/** `vitro workspace set-readings-retention`: a workspace's own retention, or the default, or for ever. */
describe.each(cliTargets())('vitro workspace set-readings-retention on $name', (target) => {
  it('sets days, off or default, and says what each means with READINGS_RETENTION_DAYS', async () => {
    const env = { ...target.env(), READINGS_RETENTION_DAYS: '30' };
    const cli = (...argv: string[]) => runInProcess(env, ...argv);
    const ws: string = (await cli('workspace', 'create', '--name', `Retention ${Date.now()}`)).out
      .id;
    const set = (days: string) =>
      cli('workspace', 'set-readings-retention', '--workspace', ws, '--days', days);
    expect(await set('90')).toMatchObject({
      code: 0,
      out: { workspace_id: ws, setting: 90, days: 90, raw_since: null },
      stderr: '',
    });
    expect((await set('off')).out).toEqual({
      workspace_id: ws,
      setting: 'off',
      days: null,
      raw_since: null,
    });
    expect((await set('default')).out).toEqual({
      workspace_id: ws,
      setting: 'default',
      days: 30,
      raw_since: null,
    });
    for (const bad of ['0', 'ninety', '36501', '1.5']) {
      const refused = await set(bad);
      expect(refused.code).not.toBe(0);
      expect(refused.stdout).toBe('');
      expect(refused.err.error).toMatch(/^--days: /);
    }
    // The setting is unchanged by the refusals.
    expect((await set('default')).out.setting).toBe('default');
    const unknown = await cli(
      'workspace',
      'set-readings-retention',
      '--workspace',
      '00000000-0000-4000-8000-000000000000',
      '--days',
      '30',
    );
    expect(unknown.code).not.toBe(0);
    expect(unknown.err.error).toMatch(/Workspace not found/);
  });
});
