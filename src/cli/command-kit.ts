import { Option, type Command, type OptionValues } from 'commander';
import type { Config } from '../config.js';
import type { Database, Trx } from '../db/database.js';
import { transact, withDatabase } from './database.js';
import type { CliIo } from './io.js';

/** Where a command hands its result (runCli prints it as one JSON line). */
export type Done = (result: object) => void;

type Work<O extends OptionValues> = (options: O, trx: Trx, config: Config) => Promise<object>;

/** How the admin commands declare their actions: a write in one transaction, or a read. */
export interface CommandKit {
  /** A command that writes: its work runs in one transaction, all or nothing. */
  readonly action: <O extends OptionValues>(command: Command, work: Work<O>) => Command;
  /** A command that only reads: no transaction (on SQLite one would take the write lock). */
  readonly read: <O extends OptionValues>(
    command: Command,
    work: (options: O, database: Database) => Promise<object>,
  ) => Command;
  /** An option the command cannot run without. */
  readonly required: (flags: string, description: string) => Option;
}

export function commandKit(io: CliIo, done: Done): CommandKit {
  return {
    action: <O extends OptionValues>(command: Command, work: Work<O>) =>
      command.action(async () => {
        const options = command.opts<O>();
        done(
          await withDatabase(io, (database, config) =>
            transact(database, (trx) => work(options, trx, config)),
          ),
        );
      }),
    read: <O extends OptionValues>(
      command: Command,
      work: (options: O, database: Database) => Promise<object>,
    ) =>
      command.action(async () => {
        const options = command.opts<O>();
        done(await withDatabase(io, (database) => work(options, database)));
      }),
    required: (flags, description) => new Option(flags, description).makeOptionMandatory(),
  };
}
