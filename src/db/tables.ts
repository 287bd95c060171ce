import type { Kysely } from 'kysely';
import { isPostgres, type Db, type Trx } from './database.js';
import { diffFields, type FieldChanges } from '../lib/changes.js';
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
 * and "which of these ids does another workspace hold" (an import never takes over
 * another workspace's id). Reads and inserts are compiled once (`preparedQuery`).
 */
export interface WorkspaceTable<T extends WorkspaceTableName> {
  readonly table: T;
  find: (db: Db, workspaceId: string, id: string) => Promise<DB[T] | undefined>;
  /** `find`, holding the row until the transaction ends (PostgreSQL; SQLite has one writer). */
  lock: (trx: Trx, workspaceId: string, id: string) => Promise<DB[T] | undefined>;
  insert: (trx: Trx, row: DB[T]) => Promise<void>;
  update: (trx: Trx, workspaceId: string, id: string, changes: Partial<DB[T]>) => Promise<void>;
  idsHeldElsewhere: (db: Db, workspaceId: string, ids: readonly string[]) => Promise<Set<string>>;
  /**
   * Upserts by id (imports): inserts `insert()` when the row is new, else writes
   * the `fields` that differ plus what `onChange` adds; an equal row is left
   * untouched. Says which happened.
   */
  save: <K extends keyof DB[T] & string>(
    trx: Trx,
    workspaceId: string,
    id: string,
    fields: Pick<DB[T], K>,
    how: {
      insert: () => DB[T];
      onChange?: (existing: DB[T], changes: FieldChanges) => Partial<DB[T]>;
    },
  ) => Promise<'inserted' | 'updated' | 'unchanged'>;
  /** Every row's id and these columns, for the workspace (imports match records on them). */
  identities: <K extends keyof DB[T] & string>(
    db: Db,
    workspaceId: string,
    columns: readonly K[],
  ) => Promise<(Pick<DB[T], K> & { id: string })[]>;
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
    idsHeldElsewhere: async (db, workspaceId, ids) => {
      if (ids.length === 0) return new Set();
      const rows = await loose(db)
        .selectFrom(name)
        .select(['id', 'workspace_id'])
        .where('id', 'in', ids)
        .where('workspace_id', '!=', workspaceId)
        .execute();
      return new Set(rows.map((row: { id: string }) => row.id));
    },
    save: async (trx, workspaceId, id, fields, how) => {
      const existing = await gateway.find(trx, workspaceId, id);
      if (existing === undefined) {
        await gateway.insert(trx, how.insert());
        return 'inserted';
      }
      const changes = diffFields(
        existing,
        fields,
        Object.keys(fields) as (keyof typeof fields & string)[],
      );
      if (Object.keys(changes).length === 0) return 'unchanged';
      await gateway.update(trx, workspaceId, id, {
        ...(fields as Partial<DB[T]>),
        ...how.onChange?.(existing, changes),
      });
      return 'updated';
    },
    identities: async (db, workspaceId, keyColumns) =>
      (await loose(db)
        .selectFrom(name)
        .select(['id', ...keyColumns] as (keyof AnyRow)[])
        .where('workspace_id', '=', workspaceId)
        .orderBy('id')
        .execute()) as never,
    newest: async (db, workspaceId, page) =>
      (await newestRows.fetch(db, { workspaceId }, page)) as Page<DB[T]>,
  };
  return gateway;
}
