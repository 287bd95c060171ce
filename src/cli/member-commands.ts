import type { Command } from 'commander';
import { ROLES } from '../kernel/access.js';
import { addMember, listMembers, removeMember, setMemberRole } from '../modules/identity/index.js';
import type { CommandKit } from './command-kit.js';
import { registerMemberSessionCommands } from './member-sessions.js';
import { memberSummary } from './present.js';

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
      .addOption(required('--workspace <id>', 'workspace id')),
    async (o: { workspace: string }, { db }) => ({
      members: (await listMembers(db, o.workspace)).map(memberSummary),
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
