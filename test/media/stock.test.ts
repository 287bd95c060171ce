import { expect, it } from 'vitest';
import { describeOnDatabases, labSuite, otherLab } from '../support/suite.js';
import {
  client,
  dataOf,
  expectError,
  GENEROUS_LIMITS,
  listAll,
  randomId,
  type Json,
} from '../support/helpers.js';
import { LOOPBACK_ALLOWED, receiverEach, streamOnce, verified } from '../webhooks/support.js';
import { lotOf, newBatch, newRecipe, newStock, snapshot } from './support.js';

const daysFromNow = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describeOnDatabases('Stock items and lots', (target) => {
  const { t, lab, owner } = labSuite(target, { env: { ...GENEROUS_LIMITS, ...LOOPBACK_ALLOWED } });
  const their = otherLab(t);
  const receiver = receiverEach(t, lab, owner);

  it('keeps items and their lots: created, listed, read and updated', async () => {
    const { item, lot } = await newStock(
      owner,
      { reorder_level: 100, notes: 'Shelf 1' },
      { supplier: 'Duchefa', received_on: '2026-11-01', expires_on: '2028-11-01' },
    );
    expect(item).toEqual({
      id: expect.any(String),
      name: 'Agar',
      category: 'agar',
      unit: 'g',
      reorder_level: 100,
      notes: 'Shelf 1',
      created_by: lab.owner.memberId,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(lot).toEqual({
      id: expect.any(String),
      item_id: item.id,
      lot_number: 'AG-1',
      supplier: 'Duchefa',
      received_on: '2026-11-01',
      expires_on: '2028-11-01',
      quantity: 500,
      initial_quantity: 500,
      unit: 'g',
      low_task_id: null,
      expired_task_id: null,
      notes: null,
      created_by: lab.owner.memberId,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(dataOf(await owner.get(`/api/v1/stock-items/${item.id}`), 200)).toEqual(item);
    expect(await lotOf(owner, lot)).toEqual(lot);
    // A lot counted in another unit of the same kind.
    const inMg = dataOf(
      await owner.post(`/api/v1/stock-items/${item.id}/lots`, {
        lot_number: 'AG-2',
        quantity: 250000,
        unit: 'mg',
      }),
      201,
    );
    expect(inMg.unit).toBe('mg');
    expect(
      (await listAll(owner, `/api/v1/stock-items/${item.id}/lots`, 1)).map((l) => l.id),
    ).toEqual([inMg.id, lot.id]);
    const { item: flasks } = await newStock(
      owner,
      { name: 'Culture vessels', category: 'vessel', unit: 'vessel' },
      { lot_number: 'V-1', quantity: 200 },
    );
    expect((await listAll(owner, '/api/v1/stock-items', 1)).map((i) => i.id)).toEqual([
      flasks.id,
      item.id,
    ]);
    expect((await listAll(owner, '/api/v1/stock-items?category=vessel')).map((i) => i.id)).toEqual([
      flasks.id,
    ]);
    const renamed = dataOf(
      await owner.patch(`/api/v1/stock-items/${item.id}`, {
        name: 'Plant agar',
        reorder_level: null,
      }),
      200,
    );
    expect(renamed).toMatchObject({ name: 'Plant agar', reorder_level: null, unit: 'g' });
    const counted = dataOf(
      await owner.patch(`/api/v1/stock-items/${item.id}/lots/${lot.id}`, {
        quantity: 480,
        notes: 'Counted',
      }),
      200,
    );
    expect(counted).toMatchObject({ quantity: 480, initial_quantity: 500, notes: 'Counted' });
  });

  it('refuses units that do not convert, dates out of order, and what belongs elsewhere', async () => {
    const { item, lot } = await newStock(owner);
    const { item: theirItem, lot: theirLot } = await newStock(their.owner);
    const before = await snapshot(t.database, lab.workspaceId);
    expectError(
      await owner.post(`/api/v1/stock-items/${item.id}/lots`, {
        lot_number: 'X',
        quantity: 1,
        unit: 'mL',
      }),
      422,
      'VALIDATION_ERROR',
      /^unit: "mL" cannot be converted to "g"/,
    );
    expectError(
      await owner.post(`/api/v1/stock-items/${item.id}/lots`, {
        lot_number: 'X',
        quantity: 1,
        received_on: '2026-11-02',
        expires_on: '2026-11-01',
      }),
      422,
      'VALIDATION_ERROR',
      /^expires_on: before received_on/,
    );
    expectError(
      await owner.post(`/api/v1/stock-items/${item.id}/lots`, { lot_number: 'X', quantity: -1 }),
      422,
      'VALIDATION_ERROR',
    );
    expectError(
      await owner.post(`/api/v1/stock-items/${theirItem.id}/lots`, {
        lot_number: 'X',
        quantity: 1,
      }),
      404,
      'NOT_FOUND',
    );
    expectError(await owner.get(`/api/v1/stock-items/${theirItem.id}`), 404, 'NOT_FOUND');
    expectError(
      await owner.get(`/api/v1/stock-items/${item.id}/lots/${theirLot.id}`),
      404,
      'NOT_FOUND',
    );
    expectError(
      await owner.get(`/api/v1/stock-items/${randomId()}/lots/${lot.id}`),
      404,
      'NOT_FOUND',
    );
    expectError(
      await owner.patch(`/api/v1/stock-items/${item.id}/lots/${theirLot.id}`, { quantity: 0 }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await owner.post('/api/v1/stock-items', { name: 'X', category: 'gold', unit: 'g' }),
      422,
      'VALIDATION_ERROR',
    );
    expect(await snapshot(t.database, lab.workspaceId)).toEqual(before);
    expect((await lotOf(their.owner, theirLot)).quantity).toBe(500);
  });

  it('lets managers keep the catalogue and any member receive and count lots', async () => {
    const member = client(t, await lab.actor('member'));
    const manager = client(t, await lab.actor('manager'));
    const { item, lot } = await newStock(manager);
    expectError(
      await member.post('/api/v1/stock-items', { name: 'X', category: 'chemical', unit: 'g' }),
      403,
      'FORBIDDEN',
    );
    expectError(
      await member.patch(`/api/v1/stock-items/${item.id}`, { reorder_level: 5 }),
      403,
      'FORBIDDEN',
    );
    dataOf(
      await member.post(`/api/v1/stock-items/${item.id}/lots`, { lot_number: 'M-1', quantity: 5 }),
      201,
    );
    dataOf(
      await member.patch(`/api/v1/stock-items/${item.id}/lots/${lot.id}`, { quantity: 450 }),
      200,
    );
    const viewer = client(t, await lab.actor('viewer'));
    expect(dataOf(await viewer.get(`/api/v1/stock-items/${item.id}`), 200).id).toBe(item.id);
    expectError(
      await viewer.post(`/api/v1/stock-items/${item.id}/lots`, { lot_number: 'V', quantity: 1 }),
      403,
      'FORBIDDEN',
    );
  });

  it('raises a task and a stock_lot.low event once when a batch leaves a lot below its reorder level', async () => {
    const endpoint = dataOf(
      await owner.post('/api/v1/webhook-endpoints', {
        url: receiver.url,
        event_types: ['stock_lot.low'],
      }),
      201,
    );
    const recipe = await newRecipe(owner);
    const { item, lot } = await newStock(owner, { reorder_level: 100 }, { quantity: 150 });
    const take = (amount: number, unit = 'g') =>
      newBatch(owner, {
        recipe_id: recipe.id,
        components: [{ name: 'Agar', lot_id: lot.id, amount, unit }],
      });
    await take(40);
    expect((await lotOf(owner, lot)).low_task_id).toBeNull();
    expect(await listAll(owner, '/api/v1/tasks')).toEqual([]);

    await take(20000, 'mg');
    const low = await lotOf(owner, lot);
    expect(low).toMatchObject({ quantity: 90, low_task_id: expect.any(String) });
    const tasks = await listAll(owner, '/api/v1/tasks');
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({
      id: low.low_task_id,
      title: 'Reorder Agar: lot AG-1 holds 90 g, below 100 g',
      category: 'media_prep',
      status: 'todo',
    });
    const events = await listAll(owner, '/api/v1/events?entity=stock_lot');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      entity_type: 'stock_lot',
      entity_id: lot.id,
      event_type: 'low',
      recorded_by: lab.owner.memberId,
      payload: {
        task_id: low.low_task_id,
        item: { id: item.id, name: 'Agar', unit: 'g', reorder_level: 100 },
        lot: { ...low, updated_at: expect.any(String) },
      },
    });
    // Never in the plant or explant history.
    expect(await listAll(owner, '/api/v1/events?entity=explant')).toEqual([]);
    // Webhooks deliver it.
    expect(await streamOnce(t, endpoint.id)).toBe(1);
    const delivered = verified(receiver.requests[0]!, endpoint.secret) as Json;
    expect(delivered).toMatchObject({ type: 'stock_lot.low', data: { id: events[0]!.id } });

    // Taking more raises nothing new; a count back above the level forgets the task,
    // and falling below again raises another.
    await take(10);
    expect(await listAll(owner, '/api/v1/tasks')).toHaveLength(1);
    const restocked = dataOf(
      await owner.patch(`/api/v1/stock-items/${item.id}/lots/${lot.id}`, { quantity: 300 }),
      200,
    );
    expect(restocked.low_task_id).toBeNull();
    await take(250);
    expect(await listAll(owner, '/api/v1/tasks')).toHaveLength(2);
    expect(await listAll(owner, '/api/v1/events?entity=stock_lot')).toHaveLength(2);
  });

  it('raises a task and a stock_lot.expired event for a lot past its expiry', async () => {
    const { item } = await newStock(owner);
    const fresh = dataOf(
      await owner.post(`/api/v1/stock-items/${item.id}/lots`, {
        lot_number: 'OK-1',
        quantity: 10,
        received_on: daysFromNow(-30),
        expires_on: daysFromNow(0),
      }),
      201,
    );
    expect(fresh.expired_task_id).toBeNull();
    const old = dataOf(
      await owner.post(`/api/v1/stock-items/${item.id}/lots`, {
        lot_number: 'OLD-1',
        quantity: 10,
        received_on: daysFromNow(-400),
        expires_on: daysFromNow(-1),
      }),
      201,
    );
    expect(old.expired_task_id).toEqual(expect.any(String));
    const [task] = await listAll(owner, '/api/v1/tasks');
    expect(task).toMatchObject({
      id: old.expired_task_id,
      title: `Replace Agar: lot OLD-1 expired on ${daysFromNow(-1)}`,
    });
    const events = await listAll(owner, '/api/v1/events?entity=stock_lot');
    expect(events.map((e) => [e.entity_id, e.event_type])).toEqual([[old.id, 'expired']]);
    // A correction of a lot already told of raises nothing more.
    dataOf(
      await owner.patch(`/api/v1/stock-items/${item.id}/lots/${old.id}`, { notes: 'Bin it' }),
      200,
    );
    expect(await listAll(owner, '/api/v1/tasks')).toHaveLength(1);
  });
});
