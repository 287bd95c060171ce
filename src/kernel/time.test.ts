import { describe, expect, it } from 'vitest';
import { parseZonedTimestamp } from './time.js';

const iso = (value: string) => parseZonedTimestamp(value)?.toISOString() ?? null;

describe('parseZonedTimestamp', () => {
  it('accepts UTC with milliseconds as it is', () => {
    expect(iso('2026-11-24T01:02:03.456Z')).toBe('2026-11-24T01:02:03.456Z');
    expect(iso('2024-02-29T23:59:59.999Z')).toBe('2024-02-29T23:59:59.999Z');
  });

  it('refuses impossible calendar times in that form too', () => {
    expect(iso('2026-02-29T00:00:00.000Z')).toBeNull();
    expect(iso('2026-02-31T00:00:00.000Z')).toBeNull();
    expect(iso('2026-13-01T00:00:00.000Z')).toBeNull();
    expect(iso('2026-04-31T10:00:00.000Z')).toBeNull();
    expect(iso('2026-01-01T25:00:00.000Z')).toBeNull();
  });

  it('treats other spellings as before: offsets, no milliseconds, more digits, 24:00', () => {
    expect(iso('2026-11-24T03:02:03+02:00')).toBe('2026-11-24T01:02:03.000Z');
    expect(iso('2026-11-24T01:02:03Z')).toBe('2026-11-24T01:02:03.000Z');
    expect(iso('2026-11-24T01:02:03.456789Z')).toBe('2026-11-24T01:02:03.456Z');
    expect(iso('2026-01-01T24:00:00.000Z')).toBe('2026-01-02T00:00:00.000Z');
    expect(iso('2026-11-24 01:02:03.456Z')).toBeNull();
    expect(iso('2026-11-24T01:02:03.456')).toBeNull();
  });
});
