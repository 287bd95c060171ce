import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecimalSum, formatDecimal, parseDecimal } from './money.js';

describe('exact decimal money', () => {
  it('parses and formats decimal strings without changing them', () => {
    for (const text of [
      '0',
      '18.50',
      '-0.10',
      '0.001',
      '123456789012345678901234567890.123456789',
    ]) {
      expect(formatDecimal(parseDecimal(text))).toBe(text);
    }
    expect(parseDecimal('18.50')).toEqual({ units: 1850n, scale: 2 });
    expect(parseDecimal('-7')).toEqual({ units: -7n, scale: 0 });
    expect(formatDecimal({ units: -5n, scale: 3 })).toBe('-0.005');
  });

  it('refuses what is not an exact decimal', () => {
    for (const text of ['', '1e3', '1.', '.5', '+1', '1,5', 'NaN', ' 1']) {
      expect(() => parseDecimal(text), text).toThrow(/not an exact decimal/);
    }
  });

  it('sums quantity × amount at the largest scale seen', () => {
    const sum = new DecimalSum();
    expect(sum.total).toBe('0');
    sum.add('18.5', 2);
    expect(sum.total).toBe('37.0');
    sum.add('0.125', 3);
    expect(sum.total).toBe('37.375');
    sum.add('-37', 1);
    expect(sum.total).toBe('0.375');
    sum.add('-0.5');
    expect(sum.total).toBe('-0.125');
  });

  it('agrees with integer arithmetic on any amounts (property)', () => {
    const amount = fc
      .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 6 }))
      .map(([units, scale]) => ({ units, scale }));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(amount, fc.integer({ min: 0, max: 1_000_000 })), { maxLength: 30 }),
        (terms) => {
          const sum = new DecimalSum();
          let exact = 0n;
          for (const [value, quantity] of terms) {
            sum.add(formatDecimal(value), quantity);
            exact += value.units * 10n ** BigInt(6 - value.scale) * BigInt(quantity);
          }
          const scale = Math.max(0, ...terms.map(([value]) => value.scale));
          const total = parseDecimal(sum.total);
          expect(total.scale).toBe(scale);
          expect(total.units * 10n ** BigInt(6 - scale)).toBe(exact);
        },
      ),
    );
  });
});
