import { PostgresAdapter, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * On SQLite, the newest-first index of plants and explants also holds what a list
 * filters on without an index of its own (the search text, archived, deleted): a
 * search that matches few records reads the index alone instead of every row
 * (measured on 100,000 plants: a search matching none, 250 ms before, 80 ms after,
 * on a busy machine). It replaces the index it extends, so the planner takes it.
 *
 * Not on PostgreSQL: a b-tree entry there may not pass about 2,700 bytes, which a
 * long search text could, and its sequential scan of the rows is the plan it takes
 * for such a search anyway.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const table of ['plants', 'explants']) {
    await db.schema
      .createIndex(`${table}_workspace_created_search`)
      .on(table)
      .columns(['workspace_id', 'created_at', 'id', 'search_text', 'archived_at', 'deleted_at'])
      .execute();
    await db.schema.dropIndex(`${table}_workspace_created`).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const table of ['plants', 'explants']) {
    await db.schema
      .createIndex(`${table}_workspace_created`)
      .on(table)
      .columns(['workspace_id', 'created_at', 'id'])
      .execute();
    await db.schema.dropIndex(`${table}_workspace_created_search`).execute();
  }
}
