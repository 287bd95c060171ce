import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * What the console's screens ask of plants and explants, on the records themselves
 * so that a filtered page is one index range:
 * - the current stage (id, key, display name, when entered, its room), kept by
 *   every stage move, so lists filter by stage and room without a join;
 * - archiving (`archived_at`, `archived_by`): gone from lists unless asked for;
 * - `search_text`: the names a search matches, lower-cased once when written;
 * - explants' `subcultured_at`: when the culture last went onto fresh medium (its
 *   latest completed transfer, else its creation), for "due for transfer";
 * - the lab's subculture interval (workspaces), contamination resolutions, and the
 *   indexes of the new lists and filters (SOP runs, a record's activity).
 */
const RECORD_COLUMNS = [
  'current_stage_id',
  'current_stage',
  'current_stage_name',
  'current_stage_entered_on',
  'current_room_id',
  'archived_at',
  'archived_by',
  'search_text',
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['plants', 'explants']) {
    // SQLite adds one column per ALTER TABLE statement.
    for (const column of RECORD_COLUMNS) {
      await db.schema.alterTable(table).addColumn(column, 'text').execute();
    }
    for (const [name, column] of [
      ['stage', 'current_stage'],
      ['room', 'current_room_id'],
      ['status', 'status'],
    ] as const) {
      await db.schema
        .createIndex(`${table}_workspace_${name}_created`)
        .on(table)
        .columns(['workspace_id', column, 'created_at', 'id'])
        .execute();
    }
  }
  await db.schema.alterTable('explants').addColumn('subcultured_at', 'text').execute();
  await db.schema
    .createIndex('explants_workspace_subcultured')
    .on('explants')
    .columns(['workspace_id', 'subcultured_at', 'id'])
    .execute();

  await db.schema
    .alterTable('workspaces')
    .addColumn('subculture_interval_days', 'integer', (c) => c.notNull().defaultTo(28))
    .execute();

  for (const column of ['resolution_outcome', 'resolution_notes', 'resolved_by']) {
    await db.schema.alterTable('contaminations').addColumn(column, 'text').execute();
  }

  for (const [name, columns] of [
    ['sop_runs_workspace_created', ['workspace_id', 'created_at', 'id']],
    ['sop_runs_workspace_status_created', ['workspace_id', 'status', 'created_at', 'id']],
    ['sop_runs_workspace_sop_created', ['workspace_id', 'sop_id', 'created_at', 'id']],
    ['sop_runs_workspace_plant_created', ['workspace_id', 'plant_id', 'created_at', 'id']],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on('sop_runs')
      .columns([...columns])
      .execute();
  }
  // One record's activity, newest first.
  await db.schema
    .createIndex('events_entity_id_seq')
    .on('events')
    .columns(['workspace_id', 'entity_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('members_workspace_name')
    .on('members')
    .columns(['workspace_id', 'name', 'id'])
    .execute();

  await backfillCurrentStages(db);
  await backfillSearchText(db);
  await backfillSubculturedAt(db);
}

/** Each record's active stage (at most one, by a unique index), with its name in the lab's list. */
async function backfillCurrentStages(db: Kysely<any>): Promise<void> {
  for (const [table, entity] of [
    ['plants', 'plant'],
    ['explants', 'explant'],
  ] as const) {
    const active = (column: string) =>
      sql`(select s.${sql.ref(column)} from stages s where s.entity_type = ${entity}
        and s.entity_id = ${sql.table(table)}.id and s.status = 'active')`;
    await db
      .updateTable(table)
      .set({
        current_stage_id: active('id'),
        current_stage: active('stage'),
        current_stage_entered_on: active('entered_on'),
        current_room_id: active('room_id'),
      })
      .execute();
    await db
      .updateTable(table)
      .set({
        current_stage_name: sql`(select d.name from stage_definitions d
          where d.workspace_id = ${sql.table(table)}.workspace_id and d.entity_type = ${entity}
          and d.key = ${sql.table(table)}.current_stage)`,
      })
      .where('current_stage', 'is not', null)
      .execute();
  }
}

const BATCH = 500;

/** The names a search matches, lower-cased (as the code of this migration's time writes them). */
function searchText(values: readonly (string | null)[]): string {
  return values
    .filter((value): value is string => value !== null && value !== '')
    .join('\n')
    .toLowerCase();
}

/** In JavaScript, not SQL: SQLite's lower() folds ASCII only, and the code folds all of Unicode. */
async function backfillSearchText(db: Kysely<any>): Promise<void> {
  const sources = {
    plants: ['species', 'common_name', 'genus', 'family', 'cultivar', 'external_id'],
    explants: ['label', 'batch_number', 'external_id'],
  };
  for (const [table, columns] of Object.entries(sources)) {
    let after = '';
    for (;;) {
      const rows = (await db
        .selectFrom(table)
        .select(['id', ...columns])
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .execute()) as Record<string, string | null>[];
      if (rows.length === 0) break;
      for (const row of rows) {
        await db
          .updateTable(table)
          .set({ search_text: searchText(columns.map((c) => row[c] ?? null)) })
          .where('id', '=', row.id)
          .execute();
      }
      after = rows[rows.length - 1]!.id!;
    }
  }
}

/** The latest completed transfer of each explant, else its creation. */
async function backfillSubculturedAt(db: Kysely<any>): Promise<void> {
  await db
    .updateTable('explants')
    .set({
      subcultured_at: sql`coalesce((select max(t.transfer_date) from transfers t
        where t.workspace_id = explants.workspace_id and t.entity_type = 'explant'
        and t.entity_id = explants.id and t.status in ('completed', 'active')), explants.created_at)`,
    })
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    'members_workspace_name',
    'events_entity_id_seq',
    'sop_runs_workspace_plant_created',
    'sop_runs_workspace_sop_created',
    'sop_runs_workspace_status_created',
    'sop_runs_workspace_created',
    'explants_workspace_subcultured',
  ]) {
    await db.schema.dropIndex(name).execute();
  }
  for (const table of ['plants', 'explants']) {
    for (const name of ['stage', 'room', 'status']) {
      await db.schema.dropIndex(`${table}_workspace_${name}_created`).execute();
    }
  }
  const added: Record<string, string[]> = {
    plants: [...RECORD_COLUMNS],
    explants: [...RECORD_COLUMNS, 'subcultured_at'],
    workspaces: ['subculture_interval_days'],
    contaminations: ['resolution_outcome', 'resolution_notes', 'resolved_by'],
  };
  for (const [table, columns] of Object.entries(added)) {
    for (const column of columns) await db.schema.alterTable(table).dropColumn(column).execute();
  }
}
