import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Db } from './database.js';
import { preparedQuery } from './prepared.js';
import type { DB } from './schema.js';

/** A sort key value as it travels inside a cursor. */
export type KeyValue = string | number | null;
export type SortKey = readonly KeyValue[];

/** One page of a list: its items and the sort key the next page starts after (null: last page). */
export interface Page<T> {
  readonly items: T[];
  readonly nextKey: SortKey | null;
}

export interface PageRequest {
  readonly limit: number;
  readonly offset: number;
  /** The sort key of the last row of the previous page, when a cursor was sent. */
  readonly after: SortKey | null;
}

/**
 * A list's order: its sort columns, the last one unique (the id), all in one
 * direction. The cursor carries the last row's values of these columns.
 */
export interface Ordering {
  readonly columns: readonly string[];
  readonly direction: 'asc' | 'desc';
}

/** `newest first`: the usual order of a list, by creation time then id. */
export const NEWEST_FIRST: Ordering = { columns: ['created_at', 'id'], direction: 'desc' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any table, any selection
type AnySelect<O> = SelectQueryBuilder<DB, any, O>;

/** Rows after `after` in the list's order: `(a, b) < (x, y)` newest first, `>` oldest first. */
export function keysetAfter(ordering: Ordering, after: SortKey): Expression<SqlBool> {
  const op = ordering.direction === 'desc' ? '<' : '>';
  return sql<SqlBool>`(${sql.join(ordering.columns.map((c) => sql.ref(c)))}) ${sql.raw(op)} (${sql.join(
    after.map((v) => sql.val(v)),
  )})`;
}

function ordered<O>(query: AnySelect<O>, ordering: Ordering): AnySelect<O> {
  let out = query;
  for (const column of ordering.columns) out = out.orderBy(sql.ref(column), ordering.direction);
  return out;
}

/** The value of a sort column in a row (a qualified column `t.x` is read as `x`). */
function keyOf(row: object, ordering: Ordering): SortKey {
  const values = row as Record<string, unknown>;
  return ordering.columns.map((c) => (values[c.slice(c.lastIndexOf('.') + 1)] ?? null) as KeyValue);
}

/** Splits a `limit + 1` fetch into the page and the key the next page starts after. */
export function pageOf<R extends object>(
  rows: readonly R[],
  ordering: Ordering,
  limit: number,
): Page<R> {
  if (rows.length <= limit) return { items: [...rows], nextKey: null };
  const items = rows.slice(0, limit);
  return { items, nextKey: keyOf(items[items.length - 1]!, ordering) };
}

/**
 * One page of a filtered query: after the cursor's key when there is one, else
 * from `offset`; fetches `limit + 1` rows to know whether another page follows.
 */
export async function fetchPage<O extends object>(
  query: AnySelect<O>,
  ordering: Ordering,
  page: PageRequest,
): Promise<Page<O>> {
  const from = page.after === null ? query : query.where(keysetAfter(ordering, page.after));
  const rows = await ordered(from, ordering)
    .limit(page.limit + 1)
    .offset(page.after === null ? page.offset : 0)
    .execute();
  return pageOf(rows, ordering, page.limit);
}

type PageParams = { limit: number; offset: number } & Record<`key${number}`, KeyValue>;

/**
 * `fetchPage` for a list of fixed shape on a hot path: the first page and the
 * pages after a cursor are each compiled once (see `preparedQuery`); `build`
 * gives the filtered query and may use its parameters only as values.
 */
export function preparedPage<P extends object, O extends object>(
  build: (db: Db, params: P) => AnySelect<O>,
  ordering: Ordering,
) {
  const keys = ordering.columns.map((_, i) => `key${i}` as const);
  const first = preparedQuery((db, p: P & PageParams) =>
    ordered(build(db, p), ordering).limit(p.limit).offset(p.offset),
  );
  const after = preparedQuery((db, p: P & PageParams) =>
    ordered(
      build(db, p).where(
        keysetAfter(
          ordering,
          keys.map((k) => p[k] ?? null),
        ),
      ),
      ordering,
    ).limit(p.limit),
  );
  return {
    async fetch(db: Db, params: P, page: PageRequest): Promise<Page<O>> {
      const limit = page.limit + 1;
      if (page.after === null) {
        const rows = await first.all(db, { ...params, limit, offset: page.offset });
        return pageOf(rows, ordering, page.limit);
      }
      const bound: Record<string, KeyValue> = { ...params, limit, offset: 0 };
      keys.forEach((k, i) => (bound[k] = page.after![i] ?? null));
      const rows = await after.all(db, bound as P & PageParams);
      return pageOf(rows, ordering, page.limit);
    },
  };
}
