import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { REPO_ROOT } from '../cli/support.js';

async function help(...argv: string[]): Promise<string> {
  let out = '';
  const code = await runCli([...argv, '--help'], {
    env: {},
    out: (text) => (out += text),
    err: () => undefined,
  });
  expect(code).toBe(0);
  return out;
}

/** The command names of a help text's "Commands:" section. */
function commandsOf(text: string): string[] {
  const section = text.split('Commands:\n')[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)]
    .map((match) => match[1]!)
    .filter((name) => name !== 'help');
}

describe('docs/cli.md', () => {
  it('shows every command and subcommand of vitro with its options', async () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'cli.md'), 'utf8');
    const commands: string[][] = [];
    for (const name of commandsOf(await help())) {
      const subcommands = commandsOf(await help(name));
      if (subcommands.length === 0) commands.push([name]);
      for (const sub of subcommands) commands.push([name, sub]);
    }
    expect(commands.length).toBeGreaterThanOrEqual(13);
    for (const command of commands) {
      const usage = `vitro ${command.join(' ')}`;
      expect(doc, usage).toContain(usage);
      const options = [...(await help(...command)).matchAll(/^ {2}(--[a-z-]+)/gm)]
        .map((match) => match[1]!)
        .filter((option) => option !== '--help');
      for (const option of options) {
        expect(doc, `${usage} ${option}`).toContain(option);
      }
    }
  });
});
