import { importLabData } from '../modules/import/index.js';
import { createRecordLookup } from '../modules/index.js';
import { transact, withDatabase } from './database.js';
import type { CliIo } from './io.js';
import { readJsonFile } from './parse.js';

/** `vitro import`: the file is read and parsed before the database is opened. */
export async function runImport(
  io: CliIo,
  options: { workspace: string; file: string },
): Promise<object> {
  const data = await readJsonFile(options.file);
  return withDatabase(io, (database) =>
    transact(database, async (trx) => ({
      imported: await importLabData(trx, options.workspace, data, createRecordLookup()),
    })),
  );
}
