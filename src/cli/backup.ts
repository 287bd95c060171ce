import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { archiveName, createBackup, type BackupSummary } from '../backup/backup.js';
import {
  ageRecipients,
  loadConfig,
  readPassphraseFile,
  type BackupEncryption,
  type Config,
} from '../config.js';
import type { CliIo } from './io.js';
import { progressReporter } from './progress.js';
import { explainStartupError, openCheckedDatabase } from './startup-errors.js';

/**
 * `--out`: a file to create, or a directory to create it in; by default the data
 * directory's `backups/` (made private), never the working directory: the archive
 * holds the server's secret, and the working directory is often a checkout.
 */
function archivePath(
  out: string | undefined,
  dataDir: string,
  now: Date,
  encrypted: boolean,
): string {
  const name = archiveName(now, encrypted);
  if (out === undefined) {
    const dir = join(resolve(dataDir), 'backups');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return join(dir, name);
  }
  if (out.endsWith('/')) return resolve(out, name);
  try {
    if (statSync(out).isDirectory()) return join(resolve(out), name);
  } catch {
    // Not there yet: the archive's own name.
  }
  return resolve(out);
}

export interface BackupCommandOptions {
  out?: string;
  encrypt?: boolean;
  recipient?: string[];
  passphraseFile?: string;
}

/**
 * How this archive is encrypted: `--recipient`/`--passphrase-file` when given (they
 * imply `--encrypt`), else BACKUP_RECIPIENTS / BACKUP_PASSPHRASE_FILE, which
 * encrypt every archive; `--encrypt` with neither is refused.
 */
function encryptionOf(options: BackupCommandOptions, config: Config): BackupEncryption | null {
  const recipients = options.recipient ?? [];
  if (recipients.length > 0 && options.passphraseFile !== undefined) {
    throw new Error(
      '--recipient and --passphrase-file: give one or the other (an age archive is encrypted ' +
        'to recipients or to a passphrase)',
    );
  }
  if (recipients.length > 0) {
    return { kind: 'recipients', recipients: ageRecipients(recipients, '--recipient') };
  }
  if (options.passphraseFile !== undefined) {
    const file = resolve(options.passphraseFile);
    return { kind: 'passphrase', passphrase: readPassphraseFile(file, '--passphrase-file') };
  }
  if (config.backupEncryption !== null) return config.backupEncryption;
  if (options.encrypt === true) {
    throw new Error(
      '--encrypt: say how, with --recipient age1… (a public key; its identity decrypts) or ' +
        '--passphrase-file FILE, or set BACKUP_RECIPIENTS or BACKUP_PASSPHRASE_FILE',
    );
  }
  return null;
}

/**
 * `vitro backup [--out PATH] [--encrypt …]`: one archive of the database, stored
 * files and data directory, encrypted (age) when asked or configured.
 */
export async function runBackup(io: CliIo, options: BackupCommandOptions): Promise<BackupSummary> {
  const config = loadConfig(io.env);
  const encryption = encryptionOf(options, config);
  const archive = archivePath(options.out, config.dataDir, new Date(), encryption !== null);
  // SQLite is copied by a connection of its own; PostgreSQL needs one for its snapshot.
  const database =
    config.database.dialect === 'postgres'
      ? await openCheckedDatabase(config, { poolSize: 2 })
      : null;
  try {
    return await createBackup(config, database, {
      archive,
      encryption,
      onProgress: progressReporter(io),
    });
  } catch (error) {
    throw explainStartupError(error, config, 'database');
  } finally {
    await database?.close();
  }
}
