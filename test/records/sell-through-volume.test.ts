import { beforeAll, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import type { OrderLineTable } from '../../src/db/schema.js';
import { dataOf, type Json, newPlant } from '../support/helpers.js';
import { minutesIn } from './library.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

const LINES = 100_000;
const SCALE = 4;

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The test's own exact arithmetic: an amount as an integer at scale 4, and its scale. */
function atScale4(amount: string): { units: bigint; scale: number } {
  const [whole, fraction = ''] = amount.split('.');
  return { units: BigInt(`${whole}${fraction.padEnd(SCALE, '0')}`), scale: fraction.length };
}

function format(units: bigint, scale: number): string {
  const reduced = units / 10n ** BigInt(SCALE - scale);
  expect(reduced * 10n ** BigInt(SCALE - scale)).toBe(units);
  const negative = reduced < 0n;
  const digits = (negative ? -reduced : reduced).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

interface Expected {
  plant_id: string | null;
  currency: string | null;
  units: number;
  revenue: bigint;
  scale: number;
  float: number;
  order_line_count: number;
  priced_line_count: number;
  first_occurred_at: string | null;
  last_occurred_at: string | null;
}

function expectedGroups(
  rows: readonly OrderLineTable[],
  window: { from: string; to: string } | null,
): Map<string, Expected> {
  const groups = new Map<string, Expected>();
  for (const row of rows) {
    if (
      window !== null &&
      (row.occurred_at === null || row.occurred_at < window.from || row.occurred_at > window.to)
    ) {
      continue;
    }
    const key = `${row.plant_id}|${row.unit_currency}`;
    const group = groups.get(key) ?? {
      plant_id: row.plant_id,
      currency: row.unit_currency,
      units: 0,
      revenue: 0n,
      scale: 0,
      float: 0,
      order_line_count: 0,
      priced_line_count: 0,
      first_occurred_at: null,
      last_occurred_at: null,
    };
    group.units += row.quantity;
    group.order_line_count += 1;
    if (row.unit_amount !== null) {
      const amount = atScale4(row.unit_amount);
      group.revenue += amount.units * BigInt(row.quantity);
      group.scale = Math.max(group.scale, amount.scale);
      group.float += Number(row.unit_amount) * row.quantity;
      group.priced_line_count += 1;
    }
    if (row.occurred_at !== null) {
      if (group.first_occurred_at === null || row.occurred_at < group.first_occurred_at) {
        group.first_occurred_at = row.occurred_at;
      }
      if (group.last_occurred_at === null || row.occurred_at > group.last_occurred_at) {
        group.last_occurred_at = row.occurred_at;
      }
    }
    groups.set(key, group);
  }
  return groups;
}

describeOnDatabases('Sell-through over 100,000 lines', (target) => {
  const { t, lab, owner } = labSuite(target, {}, { shared: true });
  let rows: OrderLineTable[];
  beforeAll(async () => {
    const plants: (string | null)[] = [null];
    for (const species of ['Monstera deliciosa', 'Alocasia', 'Musa acuminata']) {
      plants.push((await newPlant(owner, { species })).id);
    }
    const next = random(20261123);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
    const amount = () => {
      const scale = Math.floor(next() * (SCALE + 1));
      // Mostly shop prices; one in a hundred beyond what a double holds exactly.
      const whole =
        next() < 0.01
          ? `${9_007_199_254_740_993n + BigInt(Math.floor(next() * 1e9))}`
          : String(Math.floor(next() * 1000));
      const fraction =
        scale === 0 ? '' : `.${String(Math.floor(next() * 10 ** scale)).padStart(scale, '0')}`;
      return `${whole}${fraction}`;
    };
    rows = [];
    for (let i = 0; i < LINES; i++) {
      const priced = next() >= 0.02;
      const occurredAt = next() < 0.01 ? null : minutesIn(Math.floor(next() * 43_200));
      rows.push({
        id: newId(),
        workspace_id: lab.workspaceId,
        plant_id: pick(plants),
        product_link_id: null,
        store_product_id: null,
        store_variant_id: null,
        quantity: 1 + Math.floor(next() * 50),
        unit_amount: priced ? amount() : null,
        unit_currency: priced ? pick(['USD', 'EUR', 'JPY']) : null,
        occurred_at: occurredAt,
        occurred_key: occurredAt ?? '',
        created_at: minutesIn(0),
      });
    }
    for (let i = 0; i < rows.length; i += 1000) {
      await t.database.db
        .insertInto('order_lines')
        .values(rows.slice(i, i + 1000))
        .execute();
    }
  }, 300_000);

  const check = (answer: Json[], expected: Map<string, Expected>) => {
    expect(answer).toHaveLength(expected.size);
    let drifted = 0;
    for (const group of answer) {
      const want = expected.get(`${group.plant_id}|${group.currency}`)!;
      expect(group).toEqual({
        plant_id: want.plant_id,
        currency: want.currency,
        units: want.units,
        revenue: { amount: format(want.revenue, want.scale), currency: want.currency },
        order_line_count: want.order_line_count,
        priced_line_count: want.priced_line_count,
        first_occurred_at: want.first_occurred_at,
        last_occurred_at: want.last_occurred_at,
      });
      if (want.priced_line_count > 0 && want.float.toFixed(want.scale) !== group.revenue.amount) {
        drifted += 1;
      }
    }
    // The data is such that summing doubles would have drifted: the check has teeth.
    expect(drifted).toBeGreaterThan(0);
    const units = answer.map((g) => g.units as number);
    expect(units).toEqual([...units].sort((a, b) => b - a));
  };

  it('sums every group exactly, per plant and currency, highest units first', async () => {
    const answer = dataOf(await owner.get('/api/v1/commerce/sell-through?limit=200'), 200);
    // 3 plants and lines without one, × 3 currencies and lines without a price.
    expect(answer).toHaveLength(16);
    check(answer, expectedGroups(rows, null));
  }, 60_000);

  it('sums a window exactly, both edges inclusive', async () => {
    // Edges where lines are: they must be in, and the lines a millisecond outside out.
    const times = [...new Set(rows.map((r) => r.occurred_at).filter((x) => x !== null))].sort();
    const window = { from: times[1_000]!, to: times[20_000]! };
    expect(rows.filter((r) => r.occurred_at === window.from).length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.occurred_at === window.to).length).toBeGreaterThan(0);
    const answer = dataOf(
      await owner.get(
        `/api/v1/commerce/sell-through?limit=200&from=${encodeURIComponent(window.from)}&to=${encodeURIComponent(window.to)}`,
      ),
      200,
    );
    check(answer, expectedGroups(rows, window));
  }, 60_000);
});
