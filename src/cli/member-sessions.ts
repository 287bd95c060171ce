import type { Command } from 'commander';
import type { CommandKit } from './command-kit.js';
import { isRunning, recordedServerAddress } from './server-address.js';

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
          "member's older unused links stop working) -> {member_id, url, expires_at}; the " +
          'address is PUBLIC_URL, else the one the server last started on this data directory recorded',
      )
      .addOption(required('--member <id>', 'member id')),
    async (o: { member: string }, trx, config) => {
      const { mintSignInLinkForMember } = await import('../modules/sessions/index.js');
      const now = new Date().toISOString();
      if (config.publicUrlSet) return mintSignInLinkForMember(trx, o.member, config.publicUrl, now);
      const recorded = recordedServerAddress(config.dataDir);
      if (recorded === null) {
        // Never a guess: a link to an address nobody serves looks valid and fails.
        const link = await mintSignInLinkForMember(trx, o.member, '', now);
        return {
          member_id: link.member_id,
          url: null,
          path: link.url,
          expires_at: link.expires_at,
          note:
            "the server's address is not known: no server has started on this data directory " +
            `(${config.dataDir}) and PUBLIC_URL is not set; open the console's address followed by path, or set PUBLIC_URL`,
        };
      }
      const link = await mintSignInLinkForMember(trx, o.member, recorded.console_url, now);
      return isRunning(recorded.pid)
        ? link
        : {
            ...link,
            note: `the address the server recorded at ${recorded.recorded_at}; that server is not running now`,
          };
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
