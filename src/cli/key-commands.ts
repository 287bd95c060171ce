import { Option, type Command } from 'commander';
import { createApiKey, listApiKeys, revokeApiKey } from '../modules/identity/index.js';
import type { CommandKit } from './command-kit.js';
import { parseScopes } from './parse.js';
import { keySummary } from './present.js';
import { scopesHelp } from './scopes-help.js';

/** `vitro key …` (docs/cli.md): loaded only when a command names the group. */
export function registerKeyCommands(key: Command, { action, read, required }: CommandKit): void {
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
    async (o: { workspace: string }, { db }) => ({
      keys: (await listApiKeys(db, o.workspace)).map(keySummary),
    }),
  );
  action(
    key
      .command('revoke')
      .description('Revoke an API key -> {id, revoked_at}')
      .addOption(required('--key <id>', 'key id')),
    async (o: { key: string }, trx) => revokeApiKey(trx, o.key),
  );
}
