import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { SCOPES } from '../../src/kernel/access.js';
import { newId } from '../../src/kernel/ids.js';
import { nearestScopes } from '../../src/kernel/scope-suggest.js';
import { runInProcess, tempDir } from './support.js';

const env = () => ({ VITRO_DATA_DIR: tempDir(), LOG_LEVEL: 'silent' });

describe('scopes in the CLI', () => {
  it('vitro key create --help lists every scope, all and none', async () => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(['key', 'create', '--help'], {
      env: env(),
      out: (text) => (stdout += text),
      err: (text) => (stderr += text),
    });
    expect(code).toBe(0);
    expect(stderr).toBe('');
    for (const scope of SCOPES) {
      expect(stdout).toMatch(new RegExp(`^  ${scope} +\\S`, 'm'));
    }
    expect(stdout).toMatch(/all \(the default: all 46\), none \(or ''\)/);
    expect(stdout).toMatch(/^ {2}write:devices +.*\[manager\+\]$/m);
    expect(stdout).toMatch(/^ {2}write:webhooks +.*\[admin\+\]$/m);
  });

  it.each([
    ['write:plant', 'write:plant (did you mean write:plants?)'],
    ['plants:write', 'plants:write (did you mean write:plants?)'],
    ['Read:Explants', 'Read:Explants (did you mean read:explants?)'],
    ['write_transfers', 'write_transfers (did you mean write:transfers?)'],
    ['devices', 'devices (did you mean read:devices or write:devices?)'],
    ['read:workspaces', 'read:workspaces (did you mean read:workspace?)'],
    ['admin', 'admin'],
  ])('an unknown scope %s gets the nearest valid one', async (given, shown) => {
    const result = await runInProcess(
      env(),
      'key',
      'create',
      '--member',
      newId(),
      '--scopes',
      `read:plants,${given}`,
    );
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
    expect(result.err).toEqual({ error: `scopes: unknown scope ${shown}` });
  });

  it('suggests nothing for a word far from every scope', () => {
    expect(nearestScopes('everything')).toEqual([]);
    expect(nearestScopes('read:everything')).toEqual([]);
    expect(nearestScopes('')).toEqual([]);
  });

  it('suggests every scope back to itself', () => {
    for (const scope of SCOPES) expect(nearestScopes(scope)).toEqual([scope]);
  });
});
