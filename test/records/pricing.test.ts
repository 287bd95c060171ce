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

const PRICE_KEYS = [
  'created_at',
  'id',
  'list_price',
  'notes',
  'pricing_tier',
  'plant_id',
  'previous_list_price',
  'price_source',
  'price_source_at',
  'tier_score',
  'updated_at',
  'wholesale_price',
].sort();

const PRICE_EVENT_KEYS = [
  'changed_at',
  'changed_by',
  'id',
  'list_price',
  'plant_id',
  'previous_list_price',
  'price_source',
];

const usd = (amount: string) => ({ amount, currency: 'USD' });

describeOnDatabases('Pricing', (target) => {
  const { t, lab, owner } = labSuite(target);
  let monstera: string;
  let alocasia: string;
  beforeEach(async () => {
    monstera = (await newPlant(owner, { species: 'Monstera deliciosa' })).id;
    alocasia = (await newPlant(owner, { species: 'Alocasia micholitziana' })).id;
  });

  const prices = (query = '', c = owner) => c.get(`/api/v1/pricing/culture-lines${query}`);
  const priceEvents = (query = '', c = owner) => c.get(`/api/v1/pricing/events${query}`);
  const ids = (res: Parameters<typeof dataOf>[0]) =>
    (dataOf(res, 200) as Json[]).map((item) => item.id as string);

  describe('GET /pricing/culture-lines', () => {
    it('answers every field with exact amounts, as imported', async () => {
      const id = newId();
      const sent = {
        id,
        plant_id: monstera,
        list_price: { amount: '123456789012345678901234567890.123456789', currency: 'USD' },
        wholesale_price: { amount: '0.10', currency: 'EUR' },
        pricing_tier: 'A',
        tier_score: '0.8200',
        price_source: 'store_follow',
        notes: 'Follows the web store',
      };
      await importFile(t, lab.workspaceId, { culture_line_prices: [sent] }, minutesIn(1));
      const [price] = dataOf(await prices(), 200) as Json[];
      expect(keysOf(price)).toEqual(PRICE_KEYS);
      expect(price).toEqual({
        ...sent,
        previous_list_price: null,
        price_source_at: minutesIn(1),
        created_at: minutesIn(1),
        updated_at: minutesIn(1),
      });
    });

    it('keeps the old list price, in its own currency, as the previous one', async () => {
      const line = { id: newId(), plant_id: monstera, list_price: usd('18.50') };
      await importFile(t, lab.workspaceId, { culture_line_prices: [line] }, minutesIn(1));
      const changed = { ...line, list_price: { amount: '17.00', currency: 'EUR' } };
      await importFile(t, lab.workspaceId, { culture_line_prices: [changed] }, minutesIn(2));
      const [price] = dataOf(await prices(), 200) as Json[];
      expect(price).toMatchObject({
        list_price: { amount: '17.00', currency: 'EUR' },
        wholesale_price: null,
        previous_list_price: { amount: '18.50', currency: 'USD' },
        price_source: 'manual',
        created_at: minutesIn(1),
        updated_at: minutesIn(2),
      });
    });

    it('lists newest first by when a line was first priced, not last changed', async () => {
      const first = { id: newId(), plant_id: monstera, list_price: usd('45.00') };
      const second = { id: newId(), plant_id: alocasia, list_price: usd('24.00') };
      await importFile(t, lab.workspaceId, { culture_line_prices: [first] }, minutesIn(1));
      await importFile(t, lab.workspaceId, { culture_line_prices: [second] }, minutesIn(2));
      expect(ids(await prices())).toEqual([second.id, first.id]);
      await importFile(
        t,
        lab.workspaceId,
        { culture_line_prices: [{ ...first, list_price: usd('49.00') }] },
        minutesIn(3),
      );
      expect(ids(await prices())).toEqual([second.id, first.id]);
    });

    it('filters by plant_id and pricing_tier (exact), and pages', async () => {
      const plants = [monstera, alocasia];
      for (let i = 0; i < 3; i++) plants.push((await newPlant(owner)).id);
      const lines = plants.map((plant_id, i) => ({
        id: newId(),
        plant_id,
        list_price: usd(`${10 + i}.00`),
        pricing_tier: i % 2 === 0 ? 'A' : 'B',
      }));
      for (const [i, line] of lines.entries()) {
        await importFile(t, lab.workspaceId, { culture_line_prices: [line] }, minutesIn(i));
      }
      const newest = [...lines].reverse().map((l) => l.id);
      expect(ids(await prices())).toEqual(newest);
      expect(ids(await prices(`?plant_id=${alocasia}`))).toEqual([lines[1]!.id]);
      expect(ids(await prices('?pricing_tier=A'))).toEqual([
        lines[4]!.id,
        lines[2]!.id,
        lines[0]!.id,
      ]);
      expect(ids(await prices('?pricing_tier=a'))).toEqual([]);
      expect(ids(await prices(`?pricing_tier=B&plant_id=${monstera}`))).toEqual([]);
      const withoutPrice = (await newPlant(owner)).id;
      expect(ids(await prices(`?plant_id=${withoutPrice}`))).toEqual([]);
      expect((await listAll(owner, '/api/v1/pricing/culture-lines', 2)).map((p) => p.id)).toEqual(
        newest,
      );
      expect(ids(await prices('?limit=2&offset=1'))).toEqual(newest.slice(1, 3));
      const firstPage = body(await prices('?limit=2&pricing_tier=A'));
      expectError(
        await prices(`?limit=2&cursor=${encodeURIComponent(firstPage.meta.next_cursor)}`),
        422,
        'INVALID_CURSOR',
      );
      expectError(await prices('?pricing_tier='), 422, 'VALIDATION_ERROR', /^pricing_tier:/);
      expectError(
        await prices(`?pricing_tier=${'x'.repeat(41)}`),
        422,
        'VALIDATION_ERROR',
        /^pricing_tier:/,
      );
      expectError(await prices('?plant_id=nope'), 422, 'VALIDATION_ERROR', /^plant_id:/);
    });

    it('answers a plant_id of another workspace exactly as a random one (404)', async () => {
      const other = await createLab(t.database, { name: 'Other lab' });
      const theirPlant = (await newPlant(client(t, other.owner))).id;
      await importFile(t, other.workspaceId, {
        culture_line_prices: [{ plant_id: theirPlant, list_price: usd('1.00') }],
        price_events: [{ plant_id: theirPlant, list_price: usd('1.00'), changed_at: minutesIn(1) }],
      });
      const reference = await prices(`?plant_id=${randomId()}`);
      expectError(reference, 404, 'NOT_FOUND', /^Plant not found$/);
      expectSameAnswer(await prices(`?plant_id=${theirPlant}`), reference, 404, 'NOT_FOUND');
      const eventsReference = await priceEvents(`?plant_id=${randomId()}`);
      expectSameAnswer(
        await priceEvents(`?plant_id=${theirPlant}`),
        eventsReference,
        404,
        'NOT_FOUND',
      );
      expect(dataOf(await prices(), 200)).toEqual([]);
      expect(dataOf(await priceEvents(), 200)).toEqual([]);
    });
  });

  describe('GET /pricing/events', () => {
    it('answers every field; the previous price may be in another currency', async () => {
      const id = newId();
      await importFile(t, lab.workspaceId, {
        price_events: [
          {
            id,
            plant_id: monstera,
            list_price: usd('6.50'),
            previous_list_price: { amount: '5.90', currency: 'EUR' },
            price_source: 'store_adopted',
            changed_at: '2026-11-03T10:00:00+01:00',
          },
        ],
      });
      const [event] = dataOf(await priceEvents(), 200) as Json[];
      expect(keysOf(event)).toEqual(PRICE_EVENT_KEYS);
      expect(event).toEqual({
        id,
        plant_id: monstera,
        list_price: { amount: '6.50', currency: 'USD' },
        previous_list_price: { amount: '5.90', currency: 'EUR' },
        price_source: 'store_adopted',
        changed_by: null,
        changed_at: '2026-11-03T09:00:00.000Z',
      });
    });

    it('lists newest first by changed_at, ties in a fixed order, filtered by plant and window', async () => {
      const events = [
        { plant: monstera, minute: 10 },
        { plant: alocasia, minute: 20 },
        { plant: monstera, minute: 30 },
        { plant: alocasia, minute: 30 },
        { plant: monstera, minute: 40 },
      ].map(({ plant, minute }) => ({
        id: newId(),
        plant_id: plant,
        list_price: usd(`${minute}.00`),
        changed_at: minutesIn(minute),
      }));
      await importFile(t, lab.workspaceId, { price_events: events });
      const tied = [events[2]!.id, events[3]!.id].sort().reverse();
      const newest = [events[4]!.id, ...tied, events[1]!.id, events[0]!.id];
      expect(ids(await priceEvents())).toEqual(newest);
      expect((await listAll(owner, '/api/v1/pricing/events', 2)).map((e) => e.id)).toEqual(newest);
      expect(ids(await priceEvents(`?plant_id=${monstera}`))).toEqual([
        events[4]!.id,
        events[2]!.id,
        events[0]!.id,
      ]);

      const from = encodeURIComponent(minutesIn(20));
      const to = encodeURIComponent(minutesIn(30));
      expect(ids(await priceEvents(`?from=${from}&to=${to}`))).toEqual([...tied, events[1]!.id]);
      expect(ids(await priceEvents(`?from=${to}&to=${to}`))).toEqual(tied);
      expect(ids(await priceEvents(`?from=${to}&to=${to}&plant_id=${alocasia}`))).toEqual([
        events[3]!.id,
      ]);
      const afterEdge = encodeURIComponent('2026-11-01T00:30:00.001Z');
      const beforeEdge = encodeURIComponent('2026-11-01T00:19:59.999Z');
      expect(ids(await priceEvents(`?from=${afterEdge}`))).toEqual([events[4]!.id]);
      expect(ids(await priceEvents(`?to=${beforeEdge}`))).toEqual([events[0]!.id]);
      expectError(
        await priceEvents(`?from=${to}&to=${from}`),
        422,
        'VALIDATION_ERROR',
        /^from: must not be later than to/,
      );
      expectError(await priceEvents('?to=yesterday'), 422, 'VALIDATION_ERROR', /^to:/);
      expectError(await priceEvents('?offset=1&cursor=abc'), 422, 'VALIDATION_ERROR');
    });
  });

  describe('access and the pricing feature', () => {
    it('needs a manager (read:pricing); members and below get 403 naming the role', async () => {
      await importFile(t, lab.workspaceId, {
        culture_line_prices: [{ plant_id: monstera, list_price: usd('1.00') }],
      });
      for (const role of ['guest', 'viewer', 'member'] as const) {
        const weak = client(t, await lab.actor(role));
        expectError(await prices('', weak), 403, 'FORBIDDEN', /manager role/);
        expectError(await priceEvents('', weak), 403, 'FORBIDDEN', /manager role/);
      }
      const manager = client(t, await lab.actor('manager'));
      expect(dataOf(await prices('', manager), 200)).toHaveLength(1);
      const unscoped = client(t, await lab.actor('owner', { scopes: ['read:commerce'] }));
      expectError(await prices('', unscoped), 403, 'FORBIDDEN', /read:pricing/);
      const device = client(t, await lab.deviceToken());
      expectError(await prices('', device), 403, 'DEVICE_TOKEN_NOT_ACCEPTED');
    });

    it('answers 402 FEATURE_NOT_INCLUDED while pricing is off, before any other check', async () => {
      await setFeatures(t, lab.workspaceId, ['commerce', 'equipment_calibration']);
      expectError(await prices(), 402, 'FEATURE_NOT_INCLUDED', /pricing/);
      expectError(await priceEvents(), 402, 'FEATURE_NOT_INCLUDED', /pricing/);
      expectError(await prices(`?plant_id=${randomId()}`), 402, 'FEATURE_NOT_INCLUDED');
      expectError(await priceEvents('?from=x'), 402, 'FEATURE_NOT_INCLUDED');
      await setFeatures(t, lab.workspaceId, ['pricing']);
      expect(dataOf(await prices(), 200)).toEqual([]);
    });

    it('is refused on the devices-only plans', async () => {
      const small = await createLab(t.database, { plan: 'pro_lab', name: 'Small lab' });
      expectError(await prices('', client(t, small.owner)), 402, 'PAID_PLAN_REQUIRED');
    });
  });

  it('reads the same after the same file is imported again', async () => {
    const file = {
      culture_line_prices: [
        { plant_id: monstera, list_price: usd('45.00'), wholesale_price: usd('28.00') },
        { plant_id: alocasia, list_price: usd('24.00'), pricing_tier: 'B' },
      ],
      price_events: [
        { plant_id: monstera, list_price: usd('45.00'), changed_at: minutesIn(5) },
        {
          plant_id: alocasia,
          list_price: usd('24.00'),
          previous_list_price: usd('22.00'),
          changed_at: minutesIn(6),
        },
      ],
    };
    await importFile(t, lab.workspaceId, file, minutesIn(10));
    const before = [dataOf(await prices(), 200), dataOf(await priceEvents(), 200)];
    await importFile(t, lab.workspaceId, structuredClone(file), minutesIn(20));
    expect([dataOf(await prices(), 200), dataOf(await priceEvents(), 200)]).toEqual(before);
    expect(before[0]).toHaveLength(2);
    expect(before[1]).toHaveLength(2);
  });
});
