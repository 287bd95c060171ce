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
    );
  backup.action(async () => {
    const { runBackup } = await import('./backup.js');
    done(await runBackup(io, backup.opts<{ out?: string }>()));
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
    );
  restore.action(async (path: string) => {
    const { runRestore } = await import('./restore.js');
    done(await runRestore(io, path, restore.opts<{ force?: boolean }>()));
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
