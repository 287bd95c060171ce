import { loadConfig, type Config } from '../config.js';
import type { Database, Trx } from '../db/database.js';
import { upgradeDatabase } from '../db/upgrade.js';
import { inTransaction } from '../db/transaction.js';
import type { CliIo } from './io.js';
import { explainStartupError, openCheckedDatabase } from './startup-errors.js';

/**
 * Loads the configuration from the environment, opens the database, brings its
 * schema up to date (unless `migrate` is false), runs `work` and closes the
 * database, so the process can exit at once. A database that cannot be opened or
 * reached is reported naming DATABASE_URL (or VITRO_DATA_DIR).
 */
export async function withDatabase<T>(
  io: CliIo,
  work: (database: Database, config: Config) => Promise<T>,
  options: { migrate?: boolean } = {},
): Promise<T> {
  const config = loadConfig(io.env);
  const database = await openCheckedDatabase(config, { poolSize: 2 });
  try {
    if (options.migrate ?? true) await upgradeDatabase(database, config.database);
    return await work(database, config);
  } catch (error) {
    throw explainStartupError(error, config, 'database');
  } finally {
    await database.close();
  }
}

/**
 * Runs one command's writes in one transaction: all of them commit, or none
 * (a failed `vitro demo` or import leaves nothing behind). The CLI's only way
 * to write.
 */
export function transact<T>(database: Database, work: (trx: Trx) => Promise<T>): Promise<T> {
  return inTransaction(database.db, work);
}
