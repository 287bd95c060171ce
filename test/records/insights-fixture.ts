import type { Database } from '../../src/db/database.js';
import type { Lab } from '../support/harness.js';
import {
  addRoom,
  client,
  dataOf,
  newExplant,
  newPlant,
  type Client,
  type Json,
} from '../support/helpers.js';
import type { TestApp } from '../support/harness.js';

/*
 * A small lab whose insights docs/insights.md's definitions give by hand
 * (test/records/insights.test.ts holds the answers). Times are 2026, UTC:
 *
 * E1 (plant "Fiddle A", Ficus lyrata): made 01-05 09:00 by the owner, 10 vessels,
 *    Multiplication in "Hood room"; T1 01-19 by the owner from "Hood 1", 30 vessels and
 *    90 plantlets (rate 3, cycle 14); moved to Elongation (no room) 02-10; T2 02-16 by the member
 *    from "Hood 2", 60 vessels (rate 2, cycle 28); contaminations 01-25 (counts
 *    against T1) and 03-20 (32 days after T2: only with a window of 32 days or more).
 * E2 (Fiddle A): made 01-05 by the owner, 4 vessels, no transfer; contamination 01-10
 *    (counts against its making).
 * E3 (plant "Fiddle B", Ficus lyrata): made 01-05 09:00 by the owner, 5 vessels; T3 at
 *    that same instant from "Hood 1", 10 vessels (rate 2, a cycle of 0 days); T4 02-02
 *    from "Hood 1", 20 vessels and 100 plantlets (rate 2, cycle 28); contamination 02-10: after T3's next
 *    handling, so it counts against T4, not T3.
 * E4 (plant "Banana", Musa acuminata): made 01-05 by the member, 8 vessels; split 02-02
 *    by the member into D1 (3 vessels) and D2 (3), keeping 2 (rate (2+3+3)/8 = 1, cycle
 *    28); D1 contaminated 02-05 (counts against its making by the split).
 */

export const T = (date: string) => `2026-${date}:00.000Z`;

export interface InsightsLab {
  member: { memberId: string; client: Client };
  roomId: string;
  plants: { fiddleA: string; fiddleB: string; banana: string };
  explants: { e1: string; e2: string; e3: string; e4: string; d1: string; d2: string };
}

/** Dates a record's making as if it had been made at `at` (the API makes records now). */
async function backdate(database: Database, workspaceId: string, explantId: string, at: string) {
  const db = database.db;
  await db
    .updateTable('explants')
    .set({ created_at: at, current_stage_entered_on: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', explantId)
    .execute();
  await db
    .updateTable('stages')
    .set({ entered_on: at })
    .where('workspace_id', '=', workspaceId)
    .where('entity_id', '=', explantId)
    .execute();
}

export async function buildInsightsLab(t: TestApp, lab: Lab, owner: Client): Promise<InsightsLab> {
  const ws = lab.workspaceId;
  const actor = await lab.actor('member');
  const member = client(t, actor);
  const roomId = await addRoom(t.database, ws, 'Hood room');
  const fiddleA = (await newPlant(owner, { species: 'Ficus lyrata', common_name: 'Fiddle A' })).id;
  const fiddleB = (await newPlant(owner, { species: 'Ficus lyrata', common_name: 'Fiddle B' })).id;
  const banana = (await newPlant(owner, { species: 'Musa acuminata', common_name: 'Banana' })).id;
  const made = async (c: Client, label: string, plantId: string, count: number) => {
    const explant: Json = await newExplant(c, {
      label,
      plant_id: plantId,
      initial_count: count,
      initial_stage: 'multiplication',
      room_id: roomId,
    });
    await backdate(t.database, ws, explant.id, T('01-05T09:00'));
    return explant.id as string;
  };
  const transfer = async (
    c: Client,
    explantId: string,
    at: string,
    from: string,
    n: number,
    plantlets?: number,
  ) =>
    dataOf(
      await c.post('/api/v1/transfers', {
        explant_id: explantId,
        transfer_date: T(at),
        from_location: from,
        vessel_count: n,
        ...(plantlets === undefined ? {} : { plantlet_count: plantlets }),
      }),
      201,
    );
  const contamination = async (explantId: string, at: string) =>
    dataOf(
      await owner.post('/api/v1/contaminations', {
        explant_id: explantId,
        type: 'mold',
        issue: 'Mold on the medium',
        observed_at: T(at),
      }),
      201,
    );

  const e1 = await made(owner, 'E1', fiddleA, 10);
  const e2 = await made(owner, 'E2', fiddleA, 4);
  const e3 = await made(owner, 'E3', fiddleB, 5);
  const e4 = await made(member, 'E4', banana, 8);

  await transfer(owner, e1, '01-19T09:00', 'Hood 1', 30, 90);
  dataOf(
    await owner.post('/api/v1/stages', {
      explant_id: e1,
      stage: 'elongation',
      entered_on: T('02-10T09:00'),
    }),
    201,
  );
  await transfer(member, e1, '02-16T09:00', 'Hood 2', 60);
  await contamination(e1, '01-25T09:00');
  await contamination(e1, '03-20T09:00');

  await contamination(e2, '01-10T09:00');

  await transfer(owner, e3, '01-05T09:00', 'Hood 1', 10);
  await transfer(owner, e3, '02-02T09:00', 'Hood 1', 20, 100);
  await contamination(e3, '02-10T09:00');

  const split = dataOf(
    await member.post(`/api/v1/explants/${e4}/split`, {
      daughters: [{ vessel_count: 3 }, { vessel_count: 3 }],
    }),
    201,
  );
  const [d1, d2] = split.daughters.map((d: Json) => d.id as string) as [string, string];
  // The split happened on 2 February: its transfer, its edges, its daughters.
  const at = T('02-02T09:00');
  const db = t.database.db;
  await db
    .updateTable('transfers')
    .set({ transfer_date: at })
    .where('workspace_id', '=', ws)
    .where('entity_id', '=', e4)
    .execute();
  await db
    .updateTable('explant_parents')
    .set({ occurred_at: at })
    .where('workspace_id', '=', ws)
    .where('parent_id', '=', e4)
    .execute();
  for (const daughter of [d1, d2]) await backdate(t.database, ws, daughter, at);
  await contamination(d1, '02-05T09:00');

  return {
    member: { memberId: actor.memberId, client: member },
    roomId,
    plants: { fiddleA, fiddleB, banana },
    explants: { e1, e2, e3, e4, d1, d2 },
  };
}
