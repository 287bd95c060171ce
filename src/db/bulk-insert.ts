import { CompiledQuery } from 'kysely';
import { nameStatement, sqliteHandleOf, type Trx } from './database.js';
import { pgColumn } from './pg-arrays.js';
import type { DB } from './schema.js';

/** The PostgreSQL type of a column, for the array that carries its values. */
export type ColumnType = 'text' | 'bigint' | 'integer' | 'float8';

export interface BulkInsert<R> {
  /** The columns, in the order given. */
  readonly columns: readonly (keyof R & string)[];
  /** Inserts the rows in the transaction's order; nothing when there are none. */
  run(trx: Trx, rows: readonly R[]): Promise<void>;
}

/**
 * Many rows into one table, built once: Kysely builds and compiles a statement with
 * every value of a batch on each call, which on a busy path costs more than the
 * database needs to store the rows.
 * - SQLite: one prepared single-row statement, run per row. better-sqlite3 runs it
 *   synchronously on the transaction's own connection, a few microseconds a row.
 * - PostgreSQL: one statement of one array per column unnested into rows: as many
 *   parameters as columns whatever the number of rows, so its text is fixed and each
 *   connection keeps it by name (`nameStatement`), parsed and planned once, not once
 *   per batch with thousands of parameters. (Its `*` is unnest's columns, which no
 *   migration changes.)
 *
 * `ignoreConflictOn`: the columns of a unique key; a row whose key is stored already
 * is skipped (`ON CONFLICT (…) DO NOTHING`).
 */
export function bulkInsert<T extends keyof DB>(
  table: T,
  columns: { readonly [K in keyof DB[T] & string]: ColumnType },
  options: { readonly ignoreConflictOn?: readonly (keyof DB[T] & string)[] } = {},
): BulkInsert<DB[T]> {
  const names = Object.keys(columns) as (keyof DB[T] & string)[];
  const quoted = (name: string) => `"${name}"`;
  const into = `insert into ${quoted(table)} (${names.map(quoted).join(', ')})`;
  const conflict =
    options.ignoreConflictOn === undefined
      ? ''
      : ` on conflict (${options.ignoreConflictOn.map(quoted).join(', ')}) do nothing`;
  const sqliteText = `${into} values (${names.map(() => '?').join(', ')})${conflict}`;
  const pgText =
    `${into} select * from unnest(` +
    `${names.map((name, i) => `$${i + 1}::${columns[name]}[]`).join(', ')})${conflict}`;
  nameStatement(pgText);
  return {
    columns: names,
    async run(trx, rows) {
      if (rows.length === 0) return;
      const sqlite = sqliteHandleOf(trx);
      if (sqlite === undefined) {
        const arrays = names.map((name) => pgColumn(rows, name));
        await trx.executeQuery(CompiledQuery.raw(pgText, arrays));
        return;
      }
      const statement = sqlite.prepare(sqliteText);
      const values: unknown[] = new Array(names.length);
      for (const row of rows) {
        for (let i = 0; i < names.length; i++) values[i] = row[names[i]!];
        statement.run(values);
      }
    },
  };
}
