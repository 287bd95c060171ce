import type { Command } from 'commander';
import type { CliIo } from './io.js';

/**
 * The operations commands (docs/cli.md, docs/operations.md): backup, restore,
 * doctor. Each loads its work only when it runs.
 */
export function registerOperationsCommands(
  program: Command,
  io: CliIo,
  done: (result: object) => void,
): void {
  const backup = program
    .command('backup')
    .description(
      'Write one consistent archive of the database, stored files and data directory, ' +
        'while the server serves -> {archive, bytes, records, files, not_covered, ...}',
    )
    .option(
      '--out <path>',
      'archive file to create, or a directory to create it in (default: ./vitro-backup-<UTC time>.tar.gz)',
    )
    .option(
      '--encrypt',
      'encrypt the archive (age; .tar.gz.age) to --recipient or --passphrase-file, else to ' +
        'BACKUP_RECIPIENTS or BACKUP_PASSPHRASE_FILE (which encrypt every archive)',
    )
    .option(
      '--recipient <age1…>',
      'encrypt to this age public key (repeat for several); its identity decrypts',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--passphrase-file <file>', 'encrypt to the passphrase on the first line of this file');
  backup.action(async () => {
    const { runBackup } = await import('./backup.js');
    done(await runBackup(io, backup.opts()));
  });

  const restore = program
    .command('restore')
    .description(
      'Restore an archive of `vitro backup` into an empty data directory and database, ' +
        'every checksum checked first -> {restored, schema_version, pending_migrations, records, files}',
    )
    .argument('<path>', 'the archive')
    .option(
      '--force',
      'replace the database and stored files already there (stop the server first)',
    )
    .option(
      '--passphrase-file <file>',
      'decrypt an encrypted archive with the passphrase on the first line of this file ' +
        '(default: BACKUP_PASSPHRASE_FILE)',
    )
    .option(
      '--identity-file <file>',
      'decrypt an archive encrypted to recipients with these age identities (AGE-SECRET-KEY-1…)',
    );
  restore.action(async (path: string) => {
    const { runRestore } = await import('./restore.js');
    done(await runRestore(io, path, restore.opts()));
  });

  const doctor = program
    .command('doctor')
    .description(
      'Check the setup: configuration, database and schema, Redis, file store or bucket, ' +
        'PUBLIC_URL, disk space, clock, backups, permissions; one line per check with what to do ' +
        '(exit 1 when one fails)',
    )
    .option('--json', 'print one JSON object {ok, checks: [{check, status, detail, fix}]}');
  doctor.action(async () => {
    const { runDoctor } = await import('./doctor.js');
    await runDoctor(io, doctor.opts<{ json?: boolean }>());
  });
}
