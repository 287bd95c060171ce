import { describe, expect, it } from 'vitest';
import {
  addDecimalTexts,
  decimalOfValue,
  ExactSum,
  formatDecimal,
  meanOf,
  parseDecimal,
  roundedQuotient,
} from './exact-sum.js';

/** The exact value of a double as a fraction: numerator / 2^-exponent (a slow, plain reference). */
function binaryFraction(value: number): { num: bigint; den: bigint } {
  if (value === 0) return { num: 0n, den: 1n };
  let scaled = Math.abs(value);
  let den = 1n;
  while (!Number.isInteger(scaled)) {
    scaled *= 2;
    den *= 2n;
  }
  return { num: BigInt(scaled) * (value < 0 ? -1n : 1n), den };
}

/** A few thousand doubles of every kind: sensor-like decimals, tiny, huge, subnormal. */
function sampleValues(): number[] {
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const values = [
    0,
    -0,
    0.1,
    0.2,
    0.3,
    21.3,
    -40.25,
    1e-7,
    1.5e21,
    123456789.12345679,
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    Number.MIN_VALUE,
    2.2250738585072014e-308,
    2 ** 53 + 2,
    1 / 3,
  ];
  for (let i = 0; i < 2000; i++) {
    values.push(Math.round(random() * 2000 - 1000) / 10);
    values.push((random() - 0.5) * 10 ** Math.floor(random() * 40 - 20));
  }
  return values;
}

describe('exact sums of reading values', () => {
  it('reads a value as the shortest decimal that reads back as it', () => {
    expect(formatDecimal(decimalOfValue(21.3))).toBe('21.3');
    expect(formatDecimal(decimalOfValue(1e-7))).toBe('0.0000001');
    expect(formatDecimal(decimalOfValue(1.5e21))).toBe('1500000000000000000000');
    expect(formatDecimal(decimalOfValue(-0))).toBe('0');
    expect(formatDecimal(parseDecimal('-12.500'))).toBe('-12.5');
    expect(formatDecimal(parseDecimal('1.5E+3'))).toBe('1500');
    expect(() => parseDecimal('12,5')).toThrow(/not a decimal/);
    // (+ 0: -0 reads as 0, as JSON writes it.)
    for (const value of sampleValues()) {
      expect(Number(formatDecimal(decimalOfValue(value)))).toBe(value + 0);
    }
  });

  it('sums exactly, in any order and any grouping, through the fast path and BigInt alike', () => {
    const values = sampleValues();
    const reference = values.reduce(
      (sum, value) => addDecimalTexts(sum, formatDecimal(decimalOfValue(value))),
      '0',
    );
    const forward = new ExactSum();
    for (const value of values) forward.add(value);
    const backward = new ExactSum();
    for (const value of [...values].reverse()) backward.add(value);
    expect(forward.text).toBe(reference);
    expect(backward.text).toBe(reference);
    const halves = [values.slice(0, 1234), values.slice(1234)].map((part) => {
      const sum = new ExactSum();
      for (const value of part) sum.add(value);
      return sum.text;
    });
    expect(addDecimalTexts(halves[0]!, halves[1]!)).toBe(reference);
    const tenths = new ExactSum();
    tenths.add(0.1);
    tenths.add(0.2);
    expect(tenths.text).toBe('0.3');
  });

  it('rounds a quotient once to the nearest double, ties to even, subnormals included', () => {
    // Quotients that are exact doubles come back unchanged.
    for (const value of sampleValues()) {
      const { num, den } = binaryFraction(value);
      expect(roundedQuotient(num * 7n, den * 7n)).toBe(value + 0);
    }
    // A terminating decimal: JavaScript's own parsing rounds it correctly.
    expect(roundedQuotient(1n, 10n)).toBe(0.1);
    expect(roundedQuotient(-2n, 3n)).toBe(-2 / 3);
    expect(roundedQuotient(123456789n, 1000n)).toBe(123456.789);
    // 2^53 + 1 is halfway between two doubles: ties go to the even one (2^53).
    expect(roundedQuotient(2n ** 53n + 1n, 1n)).toBe(2 ** 53);
    expect(roundedQuotient(2n ** 53n + 3n, 1n)).toBe(2 ** 53 + 4);
    // Below the smallest subnormal's half: zero; just above it: the smallest subnormal.
    const { den } = binaryFraction(Number.MIN_VALUE);
    expect(roundedQuotient(1n, den * 2n)).toBe(0);
    expect(roundedQuotient(3n, den * 4n)).toBe(Number.MIN_VALUE);
    expect(() => roundedQuotient(1n, 0n)).toThrow();
  });

  it('takes the mean as the exact sum over the count, rounded once', () => {
    expect(meanOf(parseDecimal('0.3'), 2)).toBe(0.15);
    expect(meanOf(parseDecimal('64.2'), 3)).toBe(21.4);
    expect(meanOf(parseDecimal('1'), 3)).toBe(1 / 3);
    const huge = new ExactSum();
    huge.add(Number.MAX_VALUE);
    huge.add(Number.MAX_VALUE);
    expect(meanOf(huge.decimal, 2)).toBe(Number.MAX_VALUE);
  });

  it('takes the mean in doubles only where that is the same single rounding', () => {
    // Sums and counts on both sides of 2^53 (where meanOf leaves doubles for BigInt),
    // at every scale a sum of readings can have: the answer is roundedQuotient's.
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    const edges = [2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 60n + 3n];
    for (let i = 0; i < 20_000; i++) {
      const scale = next() % 17;
      const count = i % 5 === 0 ? 2 ** 40 + (next() % 1000) : 1 + (next() % 100_000);
      const units =
        i % 3 === 0
          ? edges[next() % edges.length]! - BigInt(next() % 3)
          : BigInt(next()) * BigInt(next() % 4096);
      for (const signed of [units, -units]) {
        const sum = { units: signed, scale };
        const exact = roundedQuotient(signed, BigInt(count) * 10n ** BigInt(scale));
        expect(meanOf(sum, count)).toBe(exact);
      }
    }
  });
});
