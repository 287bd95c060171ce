import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.js';

describe('isoTime', () => {
  it('writes what toISOString writes, in and out of order, across days and years', () => {
    let seed = 11;
    const next = () => (seed = (seed * 48271) % 2147483647);
    const times = [
      0,
      1,
      86_399_999,
      86_400_000,
      Date.parse('2024-02-29T23:59:59.999Z'),
      Date.parse('9999-12-31T23:59:59.999Z'),
      253_402_300_800_000, // 10000-01-01: six-digit years from here
      -1,
      -86_400_001,
      1.5,
    ];
    for (let i = 0; i < 50_000; i++) times.push((next() * 131_071 + next()) % 253_402_400_000_000);
    // Runs of nearby times (a summary's buckets) as well as jumps.
    let at = Date.parse('2026-11-26T23:00:00.000Z');
    for (let i = 0; i < 5_000; i++) times.push((at += next() % 400_000));
    for (const ms of times) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });
});
