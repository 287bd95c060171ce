import { sql, type RawBuilder } from 'kysely';
import { expect, it } from 'vitest';
import { isPostgres, type Db } from '../../src/db/database.js';
import { inTransaction } from '../../src/db/transaction.js';
import { dataOf, newExplant } from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

/**
 * The plan the database makes for `query`, as text. PostgreSQL is told to avoid whole
 * table scans, as it would on a lab's full tables: a test lab is small enough that
 * scanning it is cheapest, which says nothing of whether the index can answer.
 */
async function planOf(db: Db, query: RawBuilder<unknown>): Promise<string> {
  if (!isPostgres(db)) {
    const { rows } = await sql<{ detail: string }>`explain query plan ${query}`.execute(db);
    return rows.map((row) => row.detail).join('\n');
  }
  return inTransaction(db, async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const { rows } = await sql<Record<string, string>>`explain ${query}`.execute(trx);
    return rows.map((row) => Object.values(row).join(' ')).join('\n');
  });
}

describeOnDatabases('Indexes of columns most rows leave empty', (target) => {
  const { t, lab, owner } = labSuite(target);

  it('hold only the rows with a value, and still answer every lookup by one', async () => {
    const db = t.database.db;
    const w = lab.workspaceId;
    const lookups: [string, RawBuilder<unknown>][] = [
      [
        'explants_external_id',
        sql`select id from explants where workspace_id = ${w} and external_id_key = ${'ext-1'}`,
      ],
      [
        'explants_external_id',
        sql`select id from explants where workspace_id = ${w} and external_id_key in (${'a'}, ${'b'})`,
      ],
      [
        'explants_batch_number',
        sql`select id from explants where workspace_id = ${w} and batch_number_key = ${'b-1'}`,
      ],
      ['explants_plant', sql`select id from explants where plant_id = ${'p'}`],
      [
        'explants_media_batch',
        sql`select id from explants where workspace_id = ${w} and media_batch_id = ${'m'}`,
      ],
      [
        'transfers_media_batch',
        sql`select id from transfers where workspace_id = ${w} and media_batch_id = ${'m'}`,
      ],
    ];
    for (const [index, query] of lookups) {
      expect(await planOf(db, query), index).toContain(index);
    }
    const definitions = isPostgres(db)
      ? (
          await sql<{ name: string; definition: string }>`
            select indexname as name, indexdef as definition from pg_indexes
            where indexname in ('explants_external_id', 'explants_batch_number', 'explants_plant',
              'explants_media_batch', 'transfers_media_batch')`.execute(db)
        ).rows
      : (
          await sql<{ name: string; definition: string }>`
            select name, sql as definition from sqlite_master
            where name in ('explants_external_id', 'explants_batch_number', 'explants_plant',
              'explants_media_batch', 'transfers_media_batch')`.execute(db)
        ).rows;
    expect(definitions).toHaveLength(5);
    for (const { name, definition } of definitions) {
      expect(definition, name).toMatch(/ where \(?"?\w+"? is not null\)?$/i);
    }
  });

  it("a child's parents are found by the family's key", async () => {
    // A lab's family, counted: PostgreSQL plans by what it knows of the table, and on an
    // empty one any index answers as cheaply.
    const parent = await newExplant(owner, { label: 'K', initial_count: 300 });
    const daughters: { id: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await owner.post(`/api/v1/explants/${parent.id}/split`, {
        daughters: Array.from({ length: 100 }, () => ({ vessel_count: 1 })),
      });
      daughters.push(...dataOf(answer, 201).daughters);
    }
    const db = t.database.db;
    if (isPostgres(db)) await sql`analyze explant_parents`.execute(db);
    const query = sql`select * from explant_parents
      where workspace_id = ${lab.workspaceId} and child_id = ${daughters[150]!.id}`;
    expect(await planOf(db, query)).toMatch(
      isPostgres(db) ? /explant_parents_pkey/ : /USING PRIMARY KEY/,
    );
  });
});
