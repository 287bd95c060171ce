import type { Command } from 'commander';
import type { CommandKit } from './command-kit.js';

/**
 * `vitro member link` and `vitro member sign-out`: a person's console sign-in
 * from the server's own machine. The sessions module is loaded only when one of
 * them runs.
 */
export function registerMemberSessionCommands(
  member: Command,
  { action, required }: CommandKit,
): void {
  action(
    member
      .command('link')
      .description(
        'Mint a personal sign-in link for the console (works once, within 15 minutes) -> ' +
          '{member_id, url, expires_at}',
      )
      .addOption(required('--member <id>', 'member id')),
    async (o: { member: string }, trx, config) => {
      const { mintSignInLinkForMember } = await import('../modules/sessions/index.js');
      return mintSignInLinkForMember(trx, o.member, config.publicUrl, new Date().toISOString());
    },
  );
  action(
    member
      .command('sign-out')
      .description('End every console session of a member -> {member_id, ended_sessions}')
      .addOption(required('--member <id>', 'member id')),
    async (o: { member: string }, trx) => {
      const { signOutMember } = await import('../modules/sessions/index.js');
      return signOutMember(trx, o.member, new Date().toISOString());
    },
  );
}
