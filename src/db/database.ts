import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import {
  INLINE_AUTOCHECKPOINT_PAGES,
  startCheckpointer,
  type Checkpointer,
} from './checkpointer.js';
import type { DB } from './schema.js';
import { addDecimalTexts } from '../lib/exact-sum.js';
import { timestamptzToIso } from './pg-timestamps.js';
import { ImmediateSqliteDialect, sqliteHandle, type SqliteHandle } from './sqlite.js';
import { WriteTurn } from './write-turn.js';

/** A query handle: the database itself or a transaction bound to it. */
export type Db = Kysely<DB>;
export type Trx = Transaction<DB>;

export interface Database {
  readonly db: Db;
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * Grows whenever anything may have been committed (see SqliteHandle); null where
   * that cannot be known cheaply (PostgreSQL, many processes).
   */
  changeGeneration(): number | null;
  /**
   * The server's SQLite file: the write turn (write-turn.ts) that a connection of a
   * background thread opens with (`OpenOptions.writeTurn`) to take turns with this one.
   */
  readonly writeTurn?: SharedArrayBuffer;
  close(): Promise<void>;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;
const TIMESTAMPTZ_OID = 1184;

function pgTypes(): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      // Counts and sequences fit in a double; they must reach the API as numbers.
      if (oid === INT8_OID) return (value: string) => Number(value);
      if (oid === NUMERIC_OID) return (value: string) => value;
      // Sensor readings' times: the API's ISO text, as SQLite stores it (pg-timestamps.ts).
      if (oid === TIMESTAMPTZ_OID) return timestamptzToIso;
      return pg.types.getTypeParser(oid, format) as (value: string) => unknown;
    }) as pg.CustomTypesConfig['getTypeParser'],
  };
}

/**
 * A pool client whose promise-style `query(text, values)`, the only form Kysely
 * uses, runs pg's callback form under a promise made here. With pg's own promise
 * form each answer stayed reachable through the next young-generation collections,
 * so its rows were copied, promoted and left for a full collection: on pages of
 * 1,000 sensor readings about 4 MB promoted per collection against almost none,
 * and half as much CPU again per answer. Other forms (query objects, callbacks)
 * go to pg unchanged.
 */
class CallbackQueryClient extends pg.Client {
  /** Whether the texts of `nameStatement` run as named statements on this connection. */
  namesStatements = false;
}
type QueryMethod = (this: CallbackQueryClient, ...args: unknown[]) => unknown;
// Assigned, not declared as an override: pg's overloads cannot be restated one by one.
(CallbackQueryClient.prototype as { query: QueryMethod }).query = function (...args) {
  // Looked up on each call, so a spy on pg's method sees it.
  const query = Reflect.get(pg.Client.prototype, 'query') as QueryMethod;
  const [text, values] = args;
  if (typeof text !== 'string' || args.length > 2 || typeof values === 'function') {
    return query.apply(this, args);
  }
  const name = this.namesStatements ? statementNames.get(text) : undefined;
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: unknown) =>
      error ? reject(error) : resolve(result);
    query.call(this, name === undefined ? text : { name, text }, values, done);
  });
};

/** The default client: the fixed queries (`nameStatement`) go by name. */
class NamingQueryClient extends CallbackQueryClient {
  override namesStatements = true;
}

const statementNames = new Map<string, string>();

/**
 * Has PostgreSQL keep this query (a `preparedQuery` template or a `bulkInsert`
 * statement: fixed text, a fixed set of columns) per connection, by name: each
 * connection parses it once, and after five runs PostgreSQL keeps a generic plan when
 * it costs no more than planning each run, which is most of what a key lookup costs
 * it. Unnamed, a lock of one explant by id took 127–166 µs; named, 77–91 µs. The text
 * must name its columns (see prepared.ts): PostgreSQL refuses to run a kept query
 * whose answer's columns a migration changed.
 */
export function nameStatement(text: string): void {
  if (!statementNames.has(text)) statementNames.set(text, `vitro_${statementNames.size + 1}`);
}

/**
 * The SQLite connection behind a Kysely instance (and its transactions, which share
 * its adapter), for `preparedQuery`'s synchronous fast path.
 */
const sqliteHandles = new WeakMap<object, SqliteHandle>();

export function sqliteHandleOf(db: Db): SqliteHandle | undefined {
  return sqliteHandles.get(db.getExecutor().adapter);
}

const pgPools = new WeakMap<object, pg.Pool>();

/** A PostgreSQL handle's pool: connections open, idle, and callers waiting for one. */
export function poolStatsOf(db: Db): { total: number; idle: number; waiting: number } | null {
  const pool = pgPools.get(db);
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null;
}

