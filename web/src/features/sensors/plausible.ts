import { PLAUSIBLE_RANGES } from '../../api/ranges';

/** What a sensor of this type can report in this unit (as the API reads units), if known. */
export function plausibleRange(type: string, unit: string) {
  const spelt = unit.replace(/\s+/g, '').toLowerCase();
  return PLAUSIBLE_RANGES.find((r) => r.type === type && r.spellings.includes(spelt)) ?? null;
}

/** Whether a value is one no sensor of its type can report (stored, but not the room's value). */
export function implausible(type: string, unit: string, value: number): boolean {
  const range = plausibleRange(type, unit);
  return range !== null && (value < range.min || value > range.max);
}
