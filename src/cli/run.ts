import { vitroVersion } from '../lib/version.js';
import { Command, CommanderError } from 'commander';
import { registerAdminCommands } from './commands.js';
import { errorMessage, jsonLine, type CliIo } from './io.js';

const HELP_AFTER = `
Every command prints one JSON object on stdout and exits 0; on failure it prints
{"error": "..."} on stderr and exits non-zero. Every command first brings the
database schema up to date, so a fresh data directory works, and each may run
while a server serves the same database.

Environment: DATABASE_URL (sqlite:PATH or postgres://...), VITRO_DATA_DIR
(default ./data), HOST, PORT, PUBLIC_URL, VITRO_SECRET, REDIS_URL, LOG_LEVEL, ...:
see docs/configuration.md. Every command and its output: docs/cli.md.`;

async function buildProgram(
  io: CliIo,
  done: (result: object) => void,
  argv: readonly string[],
): Promise<Command> {
  const program = new Command('vitro')
    .description('Admin CLI and server of Vitro, the lab-management API server')
    .version(vitroVersion() ?? '0.0.0')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out(text),
      // Commander's own error text is replaced by the one-line JSON error.
      writeErr: () => undefined,
      outputError: () => undefined,
    })
    .addHelpText('after', HELP_AFTER);

  const serveCommand = program
    .command('serve')
    .description('Migrate, then serve the API on HOST:PORT; prints one JSON line when listening')
    .option(
      '--demo',
      'on a database without workspaces, first create the demo lab and its key file; ' +
        'the start line says whether <data dir>/demo-key.txt works against this database',
    );
  serveCommand.action(async () => {
    const demo = serveCommand.opts<{ demo?: boolean }>().demo === true;
    // The HTTP stack is loaded only to serve; the admin commands start faster without it.
    const { startServe } = await import('./serve.js');
    done((await startServe(io, { demo })).summary);
  });

  await registerAdminCommands(program, io, done, argv);
  return program;
}

function commanderProblem(error: CommanderError): string {
  if (error.code === 'commander.help') return 'a command is missing; see vitro --help';
  return error.message.replace(/^error: /, '');
}

/** Runs one CLI invocation; resolves to the process exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let result: object | undefined;
  const program = await buildProgram(
    io,
    (value) => {
      result = value;
    },
    argv,
  );
  if (argv.length === 0) {
    // `vitro` alone: what it can do, not an error.
    io.out(program.helpInformation());
    return 0;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0;
      io.err(jsonLine({ error: commanderProblem(error) }));
      return error.exitCode;
    }
    io.err(jsonLine({ error: errorMessage(error) }));
    return 1;
  }
  if (result !== undefined) io.out(jsonLine(result));
  return 0;
}
