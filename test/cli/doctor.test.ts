import { chmodSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { startServe } from '../../src/cli/serve.js';
import { loadConfig } from '../../src/config.js';
import { freePort } from '../support/local-services.js';
import { TEST_SECRET } from '../support/harness.js';
import { inject } from 'vitest';
import { runInProcess, tempDir } from './support.js';

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
};

/** The check lines of `vitro doctor`: name -> status. */
function statuses(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .map((line) => [line.slice(6, 19).trim(), line.slice(0, 4).trim()]),
  );
}

describe('vitro doctor', () => {
  it('exits 0 when every check holds, one line per check; --json for machines', async () => {
    const dir = tempDir();
    const backups = join(tempDir(), 'backups');
    const env = {
      VITRO_DATA_DIR: dir,
      PORT: String(await freePort()),
      LOG_LEVEL: 'silent',
      BACKUP_DIR: backups,
    };
    const io = { env, out: () => undefined, err: () => undefined };
    const { server } = await startServe(io, { demo: true, handleSignals: false, logger: false });
    try {
      await until(() => existsSync(backups) && readdirSync(backups).some((n) => n.endsWith('.gz')));
      const doctor = await runInProcess(env, 'doctor');
      expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);
      expect(statuses(doctor.stdout)).toEqual({
        configuration: 'ok',
        database: 'ok',
        redis: 'skip',
        'file store': 'ok',
        'public url': 'ok',
        'disk space': 'ok',
        clock: 'skip',
        backups: 'ok',
        smtp: 'skip',
        permissions: 'ok',
        'shared photos': 'skip',
      });
      const json = await runInProcess(env, 'doctor', '--json');
      expect(json.code).toBe(0);
      expect(json.out.ok).toBe(true);
      expect(json.out.checks).toHaveLength(11);
    } finally {
      await server.close();
    }
  });

  it('fails naming each problem and what to do', async () => {
    const dir = tempDir();
    const env = { VITRO_DATA_DIR: dir, PORT: String(await freePort()), LOG_LEVEL: 'silent' };
    expect((await runInProcess(env, 'migrate')).code).toBe(0);
    chmodSync(dir, 0o755);
    const doctor = await runInProcess(env, 'doctor', '--json');
    expect(doctor.code).toBe(1);
    expect(doctor.err.error).toBe('2 of 11 checks failed: public url, permissions');
    const byName = Object.fromEntries(
      doctor.out.checks.map((check: { check: string }) => [check.check, check]),
    );
    expect(byName['public url']).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('does not answer from this machine'),
      fix: expect.stringContaining('vitro serve'),
    });
    // No BACKUP_DIR on a fresh install: a warning with the command to fix it, not a fault.
    expect(byName.backups).toMatchObject({
      status: 'warn',
      detail: 'no scheduled backups (BACKUP_DIR is not set)',
      fix: expect.stringContaining('vitro backup'),
    });
    chmodSync(dir, 0o700);
    const passing = await runInProcess(env, 'doctor');
    expect(passing.stdout).toMatch(/^warn {2}backups +no scheduled backups/m);
    expect(passing.stderr).not.toContain('backups');
    expect(byName.permissions).toMatchObject({
      status: 'fail',
      fix: `run \`chmod -R go-rwx ${dir}\` (a start of \`vitro serve\` does it too)`,
    });
    const badConfig = await runInProcess({ ...env, PORT: 'eighty' }, 'doctor');
    expect(badConfig.code).toBe(1);
    expect(badConfig.stdout).toMatch(/^FAIL {2}configuration +PORT: must be a whole number/);
  });
});

const postgresUrl = inject('postgresUrl');

describe.runIf(postgresUrl !== null)(
  'several processes on PostgreSQL with local file stores',
  () => {
    it('warn that photos are not shared, in the log and in vitro doctor', async () => {
      const env = (root: string) => ({
        VITRO_DATA_DIR: tempDir(),
        DATABASE_URL: postgresUrl!,
        VITRO_SECRET: TEST_SECRET,
        STORAGE_URL: `file:${root}`,
        LOG_LEVEL: 'warn',
      });
      const warnings: string[] = [];
      const logStream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          warnings.push(chunk.toString());
          done();
        },
      });
      const first = await buildApp(loadConfig(env(tempDir())), { logStream });
      await first.ready();
      const second = await buildApp(loadConfig(env(tempDir())), { logStream });
      await second.ready();
      try {
        expect(warnings.join('')).toMatch(
          /other Vitro process\(es\) use this PostgreSQL database with a local file store of their own/,
        );
        const doctor = await runInProcess(env(tempDir()), 'doctor', '--json');
        const sharing = doctor.out.checks.find(
          (c: { check: string }) => c.check === 'shared photos',
        );
        expect(sharing.status).toBe('fail');
        expect(Number(/^(\d+) other/.exec(sharing.detail)![1])).toBeGreaterThanOrEqual(2);
        expect(sharing.fix).toMatch(/S3 bucket/);
      } finally {
        await second.close();
        await first.close();
      }
    });
  },
);
