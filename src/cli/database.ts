import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Database, type Trx } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { inTransaction } from '../db/transaction.js';
import type { CliIo } from './io.js';

/**
 * Loads the configuration from the environment, opens the database, brings its
 * schema up to date (unless `migrate` is false), runs `work` and closes the
 * database, so the process can exit at once.
 */
export async function withDatabase<T>(
  io: CliIo,
  work: (database: Database, config: Config) => Promise<T>,
  options: { migrate?: boolean } = {},
): Promise<T> {
  const config = loadConfig(io.env);
  const database = openDatabase(config.database, { poolSize: 2 });
  try {
    if (options.migrate ?? true) await migrateToLatest(database.db);
    return await work(database, config);
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
