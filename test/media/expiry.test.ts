import { expect, it } from 'vitest';
import { createRecordLookup } from '../../src/modules/index.js';
import { runExpiry } from '../../src/modules/reminders/index.js';
import { describeOnOwnDatabases, labSuite } from '../support/suite.js';
import { dataOf, expectError, GENEROUS_LIMITS, listAll } from '../support/helpers.js';
import { lotOf, newBatch, newRecipe, newStock } from './support.js';

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

// The pass serves every workspace of its database: on databases of the suite's own.
describeOnOwnDatabases('The expiry pass', (target) => {
  const { t, owner } = labSuite(target, { env: GENEROUS_LIMITS });

  it('marks ready batches past expires_at expired and raises a lot past its date once', async () => {
    const now = Date.now();
    const recipe = await newRecipe(owner);
    const soon = new Date(now + DAY_MS).toISOString();
    const ready = await newBatch(owner, { recipe_id: recipe.id, expires_at: soon });
    const usedUp = await newBatch(owner, {
      recipe_id: recipe.id,
      expires_at: soon,
      status: 'used_up',
    });
    const later = await newBatch(owner, {
      recipe_id: recipe.id,
      expires_at: new Date(now + 10 * DAY_MS).toISOString(),
    });
    const { item, lot } = await newStock(owner, {}, { expires_on: day(now + DAY_MS) });
    const empty = dataOf(
      await owner.post(`/api/v1/stock-items/${item.id}/lots`, {
        lot_number: 'EMPTY',
        quantity: 0,
        expires_on: day(now + DAY_MS),
      }),
      201,
    );

    const status = async (batch: { id: string }) =>
      dataOf(await owner.get(`/api/v1/media-batches/${batch.id}`), 200).status;
    // One batch made after its day: named on a transfer, it is refused in the same
    // words before and after the pass marks it.
    const lapsed = await newBatch(owner, { recipe_id: recipe.id, expires_at: '2020-01-01' });
    const explant = dataOf(await owner.post('/api/v1/explants', { label: 'EX-1' }), 201);
    const named = async () =>
      expectError(
        await owner.post('/api/v1/transfers', {
          explant_id: explant.id,
          media_batch_id: lapsed.id,
        }),
        422,
        'VALIDATION_ERROR',
        /^media_batch_id: the media batch expired at 2020-01-01T00:00:00.000Z$/,
      );
    await named();

    // Nothing else has run out yet.
    expect(await runExpiry(t.database, createRecordLookup(), now)).toEqual({ lots: 0, batches: 1 });
    expect(await status(lapsed)).toBe('expired');
    await named();
    expect(await listAll(owner, '/api/v1/tasks')).toEqual([]);

    const afterwards = now + 2 * DAY_MS + 1000;
    expect(await runExpiry(t.database, createRecordLookup(), afterwards)).toEqual({
      lots: 1,
      batches: 1,
    });
    expect(await status(ready)).toBe('expired');
    // A used-up batch stays used up; one not yet due stays ready.
    expect(await status(usedUp)).toBe('used_up');
    expect(await status(later)).toBe('ready');

    const told = await lotOf(owner, lot);
    expect(told.expired_task_id).toEqual(expect.any(String));
    // An empty lot is nothing to replace.
    expect((await lotOf(owner, empty)).expired_task_id).toBeNull();
    const tasks = await listAll(owner, '/api/v1/tasks');
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({
      id: told.expired_task_id,
      title: `Replace Agar: lot AG-1 expired on ${day(now + DAY_MS)}`,
      category: 'media_prep',
    });
    const events = await listAll(owner, '/api/v1/events?entity=stock_lot');
    expect(events.map((e) => [e.entity_id, e.event_type, e.recorded_by])).toEqual([
      [lot.id, 'expired', null],
    ]);
    expect(events[0]!.payload).toMatchObject({ task_id: told.expired_task_id });

    // Once: a pass again tells nobody twice.
    expect(await runExpiry(t.database, createRecordLookup(), afterwards + 1000)).toEqual({
      lots: 0,
      batches: 0,
    });
    expect(await listAll(owner, '/api/v1/tasks')).toHaveLength(1);
    expect(await listAll(owner, '/api/v1/events?entity=stock_lot')).toHaveLength(1);
  });
});
