import { describe, expect, it } from 'vitest';
import { itemFor, scaleComponents } from '../../web/src/features/media/model.js';
import { lotState, type StockItem, type StockLot } from '../../web/src/features/stock/model.js';

const component = (name: string, qty: string, unit: string | null) => ({
  id: name,
  name,
  qty,
  unit,
  concentration: null,
});

describe('a new batch scaled to its volume', () => {
  it('scales amounts per litre or millilitre, keeps plain amounts, leaves non-numbers to fill in', () => {
    const scaled = scaleComponents(
      [
        component('MS salts', '4.4', 'g/L'),
        component('BAP', '1.5', 'mg/L'),
        component('Vitamins', '10', 'µL/mL'),
        component('Charcoal', '2', 'g'),
        component('Coconut water', 'to taste', 'mL/L'),
        component('Sucrose', '30,5', 'g / L'),
        component('Water', '1', null),
      ],
      500,
    );
    expect(scaled.map((c) => [c.name, c.amount, c.unit, c.written])).toEqual([
      ['MS salts', '2.2', 'g', '4.4 g/L'],
      ['BAP', '0.75', 'mg', '1.5 mg/L'],
      ['Vitamins', '5000', 'µL', '10 µL/mL'],
      ['Charcoal', '2', 'g', '2 g'],
      ['Coconut water', '', 'mL', 'to taste mL/L'],
      ['Sucrose', '15.25', 'g', '30,5 g / L'],
      ['Water', '1', '', '1'],
    ]);
    // No volume yet: per-volume amounts wait for one.
    expect(scaleComponents([component('Agar', '7', 'g/L')], 0)[0]!.amount).toBe('');
    // Four significant digits, without a float's tail.
    expect(scaleComponents([component('Agar', '7', 'g/L')], 333)[0]!.amount).toBe('2.331');
  });

  it("finds a component's stock item by name, any case, else by a name held in the other", () => {
    const items = [{ name: 'Plant agar' }, { name: 'sucrose' }, { name: 'MS' }];
    expect(itemFor('Sucrose', items)?.name).toBe('sucrose');
    expect(itemFor('Agar', items)?.name).toBe('Plant agar');
    expect(itemFor('MS basal salts', items)?.name).toBe('MS');
    expect(itemFor('Gelrite', items)).toBeUndefined();
  });
});

describe("a stock lot's state", () => {
  const item = { unit: 'g', reorder_level: 100 } as StockItem;
  const lot = (fields: Partial<StockLot>) =>
    ({
      quantity: 500,
      unit: 'g',
      expires_on: null,
      low_task_id: null,
      ...fields,
    }) as StockLot;
  const now = Date.parse('2026-11-29T12:00:00Z');

  it('says expired, low, expiring, empty or in stock, on the day in UTC', () => {
    expect(lotState(lot({}), item, now)).toBe('ok');
    expect(lotState(lot({ expires_on: '2026-11-28' }), item, now)).toBe('expired');
    // The last day is still a day it may be used, and within a month it is expiring.
    expect(lotState(lot({ expires_on: '2026-11-29' }), item, now)).toBe('expiring');
    expect(lotState(lot({ expires_on: '2026-12-29' }), item, now)).toBe('expiring');
    expect(lotState(lot({ expires_on: '2026-12-30' }), item, now)).toBe('ok');
    expect(lotState(lot({ quantity: 99 }), item, now)).toBe('low');
    // In another unit only the API's own judgement (its reorder task) says low.
    expect(lotState(lot({ quantity: 99, unit: 'kg' }), item, now)).toBe('ok');
    expect(lotState(lot({ quantity: 0.05, unit: 'kg', low_task_id: 'x' }), item, now)).toBe('low');
    // Empty is nothing to replace, even past its date.
    expect(lotState(lot({ quantity: 0, expires_on: '2020-01-01' }), item, now)).toBe('empty');
  });
});
