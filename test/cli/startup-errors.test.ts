import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/local-services.js';
import { TEST_SECRET } from '../support/harness.js';
import { runInProcess, runProcess, tempDir, type CliResult } from './support.js';

const isRoot = process.getuid?.() === 0;

function expectOneErrorLine(result: CliResult, pattern: RegExp): string {
  expect(result.code).not.toBe(0);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.err.error).toMatch(pattern);
  return result.err.error as string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('start-up errors name the setting to fix', () => {
  let busy: Server;
  let busyPort: number;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

  const env = (extra: Record<string, string> = {}) => ({
    VITRO_DATA_DIR: tempDir(),
    LOG_LEVEL: 'silent',
    ...extra,
  });

  it('a port in use names PORT (the real process, one JSON line on stderr)', async () => {
    const result = await runProcess(
      env({ HOST: '127.0.0.1', PORT: String(busyPort), LOG_LEVEL: 'info' }),
      'serve',
      '--demo',
    );
    expectOneErrorLine(
      result,
      new RegExp(`^PORT: 127\\.0\\.0\\.1:${busyPort} is already in use .*set PORT to a free port`),
    );
  });

  it('a host name that does not resolve names HOST', async () => {
    const result = await runInProcess(env({ HOST: 'no-such-host.invalid', PORT: '0' }), 'serve');
    expectOneErrorLine(result, /^HOST: "no-such-host\.invalid" does not resolve to an address/);
  });

  it('an address of another machine names HOST', async () => {
    const result = await runInProcess(env({ HOST: '192.0.2.1', PORT: '0' }), 'serve');
    expectOneErrorLine(result, /^HOST: 192\.0\.2\.1 is not an address of this machine/);
  });

  it('a data directory that cannot be created names VITRO_DATA_DIR and its path', async () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, 'not a directory');
    const dataDir = join(file, 'data');
    const pattern = new RegExp(`^VITRO_DATA_DIR: ${escape(dataDir)} is not a writable directory`);
    // Generating the secret fails first; with VITRO_SECRET set, opening the SQLite file does.
    expectOneErrorLine(await runInProcess(env({ VITRO_DATA_DIR: dataDir }), 'serve'), pattern);
    const withSecret = env({ VITRO_DATA_DIR: dataDir, VITRO_SECRET: TEST_SECRET });
    expectOneErrorLine(await runInProcess(withSecret, 'serve', '--demo'), pattern);
    expectOneErrorLine(await runInProcess(withSecret, 'migrate'), pattern);
  });

  it.skipIf(isRoot)(
    'a read-only data directory (chmod 0555) names VITRO_DATA_DIR and its path ' +
      '(skipped as root, whom chmod does not stop; the case above covers root)',
    async () => {
      const dataDir = join(tempDir(), 'data');
      mkdirSync(dataDir);
      chmodSync(dataDir, 0o555);
      const pattern = new RegExp(
        `^VITRO_DATA_DIR: ${escape(dataDir)} is not a writable directory \\(EACCES\\)`,
      );
      expectOneErrorLine(await runInProcess(env({ VITRO_DATA_DIR: dataDir }), 'serve'), pattern);
      const anyCode = new RegExp(`^VITRO_DATA_DIR: ${escape(dataDir)} is not a writable directory`);
      expectOneErrorLine(
        await runInProcess(env({ VITRO_DATA_DIR: dataDir, VITRO_SECRET: TEST_SECRET }), 'serve'),
        anyCode,
      );

      // A lab that worked, whose directory then became read-only.
      const used = join(tempDir(), 'used');
      const started = await runInProcess(env({ VITRO_DATA_DIR: used }), 'migrate');
      expect(started.code).toBe(0);
      chmodSync(used, 0o555);
      const usedPattern = new RegExp(
        `^VITRO_DATA_DIR: ${escape(used)} is not a writable directory`,
      );
      expectOneErrorLine(await runInProcess(env({ VITRO_DATA_DIR: used }), 'serve'), usedPattern);
      expectOneErrorLine(
        await runInProcess(env({ VITRO_DATA_DIR: used }), 'workspace', 'create', '--name', 'x'),
        usedPattern,
      );
    },
  );

  it('an unreachable database names DATABASE_URL without its password', async () => {
    const port = await freePort();
    const password = 'Sup3r-secret-pa55';
    const url = `postgres://vitro:${password}@127.0.0.1:${port}/vitro`;
    const pattern = new RegExp(
      `^DATABASE_URL: cannot connect to PostgreSQL at postgres://vitro:\\*\\*\\*@127\\.0\\.0\\.1:${port}/vitro \\(.*ECONNREFUSED`,
    );
    for (const argv of [['serve', '--demo'], ['migrate']]) {
      const result = await runInProcess(
        env({ DATABASE_URL: url, VITRO_SECRET: TEST_SECRET, PORT: '0' }),
        ...argv,
      );
      const message = expectOneErrorLine(result, pattern);
      expect(message).not.toContain(password);
    }
  });
});
