import { CompiledQuery, type Compilable } from 'kysely';
import { isPostgres, nameStatement, sqliteHandleOf, type Db } from './database.js';
import type { SqliteHandle } from './sqlite.js';

const MARK = '\u0000vitro-param:';

interface Template {
  readonly sql: string;
  /** Per compiled parameter: the name of a placeholder, or a constant value. */
  readonly slots: readonly ({ name: string } | { value: unknown })[];
}

function placeholders<P>(): P {
  return new Proxy(
    {},
    { get: (_target, name) => (typeof name === 'string' ? `${MARK}${name}` : undefined) },
  ) as P;
}

/** `*` as a column of a select or a returning (not `count(*)`, not a product). */
const ALL_COLUMNS = /(?:^|[\s,(])(?:"[^"]+"\.)?\*\s*(?:,|\bfrom\b|$)/i;

function templateOf(compiled: CompiledQuery): Template {
  if (compiled.sql.includes('\u0000')) {
    throw new Error('a prepared query used a placeholder outside a value position');
  }
  if (ALL_COLUMNS.test(compiled.sql)) {
    // PostgreSQL keeps a prepared query by name (nameStatement), and refuses to run it
    // once a migration has added a column to what `*` stood for: a server of the
    // previous release would fail while the next one migrates.
    throw new Error(`a prepared query must name its columns, not select *: ${compiled.sql}`);
  }
  return {
    sql: compiled.sql,
    slots: compiled.parameters.map((value) =>
      typeof value === 'string' && value.startsWith(MARK)
        ? { name: value.slice(MARK.length) }
        : { value },
    ),
  };
}

export interface PreparedQuery<P, R> {
  /** All rows. */
  all(db: Db, params: P): Promise<R[]>;
  /** The first row, if any. */
  first(db: Db, params: P): Promise<R | undefined>;
  /** Rows changed by a write. */
  run(db: Db, params: P): Promise<number>;
  /**
   * All rows of a read, each the array of its columns' values in the order selected
   * (the columns must have distinct names). On SQLite's fast path no object is made
   * per row (see SqliteHandle.prepareTuples); elsewhere the rows' values, in order.
   */
  tuples(db: Db, params: P): Promise<unknown[][]>;
}

/**
 * A query of fixed shape, built and compiled once per dialect, then run with new
 * parameters. Kysely builds and compiles every query it runs, which on a hot path
 * costs several times what SQLite needs to answer it. `build` receives
 * placeholders for the parameters and must use each only as a value (no string
 * operations on them, no identifiers built from them).
 */
export function preparedQuery<P extends object, R>(
  build: (db: Db, params: P) => Compilable<R>,
): PreparedQuery<P, R> {
  // Keyed by the dialect's adapter, which a database and its transactions share.
  const templates = new WeakMap<object, Template>();
  const templateFor = (db: Db): Template => {
    const adapter = db.getExecutor().adapter;
    let template = templates.get(adapter);
    if (template === undefined) {
      template = templateOf(build(db, placeholders<P>()).compile());
      templates.set(adapter, template);
      if (isPostgres(db)) nameStatement(template.sql);
    }
    return template;
  };
  const parametersOf = (template: Template, params: P): unknown[] => {
    const values = params as Record<string, unknown>;
    return template.slots.map((slot) => ('name' in slot ? values[slot.name] : slot.value));
  };
  const execute = async (db: Db, params: P): Promise<{ rows: R[]; changes: number }> => {
    const template = templateFor(db);
    const parameters = parametersOf(template, params);
    const sqlite = fastPathOf(db);
    const statement = sqlite?.prepare(template.sql);
    // A write outside a transaction goes Kysely's way, which takes the write turn (sqlite.ts).
    if (statement !== undefined && (statement.readonly || db.isTransaction)) {
      if (statement.reader) return { rows: statement.all(parameters) as R[], changes: 0 };
      return { rows: [], changes: statement.run(parameters).changes };
    }
    const result = await db.executeQuery<R>(CompiledQuery.raw(template.sql, parameters));
    return { rows: result.rows, changes: Number(result.numAffectedRows ?? 0n) };
  };
  return {
    all: async (db, params) => (await execute(db, params)).rows,
    first: async (db, params) => (await execute(db, params)).rows[0],
    run: async (db, params) => (await execute(db, params)).changes,
    tuples: async (db, params) => {
      const sqlite = fastPathOf(db);
      if (sqlite === undefined) {
        return (await execute(db, params)).rows.map((row): unknown[] =>
          Object.values(row as object),
        );
      }
      const template = templateFor(db);
      return sqlite.prepareTuples(template.sql).all(parametersOf(template, params));
    },
  };
}

/**
 * SQLite fast path: better-sqlite3 runs synchronously, so a statement can run at
 * once when the caller is the open transaction, or when none is open (it then
 * reads committed data). Otherwise (undefined) Kysely queues it behind that transaction.
 */
function fastPathOf(db: Db): SqliteHandle | undefined {
  const sqlite = sqliteHandleOf(db);
  return sqlite !== undefined && (db.isTransaction || !sqlite.inTransaction) ? sqlite : undefined;
}

/** `{column: placeholder}` for the columns of an insert built with `preparedQuery`. */
export function pick<P extends object, K extends keyof P>(
  params: P,
  columns: readonly K[],
): Pick<P, K> {
  const out = {} as Pick<P, K>;
  for (const column of columns) out[column] = params[column];
  return out;
}
