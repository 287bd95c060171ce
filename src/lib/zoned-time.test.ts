import { describe, expect, it } from 'vitest';
import { localDate, startOfDay, startOfNextDay, wallClock } from './zoned-time.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('days in a time zone', () => {
  it('starts a day at local midnight', () => {
    expect(iso(startOfDay(at('2026-12-01T15:00:00Z'), 'UTC'))).toBe('2026-12-01T00:00:00.000Z');
    // Paris is UTC+1 in winter: 00:30 local on 2 December is 23:30 UTC on the 1st.
    expect(iso(startOfDay(at('2026-12-01T23:30:00Z'), 'Europe/Paris'))).toBe(
      '2026-12-01T23:00:00.000Z',
    );
    expect(iso(startOfDay(at('2026-12-01T10:00:00Z'), 'America/New_York'))).toBe(
      '2026-12-01T05:00:00.000Z',
    );
    expect(localDate(at('2026-12-01T23:30:00Z'), 'Europe/Paris')).toBe('2026-12-02');
    expect(wallClock(at('2026-12-01T23:30:00Z'), 'Europe/Paris').slice(3, 5)).toEqual([0, 30]);
  });

  it('counts days across a change of offset', () => {
    // Paris leaves summer time on 25 October 2026: that day has 25 hours.
    const day = at('2026-10-25T12:00:00Z');
    expect(iso(startOfDay(day, 'Europe/Paris'))).toBe('2026-10-24T22:00:00.000Z');
    expect(iso(startOfNextDay(day, 'Europe/Paris'))).toBe('2026-10-25T23:00:00.000Z');
    // A zone far ahead of UTC: noon UTC on 31 December is 2 a.m. on 1 January there.
    expect(localDate(at('2026-12-31T12:00:00Z'), 'Pacific/Kiritimati')).toBe('2027-01-01');
    expect(iso(startOfNextDay(at('2026-12-31T12:00:00Z'), 'Pacific/Kiritimati'))).toBe(
      '2027-01-01T10:00:00.000Z',
    );
  });
});
