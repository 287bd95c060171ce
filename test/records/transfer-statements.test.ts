import { expect, it } from 'vitest';
import { countMatching as count, statementsOf, transactionOf } from '../support/statements.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { dataOf, eventsOf, GENEROUS_LIMITS, newExplant } from '../support/helpers.js';

describeOnDatabases('The statements of one explant transfer', (target) => {
  const { owner } = labSuite(target, { env: GENEROUS_LIMITS });

  it('locks the explant once, hands it on, and records both events with one reservation', async () => {
    const explant = await newExplant(owner, { initial_count: 10 });
    const statements = await statementsOf(target.name, async () => {
      dataOf(
        await owner.post('/api/v1/transfers', { explant_id: explant.id, vessel_count: 12 }),
        201,
      );
    });
    const transaction = transactionOf(statements);
    // begin; lock the explant; the highest cycle; the transfer; the explant's counts;
    // the sequence reservation and last_event_at; two events (one statement for both on
    // PostgreSQL); the explant marked for the insights' drain; commit.
    const eventInserts = target.name === 'postgres' ? 1 : 2;
    expect(transaction, transaction.join('\n')).toHaveLength(9 + eventInserts);
    expect(count(transaction, /^select .* from "explants"/)).toBe(1);
    expect(count(transaction, /^insert into "insight_dirty"/)).toBe(1);
    expect(count(transaction, /^update "workspaces"/)).toBe(2);
    expect(count(transaction, /^insert into "events"/)).toBe(eventInserts);

    const events = (await eventsOf(owner, 'explant')).filter(
      (event: { entity_id: string }) => event.entity_id === explant.id,
    );
    expect(events.map((event: { event_type: string }) => event.event_type)).toEqual([
      'created',
      'transfer',
      'updated',
    ]);
    expect(events[2].payload.changes).toEqual({ current_count: { from: 10, to: 12 } });
  });
});
