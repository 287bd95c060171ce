import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { inTransaction } from '../../src/db/transaction.js';
import { addMember, createWorkspace } from '../../src/modules/identity/index.js';
import { drainAll } from '../../src/modules/insights/index.js';
import { databaseAt } from '../support/migration-db.js';

const BEFORE = '20261129000100_search_pending';

/** Explants and transfers as a lab holds them before the upgrade (one explant deleted). */
async function seedLab(database: Database) {
  return inTransaction(database.db, async (trx) => {
    const ws = (await createWorkspace(trx, { name: 'Before', plan: 'teams' })).id;
    const member = (await addMember(trx, { workspaceId: ws, name: 'Ann', role: 'owner' })).id;
    const at = (day: number) => new Date(Date.UTC(2026, 9, day, 9)).toISOString();
    const explants = [0, 1, 2].map((i) => ({
      id: randomUUID(),
      workspace_id: ws,
      plant_id: null,
      label: `B-${i}`,
      label_key: `b-${i}`,
      batch_number: null,
      batch_number_key: null,
      notes: null,
      status: 'active',
      external_id: null,
      external_id_key: null,
      initial_count: 4,
      current_count: 4,
      plantlet_count: null,
      custom_fields: '{}',
      created_by: member,
      created_at: at(1 + i),
      updated_at: at(1 + i),
      deleted_at: i === 2 ? at(3) : null,
      current_stage_id: null,
      current_stage: null,
      current_stage_name: null,
      current_stage_entered_on: null,
      current_room_id: null,
      archived_at: null,
      archived_by: null,
      search_text: `b-${i}`,
      subcultured_at: at(1),
      parent_explant_ids: '[]',
    }));
    await trx.insertInto('explants').values(explants).execute();
    await trx
      .insertInto('transfers')
      .values(
        [explants[0]!, explants[0]!, explants[1]!].map((x, n) => ({
          id: randomUUID(),
          workspace_id: ws,
          entity_type: 'explant',
          entity_id: x.id,
          transfer_date: at(10 + n * 14),
          transfer_cycle: n + 1,
          from_location: 'Hood 1',
          to_location: null,
          status: 'completed',
          notes: null,
          vessel_count: 8 * (n + 1),
          plantlet_count: null,
          custom_fields: '{}',
          created_by: member,
          created_at: at(10 + n * 14),
        })),
      )
      .execute();
    return { ws, kept: explants.slice(0, 2).map((x) => x.id) };
  });
}

describe.each(['sqlite', 'postgres'] as const)('The kept insights migration on %s', (name) => {
  it('marks every explant not deleted, and the drain fills the kept handlings from the records', async () => {
    const before = await databaseAt(name, BEFORE);
    try {
      const { ws, kept } = await seedLab(before.database);
      await before.migrateToLatest();
      const db = before.database.db;
      const marked = await db
        .selectFrom('insight_dirty')
        .select('explant_id')
        .where('workspace_id', '=', ws)
        .orderBy('explant_id')
        .execute();
      expect(marked.map((row) => row.explant_id)).toEqual([...kept].sort());
      expect(await db.selectFrom('insight_handlings').selectAll().execute()).toEqual([]);

      expect(await drainAll(db)).toEqual({ explants: 2, appended: 0 });
      expect(await db.selectFrom('insight_dirty').selectAll().execute()).toEqual([]);
      const handlings = await db
        .selectFrom('insight_handlings')
        .select(['explant_id', 'kind', 'before_count', 'after_count'])
        .where('workspace_id', '=', ws)
        .orderBy('handled_at')
        .execute();
      // Two makings, then explant 0's transfers (4 → 8 → 16 ... its second from 8), explant 1's.
      expect(handlings).toEqual([
        { explant_id: kept[0], kind: 'initiation', before_count: null, after_count: 4 },
        { explant_id: kept[1], kind: 'initiation', before_count: null, after_count: 4 },
        { explant_id: kept[0], kind: 'transfer', before_count: 4, after_count: 8 },
        { explant_id: kept[0], kind: 'transfer', before_count: 8, after_count: 16 },
        { explant_id: kept[1], kind: 'transfer', before_count: 4, after_count: 24 },
      ]);
      const operatorDays = await db
        .selectFrom('insight_daily')
        .select(['exposures', 'rated'])
        .where('workspace_id', '=', ws)
        .where('dimension', '=', 'operator')
        .execute();
      const sum = (field: 'exposures' | 'rated') =>
        operatorDays.reduce((total, row) => total + Number(row[field]), 0);
      expect([sum('exposures'), sum('rated')]).toEqual([5, 3]);
    } finally {
      await before.close();
    }
  });
});
