import { Option, type Command } from 'commander';
import type { CommandKit, Done } from './command-kit.js';
import type { CliIo } from './io.js';
import { registerOperationsCommands } from './ops-commands.js';

/*
 * Every admin command of docs/cli.md but `serve`, declared here and cheap to declare:
 * a command's work, and the modules it uses, are loaded by its action (`import()`),
 * and a group's subcommands only when the command line names the group, so that
 * `vitro --version` and `--help` load nothing of the server.
 */

type Register = (group: Command, kit: CommandKit) => void;

const GROUPS: readonly { name: string; description: string; load: () => Promise<Register> }[] = [
  {
    name: 'workspace',
    description: 'Create workspaces, set plans and features',
    load: async () => (await import('./workspace-commands.js')).registerWorkspaceCommands,
  },
  {
    name: 'member',
    description: 'Add members, change roles, remove members',
    load: async () => (await import('./member-commands.js')).registerMemberCommands,
  },
  {
    name: 'key',
    description: 'Create and revoke API keys',
    load: async () => (await import('./key-commands.js')).registerKeyCommands,
  },
  {
    name: 'device',
    description: 'List devices; pause, retire or re-activate them',
    load: async () => (await import('./device-commands.js')).registerDeviceCommands,
  },
  {
    name: 'webhook',
    description: 'Webhook endpoints: create, list, update, disable, rotate, deliveries',
    load: async () => (await import('./webhook-commands.js')).registerWebhookCommands,
  },
  {
    name: 'alert-rule',
    description: 'Sensor alert rules: create, list, update, delete',
    load: async () => (await import('./alert-commands.js')).registerAlertRuleCommands,
  },
  {
    name: 'alert',
    description: 'Sensor alerts',
    load: async () => (await import('./alert-commands.js')).registerAlertCommands,
  },
];

/**
 * Registers the admin commands; `done` receives the result. `argv` says which
 * groups' subcommands to load: those it names (`vitro workspace list`,
 * `vitro help key`); a word that only looks like a group name loads one for nothing.
 */
export async function registerAdminCommands(
  program: Command,
  io: CliIo,
  done: Done,
  argv: readonly string[],
): Promise<void> {
  const required = (flags: string, description: string) =>
    new Option(flags, description).makeOptionMandatory();

  program
    .command('migrate')
    .description('Bring the database schema up to date -> {applied: [...]}')
    .action(async () => {
      const { withDatabase } = await import('./database.js');
      const { upgradeDatabase } = await import('../db/upgrade.js');
      done(
        await withDatabase(io, (database, config) => upgradeDatabase(database, config.database), {
          migrate: false,
        }),
      );
    });

  program
    .command('demo')
    .description(
      "Create a demo lab with an owner key and save the key in the database's demo key file " +
        '(<data dir>/demo-key.txt for the default SQLite database; replacing the one there) ' +
        '-> {workspace_id, key, base_url, key_file}',
    )
    .action(async () => {
      const { runDemo } = await import('./demo-command.js');
      done(await runDemo(io));
    });

  for (const { name, description, load } of GROUPS) {
    const group = program.command(name).description(description);
    if (argv.includes(name)) {
      const [register, { commandKit }] = await Promise.all([load(), import('./command-kit.js')]);
      register(group, commandKit(io, done));
    }
  }

  const importCommand = program
    .command('import')
    .description(
      'Load stage lists, rooms, SOPs, equipment, labels, prices and order lines -> {imported: {...}}',
    )
    .addOption(required('--workspace <id>', 'workspace id'))
    .addOption(required('--file <path>', 'import file (JSON; the format: docs/import.md)'));
  importCommand.action(async () => {
    const { runImport } = await import('./import-command.js');
    done(await runImport(io, importCommand.opts<{ workspace: string; file: string }>()));
  });

  registerOperationsCommands(program, io, done);
}
