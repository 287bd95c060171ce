import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../db/database.js';
import type { PageRequest, SortKey } from './paging.js';
import type { Principal } from './principal.js';

export interface RouteResult<D, M> {
  data: D;
  meta?: M;
}

/** What a handler gets besides its validated input. */
export interface RequestContext {
  readonly principal: Principal;
  /** The request's transaction for writes; the database for reads. */
  readonly db: Db;
  /**
   * The database outside any transaction, for work that must not roll back. Never
   * use it while the request's transaction is open: SQLite has one connection, so
   * that would wait on itself.
   */
  readonly database: Database;
  readonly requestId: string;
  readonly now: string;
  readonly publicUrl: string;
  readonly log: FastifyBaseLogger;
  /** Paging of a listed route: limit (capped), offset and the decoded cursor. */
  readonly page: PageRequest;
  /** Wraps a page of items with `meta.next_cursor` bound to this list, filters and workspace. */
  list<T>(items: T[], nextKey: SortKey | null): { data: T[]; meta: { next_cursor: string | null } };
  /**
   * Runs the write of a `transaction: 'handler'` route in one transaction, which
   * also stores `fn`'s result as the Idempotency-Key's response (a replay answers
   * it, through `onReplay`); returns the result. In the default
   * mode the whole handler already runs in the request's transaction and this just
   * calls `fn` with it.
   */
  transaction<D, M>(fn: (trx: Db) => Promise<RouteResult<D, M>>): Promise<RouteResult<D, M>>;
}

type TransactionRunner = <D, M>(
  fn: (trx: Db) => Promise<RouteResult<D, M>>,
) => Promise<RouteResult<D, M>>;

/**
 * The context of one request. A class, so that its methods are shared and a
 * request allocates only its fields; `now` is read when first asked for.
 */
export class HandlerContext implements RequestContext {
  #now: string | null = null;

  constructor(
    readonly principal: Principal,
    readonly db: Db,
    readonly database: Database,
    readonly requestId: string,
    readonly publicUrl: string,
    readonly log: FastifyBaseLogger,
    readonly page: PageRequest,
    private readonly encodeCursor: ((nextKey: SortKey) => string) | null,
    private readonly runTransaction: TransactionRunner | null,
  ) {}

  get now(): string {
    return (this.#now ??= new Date().toISOString());
  }

  list<T>(items: T[], nextKey: SortKey | null) {
    const next = nextKey === null || this.encodeCursor === null ? null : this.encodeCursor(nextKey);
    return { data: items, meta: { next_cursor: next } };
  }

  transaction<D, M>(fn: (trx: Db) => Promise<RouteResult<D, M>>): Promise<RouteResult<D, M>> {
    return this.runTransaction === null ? fn(this.db) : this.runTransaction(fn);
  }
}
