import { Option, type Command } from 'commander';
import { PLANS } from '../kernel/access.js';
import {
  createWorkspace,
  listWorkspaces,
  setWorkspaceFeatures,
  setWorkspacePlan,
  WORKSPACE_TYPES,
} from '../modules/identity/index.js';
import { parseRetentionSetting, setReadingsRetention } from '../modules/readings/index.js';
import type { CommandKit } from './command-kit.js';
import { commaList } from './parse.js';
import { workspaceSummary } from './present.js';

/** `vitro workspace …` (docs/cli.md): loaded only when a command names the group. */
export function registerWorkspaceCommands(
  workspace: Command,
  { action, read, required }: CommandKit,
): void {
  action(
    workspace
      .command('create')
      .description('Create a workspace with the default stage lists -> {id, name, plan}')
      .addOption(required('--name <name>', 'workspace name'))
      .addOption(new Option('--plan <plan>', 'plan').choices(PLANS).default('teams'))
      .addOption(
        new Option('--type <type>', 'workspace type').choices(WORKSPACE_TYPES).default('lab'),
      ),
    async (o: { name: string; plan: string; type: string }, trx) => {
      const row = await createWorkspace(trx, { name: o.name, plan: o.plan, type: o.type });
      return { id: row.id, name: row.name, plan: row.plan };
    },
  );
  read(
    workspace.command('list').description('List the workspaces -> {workspaces: [...]}'),
    async (_o: object, { db }) => ({
      workspaces: (await listWorkspaces(db)).map(workspaceSummary),
    }),
  );
  action(
    workspace
      .command('set-plan')
      .description("Change a workspace's plan -> {id, plan}")
      .addOption(required('--workspace <id>', 'workspace id'))
      .addOption(required('--plan <plan>', 'plan').choices(PLANS)),
    async (o: { workspace: string; plan: string }, trx) => {
      const row = await setWorkspacePlan(trx, o.workspace, o.plan);
      return { id: row.id, plan: row.plan };
    },
  );
  action(
    workspace
      .command('set-features')
      .description("Set a workspace's features ('' = none) -> {id, features}")
      .addOption(required('--workspace <id>', 'workspace id'))
      .addOption(
        required(
          '--features <list>',
          "comma list of pricing, commerce, equipment_calibration; '' = none",
        ),
      ),
    async (o: { workspace: string; features: string }, trx) => ({
      id: o.workspace,
      features: await setWorkspaceFeatures(trx, o.workspace, commaList(o.features)),
    }),
  );
  action(
    workspace
      .command('set-readings-retention')
      .description(
        "Keep a workspace's raw sensor readings N days (whole months go), for ever (off), or as " +
          'READINGS_RETENTION_DAYS says (default) -> {workspace_id, setting, days, raw_since}',
      )
      .addOption(required('--workspace <id>', 'workspace id'))
      .addOption(required('--days <days>', 'days from 1 to 36500, off or default')),
    async (o: { workspace: string; days: string }, trx, config) =>
      setReadingsRetention(
        trx,
        o.workspace,
        parseRetentionSetting(o.days),
        config.readingsRetentionDays,
        new Date().toISOString(),
      ),
  );
}
