import { beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  client,
  dataOf,
  expectError,
  expectSameAnswer,
  type Json,
  keysOf,
  listAll,
  newPlant,
  randomId,
} from '../support/helpers.js';
import { importFile, minutesIn, setFeatures } from './library.js';

const ORDER_LINE_KEYS = [
  'id',
  'occurred_at',
  'plant_id',
  'product_link_id',
  'quantity',
  'store_product_id',
  'store_variant_id',
  'unit_price',
];

const GROUP_KEYS = [
  'currency',
  'first_occurred_at',
  'last_occurred_at',
  'order_line_count',
  'plant_id',
  'priced_line_count',
  'revenue',
  'units',
];

const money = (amount: string, currency: string | null = 'USD') => ({ amount, currency });

interface Line {
  id?: string;
  plant_id?: string | null;
  product_link_id?: string | null;
  store_product_id?: string | null;
  store_variant_id?: string | null;
  quantity: number;
  unit_price?: { amount: string; currency: string | null } | null;
  occurred_at?: string | null;
}

describeOnDatabases('Commerce', (target) => {
  const { t, lab, owner } = labSuite(target);
  let monstera: string;
  let alocasia: string;
  beforeEach(async () => {
    monstera = (await newPlant(owner, { species: 'Monstera deliciosa' })).id;
    alocasia = (await newPlant(owner, { species: 'Alocasia micholitziana' })).id;
  });

  /** Imports lines with ids, and returns the ids in the order given. */
  const sell = async (lines: Line[], workspaceId = lab.workspaceId): Promise<string[]> => {
    const withIds = lines.map((line) => ({ id: newId(), ...line }));
    await importFile(t, workspaceId, { order_lines: withIds });
    return withIds.map((line) => line.id);
  };
  const orderLines = (query = '', c = owner) => c.get(`/api/v1/commerce/order-lines${query}`);
  const sellThrough = (query = '', c = owner) => c.get(`/api/v1/commerce/sell-through${query}`);
  const ids = (res: Parameters<typeof dataOf>[0]) =>
    (dataOf(res, 200) as Json[]).map((item) => item.id as string);
  const q = (value: string) => encodeURIComponent(value);

  describe('GET /commerce/order-lines', () => {
    it('answers every field; amounts exactly as sent, never re-formatted', async () => {
      const link = randomId();
      const [id] = await sell([
        {
          plant_id: monstera,
          product_link_id: link,
          store_product_id: 'sp_1001',
          store_variant_id: 'sv_1001_plantlet',
          quantity: 3,
          unit_price: money('0.10'),
          occurred_at: '2026-11-02T10:00:00+01:00',
        },
      ]);
      const [line] = dataOf(await orderLines(), 200) as Json[];
      expect(keysOf(line)).toEqual(ORDER_LINE_KEYS);
      expect(line).toEqual({
        id,
        product_link_id: link,
        plant_id: monstera,
        store_product_id: 'sp_1001',
        store_variant_id: 'sv_1001_plantlet',
        quantity: 3,
        unit_price: { amount: '0.10', currency: 'USD' },
        occurred_at: '2026-11-02T09:00:00.000Z',
      });
      const [bare] = await sell([{ quantity: 1 }]);
      const big = '98765432109876543210987654321.987654321';
      await sell([
        { quantity: 1, unit_price: money(big, 'JPY'), occurred_at: minutesIn(1) },
        { quantity: 2, unit_price: money('5', null), occurred_at: minutesIn(2) },
      ]);
      const all = dataOf(await orderLines(), 200) as Json[];
      expect(all.map((l) => l.unit_price)).toEqual([
        { amount: '0.10', currency: 'USD' },
        { amount: '5', currency: null },
        { amount: big, currency: 'JPY' },
        null,
      ]);
      expect(all[3]).toEqual({
        id: bare,
        product_link_id: null,
        plant_id: null,
        store_product_id: null,
        store_variant_id: null,
        quantity: 1,
        unit_price: null,
        occurred_at: null,
      });
    });

    it('lists newest first by occurred_at, ties by id, lines without a time last, across pages', async () => {
      const made = await sell([
        { quantity: 1, occurred_at: minutesIn(10) },
        { quantity: 1, occurred_at: null },
        { quantity: 1, occurred_at: minutesIn(30) },
        { quantity: 1, occurred_at: minutesIn(20) },
        { quantity: 1, occurred_at: minutesIn(30) },
        { quantity: 1, occurred_at: null },
      ]);
      const expected = [
        ...[made[2]!, made[4]!].sort().reverse(),
        made[3],
        made[0],
        ...[made[1]!, made[5]!].sort().reverse(),
      ];
      expect(ids(await orderLines())).toEqual(expected);
      for (const size of [1, 2, 4]) {
        expect(
          (await listAll(owner, '/api/v1/commerce/order-lines', size)).map((l) => l.id),
        ).toEqual(expected);
      }
      expect(ids(await orderLines('?limit=2&offset=3'))).toEqual(expected.slice(3, 5));
    });

    it('windows occurred_at by from and to, both edges inclusive', async () => {
      const [before, atFrom, inside, atTo, after] = await sell([
        { quantity: 1, occurred_at: '2026-11-01T23:59:59.999Z' },
        { quantity: 1, occurred_at: '2026-11-02T00:00:00.000Z' },
        { quantity: 1, occurred_at: '2026-11-15T12:00:00.000Z' },
        { quantity: 1, occurred_at: '2026-11-30T23:59:59.999Z' },
        { quantity: 1, occurred_at: '2026-12-01T00:00:00.000Z' },
      ]);
      await sell([{ quantity: 1, occurred_at: null }]);
      const from = q('2026-11-02T00:00:00Z');
      const to = q('2026-11-30T23:59:59.999Z');
      expect(ids(await orderLines(`?from=${from}&to=${to}`))).toEqual([atTo, inside, atFrom]);
      expect(ids(await orderLines(`?from=${from}`))).toEqual([after, atTo, inside, atFrom]);
      expect(ids(await orderLines(`?to=${to}`))).toEqual([atTo, inside, atFrom, before]);
      // The same instants with offsets.
      expect(
        ids(
          await orderLines(
            `?from=${q('2026-11-02T01:00:00+01:00')}&to=${q('2026-11-30T18:59:59.999-05:00')}`,
          ),
        ),
      ).toEqual([atTo, inside, atFrom]);
      expect(ids(await orderLines(`?from=${from}&to=${from}`))).toEqual([atFrom]);
      expect(
        ids(
          await orderLines(
            `?from=${q('2026-11-02T00:00:00.001Z')}&to=${q('2026-11-30T23:59:59.998Z')}`,
          ),
        ),
      ).toEqual([inside]);
      expectError(
        await orderLines(`?from=${to}&to=${from}`),
        422,
        'VALIDATION_ERROR',
        /^from: must not be later than to/,
      );
      expectError(await orderLines('?from=2026-11-02'), 422, 'VALIDATION_ERROR', /^from:/);
      const page = body(await orderLines(`?from=${from}&limit=1`));
      expectError(
        await orderLines(`?limit=1&cursor=${q(page.meta.next_cursor)}`),
        422,
        'INVALID_CURSOR',
      );
      expect(
        (await listAll(owner, `/api/v1/commerce/order-lines?from=${from}&to=${to}`, 1)).map(
          (l) => l.id,
        ),
      ).toEqual([atTo, inside, atFrom]);
    });

    it('filters by product_link_id; one no line of the workspace names is 404', async () => {
      const link = randomId();
      const other = randomId();
      const made = await sell([
        { quantity: 1, product_link_id: link, occurred_at: minutesIn(1) },
        { quantity: 2, product_link_id: other, occurred_at: minutesIn(2) },
        { quantity: 3, product_link_id: link, occurred_at: minutesIn(3) },
      ]);
      expect(ids(await orderLines(`?product_link_id=${link}`))).toEqual([made[2], made[0]]);
      expect(ids(await orderLines(`?product_link_id=${link}&to=${q(minutesIn(2))}`))).toEqual([
        made[0],
      ]);
      // Known, but not in this window: an empty page.
      expect(ids(await orderLines(`?product_link_id=${other}&from=${q(minutesIn(3))}`))).toEqual(
        [],
      );

      const otherLab = await createLab(t.database, { name: 'Other lab' });
      const theirs = randomId();
      await sell([{ quantity: 1, product_link_id: theirs }], otherLab.workspaceId);
      const reference = await orderLines(`?product_link_id=${randomId()}`);
      expectError(reference, 404, 'NOT_FOUND', /^Product link not found$/);
      expectSameAnswer(await orderLines(`?product_link_id=${theirs}`), reference, 404, 'NOT_FOUND');
      expectError(await orderLines('?product_link_id=sp_1'), 422, 'VALIDATION_ERROR');
      expect(ids(await orderLines())).toHaveLength(3);
    });
  });

  describe('GET /commerce/sell-through', () => {
    it('one group per plant and currency, highest units first, revenue exact, no cross-currency total', async () => {
      await sell([
        { plant_id: monstera, quantity: 3, unit_price: money('45.00'), occurred_at: minutesIn(5) },
        { plant_id: monstera, quantity: 1, unit_price: money('39.5'), occurred_at: minutesIn(1) },
        {
          plant_id: monstera,
          quantity: 2,
          unit_price: money('41.00', 'EUR'),
          occurred_at: minutesIn(3),
        },
        { plant_id: alocasia, quantity: 6, unit_price: money('0.10'), occurred_at: minutesIn(4) },
        { plant_id: alocasia, quantity: 1, unit_price: money('0.125'), occurred_at: minutesIn(2) },
        { plant_id: alocasia, quantity: 1, unit_price: money('-0.10'), occurred_at: minutesIn(6) },
      ]);
      const res = await sellThrough();
      expect(body(res).meta).toEqual({ next_cursor: null });
      const groups = dataOf(res, 200) as Json[];
      for (const group of groups) expect(keysOf(group)).toEqual(GROUP_KEYS);
      expect(groups).toEqual([
        {
          plant_id: alocasia,
          currency: 'USD',
          units: 8,
          // 6 × 0.10 + 0.125 − 0.10, at the largest scale seen (3).
          revenue: { amount: '0.625', currency: 'USD' },
          order_line_count: 3,
          priced_line_count: 3,
          first_occurred_at: minutesIn(2),
          last_occurred_at: minutesIn(6),
        },
        {
          plant_id: monstera,
          currency: 'USD',
          units: 4,
          revenue: { amount: '174.50', currency: 'USD' },
          order_line_count: 2,
          priced_line_count: 2,
          first_occurred_at: minutesIn(1),
          last_occurred_at: minutesIn(5),
        },
        {
          plant_id: monstera,
          currency: 'EUR',
          units: 2,
          revenue: { amount: '82.00', currency: 'EUR' },
          order_line_count: 1,
          priced_line_count: 1,
          first_occurred_at: minutesIn(3),
          last_occurred_at: minutesIn(3),
        },
      ]);
    });

    it('sums large amounts exactly', async () => {
      const huge = '99999999999999999999999999999999.99';
      await sell([
        {
          plant_id: monstera,
          quantity: 1_000_000,
          unit_price: money(huge),
          occurred_at: minutesIn(1),
        },
        {
          plant_id: monstera,
          quantity: 999_999,
          unit_price: money('0.01'),
          occurred_at: minutesIn(2),
        },
        { plant_id: monstera, quantity: 7, unit_price: money(huge), occurred_at: minutesIn(3) },
      ]);
      const expected = 9999999999999999999999999999999999n * 1_000_007n + 999_999n;
      const text = expected.toString();
      const [group] = dataOf(await sellThrough(), 200) as Json[];
      expect(group).toMatchObject({
        units: 2_000_006,
        revenue: { amount: `${text.slice(0, -2)}.${text.slice(-2)}`, currency: 'USD' },
        priced_line_count: 3,
      });
      expect(group.revenue.amount).toBe('100000699999999999999999999999999999999.92');
    });

    it('counts lines without a price in units and lines, not in revenue; lines without a plant form their own group', async () => {
      await sell([
        { plant_id: monstera, quantity: 2, unit_price: null, occurred_at: minutesIn(1) },
        {
          plant_id: monstera,
          quantity: 1,
          unit_price: money('5.00', null),
          occurred_at: minutesIn(2),
        },
        { plant_id: monstera, quantity: 1, unit_price: money('45.00'), occurred_at: null },
        { plant_id: null, quantity: 4, unit_price: money('3.00'), occurred_at: minutesIn(3) },
      ]);
      expect(dataOf(await sellThrough(), 200)).toEqual([
        {
          plant_id: null,
          currency: 'USD',
          units: 4,
          revenue: { amount: '12.00', currency: 'USD' },
          order_line_count: 1,
          priced_line_count: 1,
          first_occurred_at: minutesIn(3),
          last_occurred_at: minutesIn(3),
        },
        {
          plant_id: monstera,
          currency: null,
          units: 3,
          revenue: { amount: '5.00', currency: null },
          order_line_count: 2,
          priced_line_count: 1,
          first_occurred_at: minutesIn(1),
          last_occurred_at: minutesIn(2),
        },
        {
          plant_id: monstera,
          currency: 'USD',
          units: 1,
          revenue: { amount: '45.00', currency: 'USD' },
          order_line_count: 1,
          priced_line_count: 1,
          first_occurred_at: null,
          last_occurred_at: null,
        },
      ]);
      await sell([
        { plant_id: alocasia, quantity: 5, unit_price: null, occurred_at: minutesIn(4) },
      ]);
      const alone = (dataOf(await sellThrough(`?plant_id=${alocasia}`), 200) as Json[])[0];
      expect(alone).toMatchObject({
        currency: null,
        units: 5,
        revenue: { amount: '0', currency: null },
        priced_line_count: 0,
      });
    });

    it('windows by from and to, both edges inclusive, and filters by plant', async () => {
      await sell([
        {
          plant_id: monstera,
          quantity: 1,
          unit_price: money('1.00'),
          occurred_at: '2026-10-31T23:59:59.999Z',
        },
        {
          plant_id: monstera,
          quantity: 2,
          unit_price: money('1.00'),
          occurred_at: '2026-11-01T00:00:00.000Z',
        },
        {
          plant_id: monstera,
          quantity: 4,
          unit_price: money('1.00'),
          occurred_at: '2026-11-30T23:59:59.999Z',
        },
        {
          plant_id: monstera,
          quantity: 8,
          unit_price: money('1.00'),
          occurred_at: '2026-12-01T00:00:00.000Z',
        },
        {
          plant_id: alocasia,
          quantity: 16,
          unit_price: money('1.00'),
          occurred_at: '2026-11-10T00:00:00.000Z',
        },
        { plant_id: alocasia, quantity: 32, unit_price: money('1.00'), occurred_at: null },
      ]);
      const november = `from=${q('2026-11-01T00:00:00Z')}&to=${q('2026-11-30T23:59:59.999Z')}`;
      const groups = dataOf(await sellThrough(`?${november}`), 200) as Json[];
      expect(groups.map((g) => [g.plant_id, g.units, g.revenue.amount])).toEqual([
        [alocasia, 16, '16.00'],
        [monstera, 6, '6.00'],
      ]);
      expect(groups[1]).toMatchObject({
        first_occurred_at: '2026-11-01T00:00:00.000Z',
        last_occurred_at: '2026-11-30T23:59:59.999Z',
      });
      expect(
        (dataOf(await sellThrough(`?${november}&plant_id=${monstera}`), 200) as Json[]).map(
          (g) => g.units,
        ),
      ).toEqual([6]);
      const all = dataOf(await sellThrough(`?plant_id=${monstera}`), 200) as Json[];
      expect(all.map((g) => g.units)).toEqual([15]);
      expect(
        (
          dataOf(
            await sellThrough(
              `?from=${q('2026-11-30T23:59:59.999Z')}&to=${q('2026-11-30T23:59:59.999Z')}`,
            ),
            200,
          ) as Json[]
        ).map((g) => g.units),
      ).toEqual([4]);
      expectError(
        await sellThrough(`?from=${q('2026-12-01T00:00:00Z')}&to=${q('2026-11-01T00:00:00Z')}`),
        422,
        'VALIDATION_ERROR',
        /^from: must not be later than to/,
      );
    });

    it('answers one page: next_cursor null, limit and offset window the groups, no cursor', async () => {
      const plants = [monstera, alocasia];
      for (let i = 0; i < 3; i++) plants.push((await newPlant(owner)).id);
      await sell(
        plants.map((plant_id, i) => ({ plant_id, quantity: 10 - i, unit_price: money('1') })),
      );
      const all = dataOf(await sellThrough(), 200) as Json[];
      expect(all.map((g) => g.units)).toEqual([10, 9, 8, 7, 6]);
      const page = await sellThrough('?limit=2&offset=1');
      expect(body(page).meta).toEqual({ next_cursor: null });
      expect((dataOf(page, 200) as Json[]).map((g) => g.units)).toEqual([9, 8]);
      expect(dataOf(await sellThrough('?limit=500'), 200)).toEqual(all);
      // Not paged by cursor: a cursor sent is a parameter it does not take, ignored.
      expect(dataOf(await sellThrough('?cursor=abc'), 200)).toEqual(all);
      expectError(await sellThrough('?limit=0'), 422, 'VALIDATION_ERROR', /^limit:/);
      expectError(await sellThrough('?offset=-1'), 422, 'VALIDATION_ERROR', /^offset:/);
      const none = await createLab(t.database, { name: 'Quiet lab' });
      expect(body(await sellThrough('', client(t, none.owner)))).toEqual({
        ok: true,
        data: [],
        meta: { next_cursor: null },
      });
    });

    it('orders equal units by plant, then currency', async () => {
      await sell([
        { plant_id: alocasia, quantity: 2, unit_price: money('1', 'USD') },
        { plant_id: alocasia, quantity: 2, unit_price: money('1', 'EUR') },
        { plant_id: monstera, quantity: 2, unit_price: money('1', 'USD') },
      ]);
      const [first, second] = [monstera, alocasia].sort();
      const byPlant = first === alocasia ? ['EUR', 'USD', 'USD'] : ['USD', 'EUR', 'USD'];
      const groups = dataOf(await sellThrough(), 200) as Json[];
      expect(groups.map((g) => g.currency)).toEqual(byPlant);
      expect(groups.map((g) => g.plant_id)).toEqual(
        first === alocasia ? [first, first, second] : [first, second, second],
      );
    });

    it('answers a plant_id of another workspace exactly as a random one (404)', async () => {
      const other = await createLab(t.database, { name: 'Other lab' });
      const theirPlant = (await newPlant(client(t, other.owner))).id;
      await sell(
        [{ plant_id: theirPlant, quantity: 5, unit_price: money('1') }],
        other.workspaceId,
      );
      const reference = await sellThrough(`?plant_id=${randomId()}`);
      expectError(reference, 404, 'NOT_FOUND', /^Plant not found$/);
      expectSameAnswer(await sellThrough(`?plant_id=${theirPlant}`), reference, 404, 'NOT_FOUND');
      expect(dataOf(await sellThrough(), 200)).toEqual([]);
    });
  });

  describe('access and the commerce feature', () => {
    it('needs a manager (read:commerce)', async () => {
      await sell([{ quantity: 1 }]);
      for (const role of ['guest', 'viewer', 'member'] as const) {
        const weak = client(t, await lab.actor(role));
        expectError(await orderLines('', weak), 403, 'FORBIDDEN', /manager role/);
        expectError(await sellThrough('', weak), 403, 'FORBIDDEN', /manager role/);
      }
      const manager = client(t, await lab.actor('manager'));
      expect(dataOf(await orderLines('', manager), 200)).toHaveLength(1);
      expect(dataOf(await sellThrough('', manager), 200)).toHaveLength(1);
      const unscoped = client(t, await lab.actor('owner', { scopes: ['read:pricing'] }));
      expectError(await orderLines('', unscoped), 403, 'FORBIDDEN', /read:commerce/);
      const device = client(t, await lab.deviceToken());
      expectError(await sellThrough('', device), 403, 'DEVICE_TOKEN_NOT_ACCEPTED');
    });

    it('follows the commerce feature, not pricing', async () => {
      await sell([{ quantity: 1 }]);
      await setFeatures(t, lab.workspaceId, ['commerce']);
      expect(dataOf(await orderLines(), 200)).toHaveLength(1);
      expect(dataOf(await sellThrough(), 200)).toHaveLength(1);
      await setFeatures(t, lab.workspaceId, ['pricing', 'equipment_calibration']);
      expectError(await orderLines(), 402, 'FEATURE_NOT_INCLUDED', /commerce/);
      expectError(await sellThrough(), 402, 'FEATURE_NOT_INCLUDED', /commerce/);
      expectError(await sellThrough(`?plant_id=${randomId()}`), 402, 'FEATURE_NOT_INCLUDED');
    });
  });

  it('reads the same after the same file is imported again', async () => {
    const file = {
      order_lines: [
        { plant_id: monstera, quantity: 3, unit_price: money('45.00'), occurred_at: minutesIn(1) },
        { plant_id: monstera, quantity: 3, unit_price: money('45.00'), occurred_at: minutesIn(1) },
        { plant_id: alocasia, quantity: 1, unit_price: money('24.00', 'EUR') },
      ],
    };
    await importFile(t, lab.workspaceId, file);
    const before = [dataOf(await orderLines(), 200), dataOf(await sellThrough(), 200)];
    await importFile(t, lab.workspaceId, structuredClone(file));
    expect([dataOf(await orderLines(), 200), dataOf(await sellThrough(), 200)]).toEqual(before);
    expect(before[0]).toHaveLength(3);
  });
});
