import { describe, expect, it } from 'vitest';
import { wilsonInterval } from './wilson.js';

describe('wilsonInterval', () => {
  // Newcombe (1998), "Two-sided confidence intervals for the single proportion",
  // Statistics in Medicine 17:857-872, Table I, method 3 (score interval without
  // continuity correction), to four decimals.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i of %i: %f to %f, as published', (x, n, low, high) => {
    const interval = wilsonInterval(x, n)!;
    expect(interval.low).toBeCloseTo(low, 4);
    expect(interval.high).toBeCloseTo(high, 4);
  });

  it('is symmetric around a half, reaches 1 at n of n, and is null without trials', () => {
    const all = wilsonInterval(20, 20)!;
    expect(all.high).toBe(1);
    expect(all.low).toBeCloseTo(1 - 0.1611, 4);
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});
