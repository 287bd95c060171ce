import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * What the insights read instead of every record of a period: the handlings of
 * explants kept one row each (`insight_handlings`), their figures added up per UTC day
 * and group (`insight_daily`), and the explants whose records changed since
 * (`insight_dirty`), made anew by the insights' drain. Every explant there is starts
 * marked, so the drain fills the tables from the records already there.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('insight_dirty')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('explant_id', 'text', (c) => c.notNull())
    .execute();
  // A mark per write, never one shared row: a write's mark never waits for a drain
  // that holds another's (see the insights' dirty.ts).
  await db.schema
    .createIndex('insight_dirty_explant')
    .on('insight_dirty')
    .columns(['workspace_id', 'explant_id'])
    .execute();
  await db.schema
    .createTable('insight_handlings')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('explant_id', 'text', (c) => c.notNull())
    .addColumn('plant_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('handled_at', 'text', (c) => c.notNull())
    .addColumn('operator_id', 'text')
    .addColumn('location', 'text')
    .addColumn('media_batch_id', 'text')
    .addColumn('room_id', 'text')
    .addColumn('stage', 'text')
    .addColumn('before_count', 'integer')
    .addColumn('after_count', 'integer')
    .addColumn('plantlet_count', 'integer')
    .addColumn('cycle_days', 'double precision')
    .addColumn('next_at', 'text')
    .addColumn('contamination_id', 'text')
    .addColumn('contamination_at', 'text')
    .addColumn('contaminated_days', 'integer')
    .addPrimaryKeyConstraint('insight_handlings_pk', ['workspace_id', 'key'])
    .execute();
  // Not (…, handled_at, key): SQLite would then walk it for one member's newest
  // handlings rather than take insight_handlings_operator, which orders them too.
  await db.schema
    .createIndex('insight_handlings_time')
    .on('insight_handlings')
    .columns(['workspace_id', 'handled_at'])
    .execute();
  await db.schema
    .createIndex('insight_handlings_explant')
    .on('insight_handlings')
    .columns(['workspace_id', 'explant_id'])
    .execute();
  await db.schema
    .createIndex('insight_handlings_operator')
    .on('insight_handlings')
    .columns(['workspace_id', 'operator_id', 'handled_at', 'key'])
    .execute();
  await db.schema
    .createTable('insight_daily')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('dimension', 'text', (c) => c.notNull())
    .addColumn('group_key', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('contaminated_days', 'integer', (c) => c.notNull())
    .addColumn('exposures', 'integer', (c) => c.notNull())
    .addColumn('rated', 'integer', (c) => c.notNull())
    .addColumn('ln_rate_sum', 'double precision', (c) => c.notNull())
    .addColumn('cycle_days_sum', 'double precision', (c) => c.notNull())
    .addColumn('rated_4w', 'integer', (c) => c.notNull())
    .addColumn('ln_rate_4w_sum', 'double precision', (c) => c.notNull())
    .addColumn('ln_rate_4w_squares', 'double precision', (c) => c.notNull())
    .addColumn('yielded', 'integer', (c) => c.notNull())
    .addColumn('plantlets_per_vessel_sum', 'double precision', (c) => c.notNull())
    .addPrimaryKeyConstraint('insight_daily_pk', [
      'workspace_id',
      'dimension',
      'group_key',
      'day',
      'contaminated_days',
    ])
    .execute();
  await sql`insert into insight_dirty (workspace_id, explant_id)
    select workspace_id, id from explants where deleted_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('insight_daily').execute();
  await db.schema.dropTable('insight_handlings').execute();
  await db.schema.dropTable('insight_dirty').execute();
}
