import { restoreBackup, type RestoreSummary } from '../backup/restore.js';
import { loadConfig } from '../config.js';
import type { CliIo } from './io.js';
import { progressReporter } from './progress.js';
import { explainStartupError } from './startup-errors.js';

/** `vitro restore PATH [--force]`: an archive of `vitro backup` into this configuration. */
export async function runRestore(
  io: CliIo,
  archive: string,
  options: { force?: boolean },
): Promise<RestoreSummary> {
  const config = loadConfig(io.env);
  try {
    return await restoreBackup(config, {
      archive,
      force: options.force === true,
      onProgress: progressReporter(io),
    });
  } catch (error) {
    throw explainStartupError(error, config, 'database');
  }
}
