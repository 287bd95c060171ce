import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * An SOP run may be done for an explant as well as for a plant (the console starts
 * runs from either record): `explant_id`, and the index of the runs of one explant.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sop_runs').addColumn('explant_id', 'text').execute();
  await db.schema
    .createIndex('sop_runs_workspace_explant_created')
    .on('sop_runs')
    .columns(['workspace_id', 'explant_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('sop_runs_workspace_explant_created').execute();
  await db.schema.alterTable('sop_runs').dropColumn('explant_id').execute();
}
