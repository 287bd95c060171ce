import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sop_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('sop_id', 'text', (c) => c.notNull().references('sops.id'))
    .addColumn('sop_version_id', 'text', (c) => c.notNull().references('sop_versions.id'))
    .addColumn('version', 'integer', (c) => c.notNull())
    // The step ids of the pinned version when the run started (JSON array), in order.
    .addColumn('step_ids', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('batch_code', 'text')
    .addColumn('plant_id', 'text', (c) => c.references('plants.id'))
    .addColumn('notes', 'text')
    .addColumn('started_by', 'text', (c) => c.references('members.id'))
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    // The last evidence sequence number given out on this run.
    .addColumn('event_seq', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sop_step_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
    .addColumn('run_id', 'text', (c) => c.notNull().references('sop_runs.id'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('step_key', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('recorded_at', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('recorded_by', 'text', (c) => c.references('members.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    // The trail's order, oldest first; one sequence number per run, never twice.
    .addUniqueConstraint('sop_step_events_run_seq', ['run_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('sop_step_events_run_step')
    .on('sop_step_events')
    .columns(['run_id', 'step_key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['sop_step_events', 'sop_runs']) {
    await db.schema.dropTable(table).execute();
  }
}
