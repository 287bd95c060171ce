import { expect, it } from 'vitest';
import { countMatching as count, statementsOf, transactionOf } from '../support/statements.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { dataOf, eventsOf, GENEROUS_LIMITS, newExplant, newPlant } from '../support/helpers.js';

describeOnDatabases('The statements of one split', (target) => {
  const { owner } = labSuite(target, { env: GENEROUS_LIMITS });

  it('locks the parent once, reads the lab once, its cycle and children once, and records every event with one reservation', async () => {
    const explant = await newExplant(owner, { initial_count: 10 });
    let answer:
      | { parent: { current_count: number }; daughters: { id: string; transfer_due_at?: string }[] }
      | undefined;
    const statements = await statementsOf(target.name, async () => {
      answer = dataOf(
        await owner.post(`/api/v1/explants/${explant.id}/split`, {
          daughters: [{ vessel_count: 1 }, { vessel_count: 2 }],
        }),
        201,
      );
    });
    const transaction = transactionOf(statements);
    // begin; lock the parent, with the lab's interval (one statement); its highest
    // cycle with its children count, read once it is locked (one statement); the
    // transfer; the parent's counts; per daughter its row and search document; the
    // edges (one statement on PostgreSQL, one prepared statement run per edge on
    // SQLite); the sequence reservation and last_event_at; five events (transfer,
    // updated, two created, split: likewise); the insights' marks of the three explants
    // changed (likewise); commit.
    const eventInserts = target.name === 'postgres' ? 1 : 5;
    const edgeInserts = target.name === 'postgres' ? 1 : 2;
    const markInserts = target.name === 'postgres' ? 1 : 3;
    expect(transaction, transaction.join('\n')).toHaveLength(
      12 + edgeInserts + eventInserts + markInserts,
    );
    expect(count(transaction, /^insert into "explant_parents"/)).toBe(edgeInserts);
    expect(count(transaction, /from "explant_parents"/)).toBe(1);
    expect(count(transaction, /^insert into "insight_dirty"/)).toBe(markInserts);
    expect(count(transaction, /^select .* from "explants"/)).toBe(1);
    expect(count(transaction, /^select .* from "explants" .*inner join "workspaces"/)).toBe(1);
    expect(count(transaction, /^select .* from "workspaces"/)).toBe(0);
    expect(count(transaction, /^update "workspaces"/)).toBe(2);
    expect(count(transaction, /^insert into "events"/)).toBe(eventInserts);

    const [first, second] = answer!.daughters;
    const events = (await eventsOf(owner, 'explant')).filter((event: { entity_id: string }) =>
      [explant.id, first!.id, second!.id].includes(event.entity_id),
    );
    expect(
      events.map((event: { entity_id: string; event_type: string }) => [
        event.entity_id,
        event.event_type,
      ]),
    ).toEqual([
      [explant.id, 'created'],
      [explant.id, 'transfer'],
      [explant.id, 'updated'],
      [first!.id, 'created'],
      [second!.id, 'created'],
      [explant.id, 'split'],
    ]);
    expect(events[2].payload.changes).toEqual({ current_count: { from: 10, to: 7 } });
    expect(answer!.parent.current_count).toBe(7);
    expect(dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200)).toEqual(answer!.parent);
    // Each daughter as answered is the daughter read (its due date from the lab's interval).
    expect(dataOf(await owner.get(`/api/v1/explants/${first!.id}`), 200)).toEqual(first);
  });
  it("reads the lab's stage list once for all daughters, and not the plant they inherit", async () => {
    const plant = await newPlant(owner, { species: 'Ficus lyrata' });
    const explant = await newExplant(owner, {
      initial_count: 10,
      plant_id: plant.id,
      initial_stage: 'multiplication',
    });
    let daughters: { plant_id: string; current_stage: { stage: string } }[] = [];
    const statements = await statementsOf(target.name, async () => {
      daughters = dataOf(
        await owner.post(`/api/v1/explants/${explant.id}/split`, {
          daughters: [{ vessel_count: 1 }, { vessel_count: 2 }, { vessel_count: 3 }],
        }),
        201,
      ).daughters;
    });
    const transaction = transactionOf(statements);
    expect(count(transaction, /^select .* from "plants"/)).toBe(0);
    expect(count(transaction, /^select .* from "stage_definitions"/)).toBe(1);
    expect(count(transaction, /^insert into "stages"/)).toBe(3);
    expect(daughters.map((d) => [d.plant_id, d.current_stage.stage])).toEqual([
      [plant.id, 'multiplication'],
      [plant.id, 'multiplication'],
      [plant.id, 'multiplication'],
    ]);
  });
});