export interface OpenOptions {
  /** PostgreSQL connections (default 10). */
  poolSize?: number;
  /**
   * SQLite file: copy the write-ahead log into the database on a worker thread
   * (see checkpointer.ts) instead of inside the request that fills it. For the
   * long-running server; short commands keep SQLite's inline checkpoints.
   */
  backgroundCheckpoints?: boolean;
  /**
   * SQLite file: this connection never copies the write-ahead log back itself, because
   * another connection of the process does (the server's, above): the webhook delivery
   * thread's. Checkpointing inline, its commits copied the log and synced the file
   * every time, the log being past SQLite's 1,000 pages whenever the server is busy.
   */
  checkpointsElsewhere?: boolean;
  /**
   * SQLite file: a background thread's connection, whose write transactions take
   * turns with the server's (`Database.writeTurn` of the server's connection).
   */
  writeTurn?: SharedArrayBuffer;
  /**
   * PostgreSQL: this pool's commits do not wait for the write-ahead log to reach the
   * disk (`synchronous_commit = off`). Only for a pool whose every write may be lost in
   * a crash of the database and simply done again: the webhook delivery thread's (its
   * cursors, leases and delivery log move back together, and the events are sent
   * again with the same `webhook-id`). Its commits then cost the disk nothing, and
   * the server's own commits, which do wait, share it with none.
   */
  asyncCommits?: boolean;
}

/**
 * The SQLite file, created readable by its owner only; one created more open by
 * an older version is tightened. SQLite gives its -wal and -shm files the mode
 * of the database file.
 */
function preparePrivateFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (!existsSync(path)) {
    closeSync(openSync(path, 'a', 0o600));
    return;
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      const mode = statSync(file).mode & 0o777;
      if ((mode & 0o077) !== 0) chmodSync(file, mode & 0o700);
    } catch {
      // Not there, or not ours to change: SQLite opens it as it is.
    }
  }
}

export function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Database {
  if (config.dialect === 'sqlite') {
    if (config.path !== ':memory:') preparePrivateFile(config.path);
    const sqlite = new SqliteDatabase(config.path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    // Exact sums of decimal text (readings rollups): SQLite has no exact decimal type.
    sqlite.function('vitro_decimal_add', { deterministic: true }, (a: unknown, b: unknown) =>
      addDecimalTexts(String(a), String(b)),
    );
    let checkpointer: Checkpointer | null = null;
    if (options.checkpointsElsewhere === true) sqlite.pragma('wal_autocheckpoint = 0');
    if (options.backgroundCheckpoints === true && config.path !== ':memory:') {
      // Never inside a commit: the time after COMMIT released the write lock is still
      // the request's (and a retention batch's), better-sqlite3 being synchronous.
      sqlite.pragma('wal_autocheckpoint = 0');
      checkpointer = startCheckpointer(resolve(config.path), {
        onCopied: () => {
          // Between transactions only; the worker asks again in 100 ms, so a failure
          // (another process holding the checkpoint) is left to the next time.
          if (!sqlite.open || sqlite.inTransaction) return;
          try {
            sqlite.pragma('wal_checkpoint(PASSIVE)');
          } catch {
            // See above.
          }
        },
        onFailure: (error) => {
          // Checkpoints go back to the writer: the log never grows unchecked.
          if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${INLINE_AUTOCHECKPOINT_PAGES}`);
          process.emitWarning(
            `SQLite background checkpoints stopped (${error instanceof Error ? error.message : String(error)}); ` +
              'the server checkpoints inline again',
          );
        },
      });
    }
    // The server's connection and a background thread's take turns at writing: a wait
    // in SQLite's busy handler would stop the thread that serves requests.
    const serverTurn =
      options.writeTurn === undefined && checkpointer !== null ? new WriteTurn('server') : null;
    const turn =
      options.writeTurn !== undefined
        ? new WriteTurn('background', options.writeTurn)
        : (serverTurn ?? undefined);
    const handle = sqliteHandle(sqlite);
    const db = new Kysely<DB>({
      dialect: new ImmediateSqliteDialect({ database: handle }, turn),
    });
    sqliteHandles.set(db.getExecutor().adapter, handle);
    return {
      db,
      dialect: 'sqlite',
      changeGeneration: () => handle.changeGeneration(),
      ...(serverTurn !== null ? { writeTurn: serverTurn.buffer } : {}),
      close: async () => {
        await checkpointer?.stop();
        await db.destroy();
      },
    };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: options.poolSize ?? 10,
    ...(options.asyncCommits === true ? { options: '-c synchronous_commit=off' } : {}),
    types: pgTypes(),
    // Off for a pooler that hands one connection to many clients without keeping
    // their named statements (PgBouncer in transaction mode before 1.21, or without
    // max_prepared_statements): see DATABASE_PREPARED_STATEMENTS.
    Client: config.preparedStatements === false ? CallbackQueryClient : NamingQueryClient,
  });
  // An idle connection that PostgreSQL closes (a restart, a failover) is an 'error' of
  // the pool: unheard, it would end the process. The next query connects again.
  pool.on('error', () => undefined);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  pgPools.set(db, pool);
  return { db, dialect: 'postgres', changeGeneration: () => null, close: () => db.destroy() };
}

/** True when the handle talks to PostgreSQL (row locks exist there; SQLite serialises writers). */
export function isPostgres(db: { getExecutor(): { adapter: unknown } }): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
