import { readFile } from 'node:fs/promises';
import { Option, type Command, type OptionValues } from 'commander';
import type { Config } from '../config.js';
import type { Database, Trx } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { createBlobStore } from '../files/blob-store.js';
import { PLANS, ROLES } from '../kernel/access.js';
import { errors } from '../kernel/errors.js';
import {
  changeDeviceStatus,
  DEVICE_STATUSES,
  listWorkspaceDevices,
} from '../modules/devices/devices.service.js';
import { createRecordLookup } from '../modules/index.js';
import {
  addMember,
  createApiKey,
  createWorkspace,
  listApiKeys,
  listMembers,
  listWorkspaceSummaries,
  parseScopes,
  removeMember,
  revokeApiKey,
  setMemberRole,
  setWorkspaceFeatures,
  setWorkspacePlan,
  WORKSPACE_TYPES,
} from '../modules/identity/identity.service.js';
import { transact, withDatabase } from './database.js';
import { writeDemoKeyFile } from './demo-key.js';
import type { CliIo } from './io.js';
import { scopesHelp } from './scopes-help.js';
import { explainStartupError } from './startup-errors.js';

type Work<O extends OptionValues> = (options: O, trx: Trx, config: Config) => Promise<object>;

/** Comma-separated values; '' (or only commas) is the empty list. */
function commaList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw errors.validation(`--file: cannot read ${path} (${String(code ?? error)})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw errors.validation(`--file: ${path} is not valid JSON (${(error as Error).message})`);
  }
}

/**
 * Registers every admin command (docs/cli.md) except `serve`; `done` receives the
 * result. The demo and import modules are loaded only by their commands: every
 * other command starts faster without them.
 */
export function registerAdminCommands(
  program: Command,
  io: CliIo,
  done: (result: object) => void,
): void {
  const action = <O extends OptionValues>(command: Command, work: Work<O>): Command =>
    command.action(async () => {
      const options = command.opts<O>();
      done(
        await withDatabase(io, (database, config) =>
          transact(database, (trx) => work(options, trx, config)),
        ),
      );
    });
  /** A command that only reads: no transaction (on SQLite one would take the write lock). */
  const read = <O extends OptionValues>(
    command: Command,
    work: (options: O, database: Database) => Promise<object>,
  ): Command =>
    command.action(async () => {
      const options = command.opts<O>();
      done(await withDatabase(io, (database) => work(options, database)));
    });
  const required = (flags: string, description: string) =>
    new Option(flags, description).makeOptionMandatory();

  program
    .command('migrate')
    .description('Bring the database schema up to date -> {applied: [...]}')
    .action(async () => {
      done(await withDatabase(io, (database) => migrateToLatest(database.db), { migrate: false }));
    });

  action(
    program
      .command('demo')
      .description(
        'Create a demo lab with an owner key and save the key in <data dir>/demo-key.txt ' +
          '(replacing the one there) -> {workspace_id, key, base_url, key_file}',
      ),
    async (_options: object, trx, config) => {
      const { createDemoLab } = await import('../modules/demo/demo.service.js');
      const { demoPhotos, discardDemoPhotos } = await import('../modules/demo/demo.photos.js');
      // In the command's transaction: a key file that cannot be written leaves no lab
      // behind, and the photos stored for it are removed.
      const store = await createBlobStore(config);
      const photos = demoPhotos(store);
      try {
        const lab = await createDemoLab(trx, createRecordLookup(), new Date(), photos);
        let keyFile: string;
        try {
          keyFile = await writeDemoKeyFile(config.dataDir, lab.key);
        } catch (error) {
          throw explainStartupError(error, config, 'files');
        }
        return { ...lab, base_url: config.publicUrl, key_file: keyFile };
      } catch (error) {
        await discardDemoPhotos(photos);
        throw error;
      } finally {
        store.close();
      }
    },
  );

  const workspace = program
    .command('workspace')
    .description('Create workspaces, set plans and features');
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
    async (_o: object, { db }) => ({ workspaces: await listWorkspaceSummaries(db) }),
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
    async (o: { workspace: string; days: string }, trx, config) => {
      const { parseRetentionSetting, setReadingsRetention } =
        await import('../modules/readings/retention.service.js');
      return setReadingsRetention(
        trx,
        o.workspace,
        parseRetentionSetting(o.days),
        config.readingsRetentionDays,
        new Date().toISOString(),
      );
    },
  );

  const member = program.command('member').description('Add members, change roles, remove members');
  action(
    member
      .command('add')
      .description('Add a member to a workspace -> {id, role}')
      .addOption(required('--workspace <id>', 'workspace id'))
      .addOption(required('--name <name>', 'member name'))
      .option('--email <email>', 'email address')
      .addOption(required('--role <role>', 'role').choices(ROLES)),
    async (o: { workspace: string; name: string; email?: string; role: string }, trx) => {
      const row = await addMember(trx, {
        workspaceId: o.workspace,
        name: o.name,
        email: o.email ?? null,
        role: o.role,
      });
      return { id: row.id, role: row.role };
    },
  );
  read(
    member
      .command('list')
      .description("List a workspace's members, removed ones too -> {members: [...]}")
      .addOption(required('--workspace <id>', 'workspace id')),
    async (o: { workspace: string }, { db }) => ({ members: await listMembers(db, o.workspace) }),
  );
  action(
    member
      .command('set-role')
      .description("Change a member's role -> {id, role}")
      .addOption(required('--member <id>', 'member id'))
      .addOption(required('--role <role>', 'role').choices(ROLES)),
    async (o: { member: string; role: string }, trx) => {
      const row = await setMemberRole(trx, o.member, o.role);
      return { id: row.id, role: row.role };
    },
  );
  action(
    member
      .command('remove')
      .description('Remove a member; their keys stop working at once -> {id, status}')
      .addOption(required('--member <id>', 'member id')),
    async (o: { member: string }, trx) => {
      const row = await removeMember(trx, o.member);
      return { id: row.id, status: row.status };
    },
  );

  const key = program.command('key').description('Create and revoke API keys');
  action(
    key
      .command('create')
      .description(
        'Create an API key for a member; the key is shown only here -> {id, key, prefix, scopes}',
      )
      .addOption(required('--member <id>', 'owning member id'))
      .option('--name <name>', 'key name', 'API key')
      .option(
        '--scopes <scopes>',
        "all, none, or a comma list of the scopes below ('' = none)",
        'all',
      )
      .addOption(
        new Option('--environment <environment>', 'key environment')
          .choices(['production', 'development'])
          .default('production'),
      )
      .addHelpText('after', scopesHelp()),
    async (o: { member: string; name: string; scopes: string; environment: string }, trx) => {
      const created = await createApiKey(trx, {
        memberId: o.member,
        name: o.name,
        scopes: parseScopes(o.scopes),
        environment: o.environment,
      });
      return { id: created.id, key: created.key, prefix: created.prefix, scopes: created.scopes };
    },
  );
  read(
    key
      .command('list')
      .description(
        "List a workspace's keys: prefix, scopes, last use, revocation; never the secret -> {keys: [...]}",
      )
      .addOption(required('--workspace <id>', 'workspace id')),
    async (o: { workspace: string }, { db }) => ({ keys: await listApiKeys(db, o.workspace) }),
  );
  action(
    key
      .command('revoke')
      .description('Revoke an API key -> {id, revoked_at}')
      .addOption(required('--key <id>', 'key id')),
    async (o: { key: string }, trx) => revokeApiKey(trx, o.key),
  );

  const device = program
    .command('device')
    .description('List devices; pause, retire or re-activate them');
  read(
    device
      .command('list')
      .description("List a workspace's devices, retired ones too, oldest first -> {devices: [...]}")
      .addOption(required('--workspace <id>', 'workspace id')),
    async (o: { workspace: string }, { db }) => ({
      devices: await listWorkspaceDevices(db, o.workspace),
    }),
  );
  action(
    device
      .command('set-status')
      .description(
        'Set a device status; paused or retired revokes its tokens -> {id, status, revoked_tokens}',
      )
      .addOption(required('--device <id>', 'device id'))
      .addOption(required('--status <status>', 'new status').choices(DEVICE_STATUSES)),
    async (o: { device: string; status: string }, trx) =>
      changeDeviceStatus(trx, o.device, o.status),
  );

  const importCommand = program
    .command('import')
    .description(
      'Load stage lists, rooms, SOPs, equipment, labels, prices and order lines -> {imported: {...}}',
    )
    .addOption(required('--workspace <id>', 'workspace id'))
    .addOption(required('--file <path>', 'import file (JSON; the format: docs/import.md)'));
  importCommand.action(async () => {
    const o = importCommand.opts<{ workspace: string; file: string }>();
    const data = await readJsonFile(o.file);
    const { importLabData } = await import('../modules/import/import.service.js');
    done(
      await withDatabase(io, (database) =>
        transact(database, async (trx) => ({
          imported: await importLabData(trx, o.workspace, data, createRecordLookup()),
        })),
      ),
    );
  });
}
