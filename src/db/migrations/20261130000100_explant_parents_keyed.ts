import { PostgresAdapter, sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * The family edges keep one index fewer. On SQLite the table is stored by its key,
 * (workspace, child, parent), which is how a child's parents are found: the table and
 * its key were two structures besides the child index, now they are one, and a new
 * edge writes two instead of four. On PostgreSQL the key (child, parent) finds a child's
 * parents already, and the child index is dropped. The parent index stays: it finds a
 * parent's children.
 */
const COLUMNS = [
  'workspace_id',
  'parent_id',
  'child_id',
  'kind',
  'transfer_id',
  'occurred_at',
  'recorded_by',
  'room_id',
  'media_batch_id',
  'created_at',
] as const;

async function rebuildSqlite(db: Kysely<any>, keyedByWorkspace: boolean): Promise<void> {
  const table = db.schema
    .createTable('explant_parents_rebuilt')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('parent_id', 'text', (c) => c.notNull().references('explants.id'))
    .addColumn('child_id', 'text', (c) => c.notNull().references('explants.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('transfer_id', 'text', (c) => c.references('transfers.id'))
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('recorded_by', 'text', (c) => c.references('members.id'))
    .addColumn('room_id', 'text', (c) => c.references('rooms.id'))
    .addColumn('media_batch_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull());
  await (
    keyedByWorkspace
      ? table
          .addPrimaryKeyConstraint('explant_parents_pkey', [
            'workspace_id',
            'child_id',
            'parent_id',
          ])
          .modifyEnd(sql`without rowid`)
      : table.addPrimaryKeyConstraint('explant_parents_pkey', ['child_id', 'parent_id'])
  ).execute();
  await db
    .insertInto('explant_parents_rebuilt')
    .columns([...COLUMNS])
    .expression(db.selectFrom('explant_parents').select([...COLUMNS]))
    .execute();
  await db.schema.dropTable('explant_parents').execute();
  await db.schema.alterTable('explant_parents_rebuilt').renameTo('explant_parents').execute();
  await db.schema
    .createIndex('explant_parents_parent')
    .on('explant_parents')
    .columns(['workspace_id', 'parent_id', 'child_id'])
    .execute();
}

const childIndex = (db: Kysely<any>) =>
  db.schema
    .createIndex('explant_parents_child')
    .on('explant_parents')
    .columns(['workspace_id', 'child_id', 'parent_id']);

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await db.schema.dropIndex('explant_parents_child').execute();
    return;
  }
  await rebuildSqlite(db, true);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await childIndex(db).execute();
    return;
  }
  await rebuildSqlite(db, false);
  await childIndex(db).execute();
}
