import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * The indexes of columns most explants and transfers leave empty (an external id, a
 * batch number, a plant, a medium batch) hold only the rows that have one. Every
 * lookup through them names a value, which no empty row matches, so each still
 * answers the same; a new explant without them writes four index entries fewer (a
 * split's daughter, an import's rows), and a transfer without a batch one fewer.
 */
const SPARSE: readonly { table: string; name: string; columns: string[]; unique?: true }[] = [
  {
    table: 'explants',
    name: 'explants_external_id',
    columns: ['workspace_id', 'external_id_key'],
    unique: true,
  },
  {
    table: 'explants',
    name: 'explants_batch_number',
    columns: ['workspace_id', 'batch_number_key'],
  },
  { table: 'explants', name: 'explants_plant', columns: ['plant_id'] },
  { table: 'explants', name: 'explants_media_batch', columns: ['workspace_id', 'media_batch_id'] },
  {
    table: 'transfers',
    name: 'transfers_media_batch',
    columns: ['workspace_id', 'media_batch_id'],
  },
];

async function rebuild(db: Kysely<any>, sparse: boolean): Promise<void> {
  for (const index of SPARSE) {
    await db.schema.dropIndex(index.name).execute();
    let create = db.schema.createIndex(index.name).on(index.table).columns(index.columns);
    if (index.unique) create = create.unique();
    if (sparse) create = create.where(sql.ref(index.columns.at(-1)!), 'is not', null);
    await create.execute();
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await rebuild(db, true);
}

export async function down(db: Kysely<any>): Promise<void> {
  await rebuild(db, false);
}
