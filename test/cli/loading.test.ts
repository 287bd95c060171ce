import { describe, expect, it } from 'vitest';
import { runNodeScript } from '../support/node-script.js';
import { tempDir } from './support.js';

/**
 * What a command loads, seen from a fresh process: the CommonJS packages it
 * required (the database drivers, Fastify) are in require's cache.
 */
async function packagesLoadedBy(...commands: string[][]): Promise<Record<string, number>[]> {
  const script = `
    import { createRequire } from 'node:module';
    import { runCli } from './src/cli/run.ts';
    const cache = () => Object.keys(createRequire(process.cwd() + '/').cache);
    const count = (name) => cache().filter((path) => path.includes('/node_modules/' + name + '/')).length;
    const io = { env: { VITRO_DATA_DIR: ${JSON.stringify(tempDir())}, LOG_LEVEL: 'silent' },
      out: () => undefined, err: (text) => process.stderr.write(text) };
    const seen = [];
    for (const argv of ${JSON.stringify(commands)}) {
      if ((await runCli(argv, io)) !== 0) process.exit(1);
      seen.push({ fastify: count('fastify'), pg: count('pg'), sqlite: count('better-sqlite3') });
    }
    console.log(JSON.stringify(seen));`;
  const { code, stdout } = await runNodeScript(script);
  expect(code).toBe(0);
  return JSON.parse(stdout) as Record<string, number>[];
}

describe('what a vitro command loads', { timeout: 120_000 }, () => {
  it('--version and --help load no database driver and no HTTP stack; a list loads the drivers only', async () => {
    const [version, help, list] = await packagesLoadedBy(
      ['--version'],
      ['--help'],
      ['workspace', 'list'],
    );
    expect(version).toEqual({ fastify: 0, pg: 0, sqlite: 0 });
    expect(help).toEqual({ fastify: 0, pg: 0, sqlite: 0 });
    // The count sees a driver once it is loaded, so the zeros above mean something.
    expect(list!.sqlite).toBeGreaterThan(0);
    expect(list!.fastify).toBe(0);
  });
});
