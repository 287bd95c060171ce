import type { FastifyReply, FastifyRequest } from 'fastify';
import { inTransaction } from '../../db/transaction.js';
import { trackWrite } from '../writes-in-flight.js';
import { RequestScope, type RouteResult } from '../context.js';
import { completeIdempotencyKey, keepLeaseAlive, releaseIdempotencyKey } from '../idempotency.js';
import type { PageRequest } from '../../db/pages.js';
import type { TSchema } from 'typebox';
import { csvAsked, csvColumns, sendCsv } from './csv.js';
import { spreadsheetLayout } from './csv-spreadsheet.js';
import type { Kernel } from './kernel.js';
import type { Operation } from './schema.js';
import type { ListResult, ReadCsv, ReplayPayload } from './spec.js';

type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
type Step<C, R> = (req: never, ctx: C) => Promise<R>;

const FIRST_PAGE: PageRequest = { limit: 50, offset: 0, after: null };

/** The context of a request, for its handler and its replay; `page` for a CSV export's pages. */
export function scopeOf(
  kernel: Kernel,
  req: FastifyRequest,
  page: PageRequest = req.pageRequest ?? FIRST_PAGE,
): RequestScope {
  return new RequestScope(
    req.principal!,
    kernel.database.db,
    req.id,
    kernel.config.publicUrl,
    req.log,
    page,
    kernel.cursors,
  );
}

function payloadOf(result: RouteResult<unknown, unknown>): ReplayPayload {
  return result.meta === undefined
    ? { ok: true, data: result.data }
    : { ok: true, data: result.data, meta: result.meta };
}

/** A read: the handler's result in the envelope, or its rows as CSV when it answers CSV and is asked to. */
export function runRead(
  kernel: Kernel,
  op: Operation,
  handler: Step<RequestScope, RouteResult<unknown, unknown>>,
  csv: ReadCsv<TSchema> | null = null,
): Handler {
  const run = handler as (
    req: FastifyRequest,
    ctx: RequestScope,
  ) => Promise<RouteResult<unknown, unknown>>;
  return async (req, reply) => {
    const result = await run(req, scopeOf(kernel, req));
    const asked = askedFor(req);
    if (csv !== null && asked.csv) {
      const rows = csv.rows(result.data);
      const layout = await csvLayout(kernel, req, asked.spreadsheet, csv.row, csv.file);
      return sendCsv(reply, {
        list: csv.file,
        item: csv.row,
        page: () => Promise.resolve({ items: [...rows], nextKey: null }),
        ...(layout === undefined ? {} : { layout }),
      });
    }
    if (csv !== null) reply.header('vary', 'Accept');
    if (result.headers !== undefined) reply.headers(result.headers);
    return reply.code(op.status).send(payloadOf(result));
  };
}

/** What CSV a request asks for: by its `format` parameter, else its Accept header. */
const askedFor = (req: FastifyRequest) =>
  csvAsked(req.headers.accept, (req.query as { format?: unknown } | undefined)?.format);

/** The spreadsheet-friendly layout when the request asks for it, else the raw one. */
async function csvLayout(
  kernel: Kernel,
  req: FastifyRequest,
  spreadsheet: boolean,
  item: TSchema,
  list: string,
) {
  return spreadsheet
    ? spreadsheetLayout(
        csvColumns(item),
        list,
        await kernel.spreadsheet.open(kernel.database.db, req.principal!.workspaceId),
      )
    : undefined;
}

/**
 * A list: the handler's page, with a cursor bound to this list, its filters and the
 * workspace; or, for a list that exports and a request asking for `text/csv`, every
 * matching row as CSV (`limit`, `offset` and `cursor` then play no part).
 */
export function runList(
  kernel: Kernel,
  op: Operation,
  handler: Step<RequestScope, ListResult<unknown>>,
  item: TSchema,
): Handler {
  const run = handler as (req: FastifyRequest, ctx: RequestScope) => Promise<ListResult<unknown>>;
  const list = op.paging!.list;
  const csv = op.paging!.csv;
  return async (req, reply) => {
    const asked = askedFor(req);
    if (csv && asked.csv) {
      const layout = await csvLayout(kernel, req, asked.spreadsheet, item, list);
      return sendCsv(reply, {
        list,
        item,
        page: (page) => run(req, scopeOf(kernel, req, page)),
        ...(layout === undefined ? {} : { layout }),
      });
    }
    if (csv) reply.header('vary', 'Accept');
    const page = await run(req, scopeOf(kernel, req));
    const next =
      page.nextKey === null
        ? null
        : kernel.cursors.encode(list, req.pageFilters, req.principal!.workspaceId, page.nextKey);
    const meta =
      page.meta === undefined ? { next_cursor: next } : { next_cursor: next, ...page.meta };
    return reply.code(op.status).send({ ok: true, data: page.items, meta });
  };
}

export interface WriteSteps {
  prepare: ((req: FastifyRequest, ctx: RequestScope) => Promise<unknown>) | null;
  write: (
    req: FastifyRequest,
    ctx: ReturnType<RequestScope['within']>,
    prepared: unknown,
  ) => Promise<RouteResult<unknown, unknown>>;
  discard: ((prepared: unknown, ctx: RequestScope) => Promise<void>) | null;
}

/**
 * A write: the optional slow `prepare` step outside any transaction, then the
 * `write` step and the completion of the Idempotency-Key in one transaction, so
 * both commit or neither does. On any failure the key is released (a retry really
 * retries) and `discard` undoes what `prepare` left behind.
 */
export function runWrite(kernel: Kernel, op: Operation, steps: WriteSteps): Handler {
  const handler = writeHandler(kernel, op, steps);
  // Tracked so that a shutdown waits for it (kernel/writes-in-flight.ts).
  return (req, reply) => trackWrite(kernel.database, handler(req, reply));
}

function writeHandler(kernel: Kernel, op: Operation, steps: WriteSteps): Handler {
  const { db } = kernel.database;
  return async (req, reply) => {
    const claim = req.idempotencyClaim;
    const scope = scopeOf(kernel, req);
    let prepared: { value: unknown } | null = null;
    // The claim's lease is short; it is renewed while the write works (a slow prepare
    // step, a wait for the write lock), so a crashed worker's key is free within seconds.
    const stopRenewing =
      claim === null
        ? () => undefined
        : keepLeaseAlive(db, claim, undefined, (error: unknown) =>
            req.log.warn({ err: error }, 'could not renew an idempotency lease'),
          );
    try {
      if (steps.prepare !== null) prepared = { value: await steps.prepare(req, scope) };
      const result = await inTransaction(db, async (trx) => {
        const written = await steps.write(req, scope.within(trx), prepared?.value);
        if (claim !== null) {
          await completeIdempotencyKey(trx, claim, op.status, JSON.stringify(payloadOf(written)));
        }
        return written;
      });
      req.idempotencyClaim = null;
      if (op.idempotency === 'store') reply.header('idempotent-replay', 'false');
      if (result.headers !== undefined) reply.headers(result.headers);
      return reply.code(op.status).send(payloadOf(result));
    } catch (error) {
      if (prepared !== null && steps.discard !== null) {
        await steps
          .discard(prepared.value, scope)
          .catch((discardError: unknown) =>
            req.log.error(
              { err: discardError },
              'could not undo the prepared step of a failed write',
            ),
          );
      }
      if (claim !== null) {
        req.idempotencyClaim = null;
        await releaseIdempotencyKey(db, claim).catch((releaseError: unknown) =>
          req.log.error({ err: releaseError }, 'could not release idempotency key'),
        );
      }
      throw error;
    } finally {
      stopRenewing();
    }
  };
}
