import { restoreBackup, type RestoreSummary } from '../backup/restore.js';
import { resolve } from 'node:path';
import { readIdentityFile, type DecryptionKeys } from '../backup/encryption.js';
import { loadConfig, readPassphraseFile, type Config } from '../config.js';
import type { CliIo } from './io.js';
import { progressReporter } from './progress.js';
import { explainStartupError } from './startup-errors.js';

export interface RestoreCommandOptions {
  force?: boolean;
  passphraseFile?: string;
  identityFile?: string;
}

/** What may decrypt the archive: the files given, and BACKUP_PASSPHRASE_FILE's passphrase. */
async function keysOf(options: RestoreCommandOptions, config: Config): Promise<DecryptionKeys> {
  const passphrases: string[] = [];
  if (options.passphraseFile !== undefined) {
    passphrases.push(readPassphraseFile(resolve(options.passphraseFile), '--passphrase-file'));
  } else if (config.backupEncryption?.kind === 'passphrase') {
    passphrases.push(config.backupEncryption.passphrase);
  }
  const identities =
    options.identityFile === undefined ? [] : await readIdentityFile(resolve(options.identityFile));
  return { passphrases, identities };
}

/**
 * `vitro restore PATH [--force] [--passphrase-file F | --identity-file F]`: an
 * archive of `vitro backup` (encrypted or not) into this configuration.
 */
export async function runRestore(
  io: CliIo,
  archive: string,
  options: RestoreCommandOptions,
): Promise<RestoreSummary> {
  const config = loadConfig(io.env);
  const keys = await keysOf(options, config);
  try {
    return await restoreBackup(config, {
      archive,
      keys,
      force: options.force === true,
      onProgress: progressReporter(io),
    });
  } catch (error) {
    throw explainStartupError(error, config, 'database');
  }
}
