import { Option, type Command } from 'commander';
import { transact, withDatabase } from './database.js';
import type { CliIo } from './io.js';

/**
 * `vitro member link` and `vitro member sign-out`: a person's console sign-in from
 * the server's own machine. Added to the `member` command; the sessions module is
 * loaded only when one of them runs.
 */
export function registerMemberSessionCommands(
  program: Command,
  io: CliIo,
  done: (result: object) => void,
): void {
  const member = program.commands.find((command) => command.name() === 'member');
  if (member === undefined) throw new Error('the member command must be registered first');
  const required = (flags: string, description: string) =>
    new Option(flags, description).makeOptionMandatory();

  const link = member
    .command('link')
    .description(
      'Mint a personal sign-in link for the console (works once, within 15 minutes) -> ' +
        '{member_id, url, expires_at}',
    )
    .addOption(required('--member <id>', 'member id'));
  link.action(async () => {
    const { member: memberId } = link.opts<{ member: string }>();
    const { mintSignInLinkForMember } = await import('../modules/sessions/index.js');
    done(
      await withDatabase(io, (database, config) =>
        transact(database, (trx) =>
          mintSignInLinkForMember(trx, memberId, config.publicUrl, new Date().toISOString()),
        ),
      ),
    );
  });

  const signOut = member
    .command('sign-out')
    .description('End every console session of a member -> {member_id, ended_sessions}')
    .addOption(required('--member <id>', 'member id'));
  signOut.action(async () => {
    const { member: memberId } = signOut.opts<{ member: string }>();
    const { signOutMember } = await import('../modules/sessions/index.js');
    done(
      await withDatabase(io, (database) =>
        transact(database, (trx) => signOutMember(trx, memberId, new Date().toISOString())),
      ),
    );
  });
}
