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
        'Mint a personal sign-in link for the console (works once, within 15 minutes; the ' +
          "member's older unused links stop working) -> {member_id, url, expires_at}",
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
      .description(
        'End every console session of a member and revoke their unused sign-in links -> ' +
          '{member_id, ended_sessions, revoked_links}',
      )
      .addOption(required('--member <id>', 'member id')),
    async (o: { member: string }, trx) => {
      const { signOutMember } = await import('../modules/sessions/index.js');
      return signOutMember(trx, o.member, new Date().toISOString());
    },
  );
  action(
    member
      .command('revoke-links')
      .description(
        "Revoke a member's unused sign-in links (their sessions go on) -> " +
          '{member_id, revoked_links}',
      )
      .addOption(required('--member <id>', 'member id')),
    async (o: { member: string }, trx) => {
      const { revokeSignInLinksOfMember } = await import('../modules/sessions/index.js');
      return revokeSignInLinksOfMember(trx, o.member, new Date().toISOString());
    },
  );
}
