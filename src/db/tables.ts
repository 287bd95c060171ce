import type { Kysely } from 'kysely';
import { isPostgres, type Db, type Trx } from './database.js';
import { NEWEST_FIRST, type Page, type PageRequest, preparedPage } from './pages.js';
import { pick, preparedQuery } from './prepared.js';
import type { DB } from './schema.js';

/** Tables whose rows belong to one workspace and are named by a text id. */
export type WorkspaceTableName = {
  [T in keyof DB]: DB[T] extends { id: string; workspace_id: string } ? T : never;
}[keyof DB];

/**
 * The untyped view the gateway builds its queries on. Kysely cannot check a query
 * whose table is a type parameter; the gateway's own signatures carry the row type.
 */
type AnyRow = { id: string; workspace_id: string; deleted_at?: string | null };
type Loose = Kysely<Record<string, AnyRow>>;
const loose = (db: Db) => db as unknown as Loose;

export interface TableOptions {
  /** Rows with `deleted_at` set are invisible to `find` and `lock`. */
  readonly softDelete?: boolean;
}

/**
 * What every workspace-owned table needs and each repository used to write again:
 * find by id within a workspace (and lock it for a write), insert, update by id,
 * and the newest rows. Reads and inserts are compiled once (`preparedQuery`). What
 * only an import needs (upserts, natural keys, ids of other workspaces) is in
 * modules/import/upsert.ts.
 */
export interface WorkspaceTable<T extends WorkspaceTableName> {
  readonly table: T;
  find: (db: Db, workspaceId: string, id: string) => Promise<DB[T] | undefined>;
  /** `find`, holding the row until the transaction ends (PostgreSQL; SQLite has one writer). */
  lock: (trx: Trx, workspaceId: string, id: string) => Promise<DB[T] | undefined>;
  /** The rows of some ids (`find` of each, in one query), in no particular order. */
  findMany: (db: Db, workspaceId: string, ids: readonly string[]) => Promise<DB[T][]>;
  insert: (trx: Trx, row: DB[T]) => Promise<void>;
  update: (trx: Trx, workspaceId: string, id: string, changes: Partial<DB[T]>) => Promise<void>;
  /** A page of the workspace's rows, newest first (`created_at`, then id). */
  newest: (db: Db, workspaceId: string, page: PageRequest) => Promise<Page<DB[T]>>;
}

export function workspaceTable<T extends WorkspaceTableName>(
  table: T,
  columns: readonly (keyof DB[T] & string)[],
  options: TableOptions = {},
): WorkspaceTable<T> {
  const name: string = table;
  const visible = (db: Db, workspaceId: string) => {
    const query = loose(db)
      .selectFrom(name)
      .select(columns as readonly string[] as (keyof AnyRow)[])
      .where('workspace_id', '=', workspaceId);
    return options.softDelete ? query.where('deleted_at', 'is', null) : query;
  };
  const byId = (forUpdate: boolean) =>
    preparedQuery((db, p: { workspaceId: string; id: string }) => {
      const query = visible(db, p.workspaceId).where('id', '=', p.id);
      return forUpdate && isPostgres(db) ? query.forNoKeyUpdate() : query;
    });
  const newestRows = preparedPage(
    (db, p: { workspaceId: string }) => visible(db, p.workspaceId) as never,
    NEWEST_FIRST,
  );
  const findRow = byId(false);
  const lockRow = byId(true);
  const insertRow = preparedQuery((db, p: AnyRow) =>
    loose(db)
      .insertInto(name)
      .values(pick(p, columns as readonly string[] as (keyof AnyRow)[]) as AnyRow),
  );

  const gateway: WorkspaceTable<T> = {
    table,
    find: async (db, workspaceId, id) =>
      (await findRow.first(db, { workspaceId, id })) as DB[T] | undefined,
    lock: async (trx, workspaceId, id) =>
      (await lockRow.first(trx, { workspaceId, id })) as DB[T] | undefined,
    findMany: async (db, workspaceId, ids) =>
      ids.length === 0
        ? []
        : ((await visible(db, workspaceId)
            .where('id', 'in', [...new Set(ids)])
            .execute()) as DB[T][]),
    insert: async (trx, row) => {
      await insertRow.run(trx, row);
    },
    update: async (trx, workspaceId, id, changes) => {
      await loose(trx)
        .updateTable(name)
        .set(changes as Partial<AnyRow>)
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .execute();
    },
    newest: async (db, workspaceId, page) =>
      (await newestRows.fetch(db, { workspaceId }, page)) as Page<DB[T]>,
  };
  return gateway;
}
