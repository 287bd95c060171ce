import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * A lab may refuse to complete an SOP run whose steps are not all worked (off by
 * default: the spec's `complete` ends the run whatever its steps hold).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('workspaces')
    .addColumn('sop_runs_require_all_steps', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('workspaces').dropColumn('sop_runs_require_all_steps').execute();
}
