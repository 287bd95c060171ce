import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { outOfRange, PLAUSIBLE_RANGES, plausibleRange } from './plausible.js';

describe('plausible sensor ranges', () => {
  it('flags values no sensor of the type can report, in any spelling of a known unit', () => {
    expect(outOfRange('humidity', '%', 250)).toBe(true);
    expect(outOfRange('humidity', '% RH', 100)).toBe(false);
    expect(outOfRange('humidity', '%', -0.1)).toBe(true);
    expect(outOfRange('temperature', 'C', -120)).toBe(true);
    expect(outOfRange('temperature', '°C', 35)).toBe(false);
    expect(outOfRange('temperature', 'F', 150)).toBe(false);
    expect(outOfRange('temperature', 'celsius', 150)).toBe(true);
    expect(outOfRange('ph', 'PH', 14.5)).toBe(true);
    expect(outOfRange('co2', 'ppm', 400, 100_001)).toBe(true);
    expect(outOfRange('light', 'lx', 120_000)).toBe(false);
    // An unknown unit, and the type other, are never flagged.
    expect(outOfRange('temperature', 'mV', 1e9)).toBe(false);
    expect(outOfRange('other', '%', 1e9)).toBe(false);
    expect(plausibleRange('temperature', 'degC')).toMatchObject({ unit: '°C', min: -50 });
  });

  it('are the ranges docs/readings.md lists', () => {
    const doc = readFileSync(new URL('../../../docs/readings.md', import.meta.url), 'utf8');
    const number = (n: number) => n.toLocaleString('en-US').replace('-', '−');
    for (const range of PLAUSIBLE_RANGES) {
      const row = doc
        .split('\n')
        .find(
          (line) => line.startsWith(`| \`${range.type}\``) && line.includes(`\`${range.unit}\``),
        );
      expect(row, `${range.type} in ${range.unit}`).toBeDefined();
      expect(row).toContain(`${number(range.min)} to ${number(range.max)}`);
    }
  });
});
