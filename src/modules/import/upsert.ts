import type { Kysely } from 'kysely';
import type { Db, Trx } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import type { WorkspaceTable, WorkspaceTableName } from '../../db/tables.js';
import { diffFields, type FieldChanges } from '../../lib/changes.js';

/*
 * How an import writes a record through its module's table gateway: by id, an
 * insert when it is new, else only what changed. Only the import writes this way
 * (records the API creates never take an id from outside), so these rules live
 * here, not in the gateway.
 */

/** The untyped view for a query whose table is a type parameter (see db/tables.ts). */
type Loose = Kysely<Record<string, { id: string; workspace_id: string }>>;
const loose = (db: Db) => db as unknown as Loose;

/**
 * Upserts by id: inserts `insert()` when the row is new, else writes the `fields`
 * that differ plus what `onChange` adds; an equal row is left untouched. Says which
 * happened.
 */
export async function upsert<T extends WorkspaceTableName, K extends keyof DB[T] & string>(
  table: WorkspaceTable<T>,
  trx: Trx,
  workspaceId: string,
  id: string,
  fields: Pick<DB[T], K>,
  how: {
    insert: () => DB[T];
    onChange?: (existing: DB[T], changes: FieldChanges) => Partial<DB[T]>;
  },
): Promise<'inserted' | 'updated' | 'unchanged'> {
  const existing = await table.find(trx, workspaceId, id);
  if (existing === undefined) {
    await table.insert(trx, how.insert());
    return 'inserted';
  }
  const changes = diffFields(existing, fields, Object.keys(fields) as K[]);
  if (Object.keys(changes).length === 0) return 'unchanged';
  await table.update(trx, workspaceId, id, {
    ...(fields as Partial<DB[T]>),
    ...how.onChange?.(existing, changes),
  });
  return 'updated';
}

/** Every row's id and these columns, for the workspace (imports match records on them). */
export async function identitiesOf<T extends WorkspaceTableName, K extends keyof DB[T] & string>(
  table: WorkspaceTable<T>,
  db: Db,
  workspaceId: string,
  columns: readonly K[],
): Promise<(Pick<DB[T], K> & { id: string })[]> {
  const name: string = table.table;
  return (await loose(db)
    .selectFrom(name)
    .select(['id', ...columns] as 'id'[])
    .where('workspace_id', '=', workspaceId)
    .orderBy('id')
    .execute()) as never;
}

/** The ids among `ids` that a row of another workspace holds (an import never takes one over). */
export async function idsHeldElsewhere<T extends WorkspaceTableName>(
  table: WorkspaceTable<T>,
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const name: string = table.table;
  const rows = await loose(db)
    .selectFrom(name)
    .select(['id', 'workspace_id'])
    .where('id', 'in', ids)
    .where('workspace_id', '!=', workspaceId)
    .execute();
  return new Set(rows.map((row) => row.id));
}
