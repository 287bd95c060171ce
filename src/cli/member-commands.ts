import type { Command } from 'commander';
import { ROLES } from '../kernel/access.js';
import {
  addMember,
  listMembers,
  listWorkspaces,
  removeMember,
  setMemberRole,
} from '../modules/identity/index.js';
import type { Db } from '../db/database.js';
import type { CommandKit } from './command-kit.js';
import { registerMemberSessionCommands } from './member-sessions.js';
import { memberSummary } from './present.js';

/**
 * The workspace a command names, or the only one there is: a lab with one
 * workspace need not copy its id. Several and none named is an error listing them.
 */
async function workspaceOf(db: Db, named: string | undefined): Promise<string> {
  if (named !== undefined) return named;
  const all = await listWorkspaces(db);
  if (all.length === 1) return all[0]!.id;
  if (all.length === 0)
    throw new Error(
      'there is no workspace yet: create one with `vitro workspace create --name NAME`',
    );
  throw new Error(
    `there are ${all.length} workspaces; name one with --workspace: ` +
      all.map((w) => `${w.id} (${w.name})`).join(', '),
  );
}

/** `vitro member …` (docs/cli.md): loaded only when a command names the group. */
export function registerMemberCommands(
  member: Command,
  { action, read, required }: CommandKit,
): void {
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
      .option('--workspace <id>', 'workspace id (default: the only workspace, when there is one)'),
    async (o: { workspace?: string }, { db }) => ({
      members: (await listMembers(db, await workspaceOf(db, o.workspace))).map(memberSummary),
    }),
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
      .description(
        'Remove a member; their keys, console sessions and unused sign-in links stop working ' +
          'at once -> {id, status}',
      )
      .addOption(required('--member <id>', 'member id')),
    async (o: { member: string }, trx) => {
      const row = await removeMember(trx, o.member);
      const { signOutRemovedMember } = await import('../modules/sessions/index.js');
      await signOutRemovedMember(trx, row, new Date().toISOString());
      return { id: row.id, status: row.status };
    },
  );
  registerMemberSessionCommands(member, { action, read, required });
}
