import type { IncomingHttpHeaders } from 'node:http';
import type { Static, TSchema } from 'typebox';
import type { Feature, PlanRequirement, Role, Scope } from '../access.js';
import type {
  ListContext,
  PrepareContext,
  ReadContext,
  RouteResult,
  WriteContext,
} from '../context.js';
import type { Credentials } from '../authorize.js';
import type { ErrorCode } from '../errors.js';
import type { Page } from '../../db/pages.js';

export interface RouteRequest<P extends TSchema, Q extends TSchema, B extends TSchema> {
  readonly params: Static<P>;
  readonly query: Static<Q>;
  readonly body: Static<B>;
  readonly headers: IncomingHttpHeaders;
}

/** What every operation declares: its address, its documentation and its access rule, as data. */
export interface OperationSpec<P extends TSchema, Q extends TSchema> {
  url: string;
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  /**
   * Credentials accepted; default workspace API keys and console sessions.
   * `session`: console sessions only; `sign-in-link`: the sign-in itself.
   */
  credentials?: Credentials;
  /** Scope the key must hold; null for none (GET /me). */
  scope: Scope | null;
  /** Default `full` (Teams/Enterprise). */
  plan?: PlanRequirement;
  feature?: Feature;
  /** Minimum role; default the one the scope needs. */
  role?: Role;
  /** The 500 code of this operation for unexpected failures. */
  failureCode: ErrorCode;
  /** Codes this operation answers besides the ones its declaration implies (OpenAPI). */
  errors?: ErrorCode[];
  params?: P;
  /**
   * What the path's id names, e.g. `Plant`: a malformed id answers the same 404
   * (`Plant not found`) as an id that exists nowhere.
   */
  notFound?: string;
  /** Filters only: a list's paging parameters are added by the kernel. */
  querystring?: Q;
}

interface Response<D extends TSchema, M extends TSchema> {
  data: D;
  meta?: M;
  /** Whether `meta` is always present or only sometimes. */
  metaRequired?: boolean;
}

/** A GET answering one thing. */
export interface ReadSpec<
  P extends TSchema,
  Q extends TSchema,
  D extends TSchema,
  M extends TSchema,
>
  extends OperationSpec<P, Q>, Response<D, M> {
  handler: (
    req: RouteRequest<P, Q, TSchema>,
    ctx: ReadContext,
  ) => Promise<RouteResult<Static<D>, Static<M>>>;
  /**
   * Asked with `Accept: text/csv`, the read answers rows made of its data as CSV
   * (an insight's groups, a forecast's weeks) instead of JSON.
   */
  csv?: ReadCsv<D>;
}

/** How a read answers CSV: the file's name, the rows' fields (the header) and the rows. */
export interface ReadCsv<D extends TSchema> {
  readonly file: string;
  readonly row: TSchema;
  readonly rows: (data: Static<D>) => readonly object[];
}

export interface PagingSpec {
  /** Names the list inside its cursors: a cursor of one list is refused by another. */
  list: string;
  defaultLimit?: number;
  maxLimit?: number;
  /**
   * Asked with `Accept: text/csv`, the list answers every row matching its filters
   * as CSV, streamed (see `routes/csv.ts`), instead of a page of JSON.
   */
  csv?: boolean;
}

/** A page of a list, with what the list says besides its cursor (`meta`, when it declares one). */
export type ListResult<T> = Page<T> & { readonly meta?: Readonly<Record<string, unknown>> };

/**
 * A GET answering a page of items; the kernel adds `meta.next_cursor`. A list may
 * declare more `meta` fields (an object schema), which its handler returns.
 */
export interface ListSpec<
  P extends TSchema,
  Q extends TSchema,
  I extends TSchema,
> extends OperationSpec<P, Q> {
  paging: PagingSpec;
  item: I;
  meta?: TSchema;
  handler: (req: RouteRequest<P, Q, TSchema>, ctx: ListContext) => Promise<ListResult<Static<I>>>;
}

/**
 * A write whose body is a file, not JSON (an import's CSV or XLSX): the media
 * types it takes, each parsed as raw bytes (the handler gets a Buffer), and its
 * own size limit instead of the JSON bodies' 4.5 MB.
 */
export interface RawBody {
  readonly mediaTypes: readonly string[];
  readonly maxBytes: number;
  /** The 413's text, saying the limit and what to do. */
  readonly tooLarge: string;
  readonly description: string;
}

export interface ReplayPayload {
  ok: true;
  data: unknown;
  meta?: unknown;
}

/** What every write declares besides its steps. */
export interface WriteOptions<
  P extends TSchema,
  Q extends TSchema,
  B extends TSchema,
  D extends TSchema,
  M extends TSchema,
>
  extends OperationSpec<P, Q>, Response<D, M> {
  method: 'POST' | 'PATCH' | 'DELETE';
  /** Default 201 for POST, else 200. */
  status?: 200 | 201;
  body?: B;
  /** Accept a missing body (treated as `{}`). */
  bodyOptional?: boolean;
  /** The body is a file of these media types, handed over as bytes (no `body` schema). */
  rawBody?: RawBody;
  /**
   * Read the body as JSON whatever its Content-Type says (none, `text/plain`…):
   * device firmware often sends JSON without the header. Other operations answer
   * such a body 415.
   */
  bodyOfAnyType?: boolean;
  /**
   * Idempotency-Key handling: `store` (default) replays the first response;
   * `ignore` accepts the header but never stores (responses carrying a secret).
   */
  idempotency?: 'store' | 'ignore';
  /** Points the readings budgets count for this request (POST /sensor-readings). */
  readings?: (body: Static<B>) => number;
  /** Do not name the field in a 422 (measurements). */
  hideFieldInErrors?: boolean;
  /**
   * A PATCH that may send back the record it read: the record as it stands (what its
   * GET answers). Fields of the record the body does not take are then accepted when
   * they hold the record's own values, and refused (422) when they would change it.
   */
  current?: (req: RouteRequest<P, Q, B>, ctx: WriteContext) => Promise<unknown>;
  /** Refreshes a replayed response (assets re-sign `view_url`). */
  onReplay?: (payload: ReplayPayload, ctx: ReadContext) => Promise<ReplayPayload> | ReplayPayload;
}

/** A write done wholly in the request's transaction. */
export interface WriteSpec<
  P extends TSchema,
  Q extends TSchema,
  B extends TSchema,
  D extends TSchema,
  M extends TSchema,
> extends WriteOptions<P, Q, B, D, M> {
  handler: (
    req: RouteRequest<P, Q, B>,
    ctx: WriteContext,
  ) => Promise<RouteResult<Static<D>, Static<M>>>;
}

/**
 * A write in two steps: `prepare` does the slow work outside any transaction
 * (downloads, blob uploads) and hands its result to `write`, which runs in the
 * transaction. When the write does not commit, `discard` undoes what `prepare`
 * left behind (e.g. removes the uploaded blob).
 */
export interface PreparedWriteSpec<
  P extends TSchema,
  Q extends TSchema,
  B extends TSchema,
  D extends TSchema,
  M extends TSchema,
  X,
> extends WriteOptions<P, Q, B, D, M> {
  prepare: (req: RouteRequest<P, Q, B>, ctx: PrepareContext) => Promise<X>;
  write: (
    req: RouteRequest<P, Q, B>,
    ctx: WriteContext,
    prepared: X,
  ) => Promise<RouteResult<Static<D>, Static<M>>>;
  discard?: (prepared: X, ctx: PrepareContext) => Promise<void>;
}
