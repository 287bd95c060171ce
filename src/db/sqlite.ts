import type SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDialectConfig,
} from 'kysely';
import type { WriteTurn } from './write-turn.js';

const STATEMENT_CACHE_SIZE = 500;

/** What Kysely's SQLite dialect and `preparedQuery`'s fast path use of a statement. */
export interface SqliteStatement {
  readonly reader: boolean;
  /** It cannot write (SQLite's own answer: transaction control counts as not writing). */
  readonly readonly: boolean;
  readonly busy: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): { changes: number; lastInsertRowid: number | bigint };
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

/** A reading statement in raw mode: each row comes back as the array of its columns' values. */
export interface SqliteTupleStatement {
  all(parameters: readonly unknown[]): unknown[][];
}

/** The one SQLite connection behind a Kysely instance and its transactions. */
export interface SqliteHandle {
  prepare(text: string): SqliteStatement;
  /**
   * A reading statement whose rows are arrays (better-sqlite3's raw mode): no object
   * with named properties is made per row, which on a read of hundreds of rows is
   * most of what it costs. Kept apart from `prepare`'s, which Kysely expects to
   * answer objects; never busy (`all` runs to its end at once).
   */
  prepareTuples(text: string): SqliteTupleStatement;
  close(): void;
  /** Whether a transaction is open on the connection (someone's, maybe ours). */
  readonly inTransaction: boolean;
  /**
   * A number that grows whenever the database may have changed: each statement
   * of this connection that can write, and each commit of another connection
   * (another process, the CLI) seen through `PRAGMA data_version`. While it stays
   * the same, nothing anyone committed can differ from what was read.
   */
  changeGeneration(): number;
}

/**
 * Wraps a better-sqlite3 connection: prepared statements are kept by SQL text
 * (Kysely prepares every query it runs, and preparing costs more than running a
 * simple indexed read), and statements that can write advance the change
 * generation. A cached statement still being iterated (`busy`) is never handed
 * out twice.
 */
export function sqliteHandle(sqlite: SqliteDatabase.Database): SqliteHandle {
  const statements = new Map<string, SqliteStatement>();
  const tupleStatements = new Map<string, SqliteTupleStatement>();
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  let generation = 0;
  let seenDataVersion = -1;

  const counted = (statement: SqliteDatabase.Statement): SqliteStatement => {
    if (statement.readonly) return statement;
    const wrote = () => {
      generation += 1;
    };
    return {
      readonly: false,
      get reader() {
        return statement.reader;
      },
      get busy() {
        return statement.busy;
      },
      all: (parameters) => {
        wrote();
        return statement.all(parameters);
      },
      run: (parameters) => {
        wrote();
        return statement.run(parameters);
      },
      iterate: (parameters) => {
        wrote();
        return statement.iterate(parameters);
      },
    };
  };

  return {
    close: () => sqlite.close(),
    get inTransaction() {
      return sqlite.inTransaction;
    },
    changeGeneration: () => {
      const version = dataVersion.get() as number;
      if (version !== seenDataVersion) {
        seenDataVersion = version;
        generation += 1;
      }
      return generation;
    },
    prepare: (text) => {
      const cached = statements.get(text);
      if (cached !== undefined && !cached.busy) return cached;
      const statement = counted(sqlite.prepare(text));
      if (cached === undefined) {
        if (statements.size >= STATEMENT_CACHE_SIZE) {
          statements.delete(statements.keys().next().value!);
        }
        statements.set(text, statement);
      }
      return statement;
    },
    prepareTuples: (text) => {
      let statement = tupleStatements.get(text);
      if (statement === undefined) {
        const prepared = sqlite.prepare(text);
        if (!prepared.readonly) throw new Error('prepareTuples is for statements that only read');
        statement = prepared.raw(true) as SqliteTupleStatement;
        if (tupleStatements.size >= STATEMENT_CACHE_SIZE) {
          tupleStatements.delete(tupleStatements.keys().next().value!);
        }
        tupleStatements.set(text, statement);
      }
      return statement;
    },
  };
}

/**
 * Kysely's SQLite dialect, with write transactions that take the write lock when
 * they begin (`BEGIN IMMEDIATE`), waiting up to `busy_timeout` for it. A deferred
 * transaction takes it at its first write instead, and when another process (a
 * second server, the CLI) committed meanwhile it cannot: SQLite refuses it with
 * SQLITE_BUSY_SNAPSHOT, without waiting. Taken up front, the wait is a queue.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig & { database: SqliteHandle };
  readonly #turn: WriteTurn | undefined;

  /** `turn`: the write turn this connection shares with another of the process (write-turn.ts). */
  constructor(config: SqliteDialectConfig & { database: SqliteHandle }, turn?: WriteTurn) {
    super(config);
    this.#config = config;
    this.#turn = turn;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config, this.#turn);
  }
}

/**
 * The connection, with a write turn: a statement that writes outside any transaction
 * (it commits by itself) takes the turn too, as a transaction does. Without it, one
 * landing while the other connection's transaction holds SQLite's lock sleeps its
 * thread in the busy handler (1 ms, then 2, 5…): a stream's lease, taken that way on
 * the delivery thread once per batch, stopped the thread serving requests about
 * fifteen times a second under a steady create load.
 */
class TurnTakingConnection implements DatabaseConnection {
  readonly #inner: DatabaseConnection;
  readonly #handle: SqliteHandle;
  readonly #turn: WriteTurn;

  constructor(inner: DatabaseConnection, handle: SqliteHandle, turn: WriteTurn) {
    this.#inner = inner;
    this.#handle = handle;
    this.#turn = turn;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.#turn.held || this.#handle.inTransaction || this.#handle.prepare(query.sql).readonly) {
      return this.#inner.executeQuery<R>(query);
    }
    await this.#turn.take();
    try {
      return await this.#inner.executeQuery<R>(query);
    } finally {
      this.#turn.give();
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.#inner.streamQuery<R>(query, chunkSize);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  readonly #turn: WriteTurn | undefined;
  readonly #handle: SqliteHandle;
  #connection: TurnTakingConnection | undefined;

  constructor(
    config: SqliteDialectConfig & { database: SqliteHandle },
    turn: WriteTurn | undefined,
  ) {
    super(config);
    this.#handle = config.database;
    this.#turn = turn;
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    if (this.#turn === undefined) return connection;
    this.#connection ??= new TurnTakingConnection(connection, this.#handle, this.#turn);
    return this.#connection;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#turn?.take();
    try {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    } catch (error) {
      this.#turn?.give();
      throw error;
    }
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    // A commit that fails is rolled back next (Kysely), which gives the turn then.
    await super.commitTransaction(connection);
    this.#turn?.give();
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await super.rollbackTransaction(connection);
    } finally {
      this.#turn?.give();
    }
  }
}
