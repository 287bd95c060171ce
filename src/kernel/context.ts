import type { FastifyBaseLogger } from 'fastify';
import type { Db, Trx } from '../db/database.js';
import type { PageRequest, SortKey } from '../db/pages.js';
import { filterHash, type CursorCodec } from './paging.js';
import type { Principal } from './principal.js';

export interface RouteResult<D, M> {
  data: D;
  meta?: M;
  /**
   * Response headers beyond the kernel's (the session cookie of sign-in and
   * sign-out). Never part of a stored Idempotency-Key replay: only for reads and
   * for writes declared `idempotency: 'ignore'`.
   */
  headers?: Readonly<Record<string, string>>;
}

/** What every step of a request knows: who calls, and about the request itself. */
export interface BaseContext {
  readonly principal: Principal;
  readonly requestId: string;
  /** The time of the request, read once. */
  readonly now: string;
  readonly publicUrl: string;
  readonly log: FastifyBaseLogger;
}

/** A read: queries run on the database, outside any transaction. */
export interface ReadContext extends BaseContext {
  readonly db: Db;
  /**
   * The cursor of `list` (a list without filters of its own) going on after `key`:
   * a record that embeds the first page of a list says where that list continues
   * (`meta.events_next_cursor` of an SOP run).
   */
  listCursor(list: string, key: SortKey): string;
}

/** A list: a read with its page (limit capped, offset, the cursor's key). */
export interface ListContext extends ReadContext {
  readonly page: PageRequest;
}

/**
 * The slow first step of a write (downloads, blob uploads), outside any
 * transaction: on SQLite a transaction holds the only connection, so nothing slow
 * may run inside one. It may read; it writes nothing to the database.
 */
export type PrepareContext = ReadContext;

/**
 * A write: it runs in the request's transaction, which also completes the
 * Idempotency-Key, so the write and its stored response commit together. It has no
 * handle on the bare database.
 */
export interface WriteContext extends BaseContext {
  readonly trx: Trx;
}

const NO_FILTERS = filterHash({});

/**
 * The context of one request. A class, so that a request allocates only its
 * fields; `now` is read when first asked for and then kept, so every step of the
 * request sees the same time.
 */
export class RequestScope implements ListContext {
  #now: string | null = null;
  readonly #cursors: CursorCodec;

  constructor(
    readonly principal: Principal,
    readonly db: Db,
    readonly requestId: string,
    readonly publicUrl: string,
    readonly log: FastifyBaseLogger,
    readonly page: PageRequest,
    cursors: CursorCodec,
  ) {
    this.#cursors = cursors;
  }

  listCursor(list: string, key: SortKey): string {
    return this.#cursors.encode(list, NO_FILTERS, this.principal.workspaceId, key);
  }

  get now(): string {
    return (this.#now ??= new Date().toISOString());
  }

  /** The same request, inside its transaction. */
  within(trx: Trx): WriteContext {
    return {
      principal: this.principal,
      trx,
      requestId: this.requestId,
      now: this.now,
      publicUrl: this.publicUrl,
      log: this.log,
    };
  }
}
