import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { archiveName, createBackup, type BackupSummary } from '../backup/backup.js';
import { loadConfig } from '../config.js';
import type { CliIo } from './io.js';
import { progressReporter } from './progress.js';
import { explainStartupError, openCheckedDatabase } from './startup-errors.js';

/** `--out`: a file to create, or a directory to create it in (default: the working directory). */
function archivePath(out: string | undefined, now: Date): string {
  const name = archiveName(now);
  if (out === undefined) return resolve(name);
  if (out.endsWith('/')) return resolve(out, name);
  try {
    if (statSync(out).isDirectory()) return join(resolve(out), name);
  } catch {
    // Not there yet: the archive's own name.
  }
  return resolve(out);
}

/** `vitro backup [--out PATH]`: one archive of the database, stored files and data directory. */
export async function runBackup(io: CliIo, options: { out?: string }): Promise<BackupSummary> {
  const config = loadConfig(io.env);
  const archive = archivePath(options.out, new Date());
  // SQLite is copied by a connection of its own; PostgreSQL needs one for its snapshot.
  const database =
    config.database.dialect === 'postgres'
      ? await openCheckedDatabase(config, { poolSize: 2 })
      : null;
  try {
    return await createBackup(config, database, { archive, onProgress: progressReporter(io) });
  } catch (error) {
    throw explainStartupError(error, config, 'database');
  } finally {
    await database?.close();
  }
}
