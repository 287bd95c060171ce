/**
 * What a sensor of each type can physically report, in each unit devices send it in.
 * A reading outside its range (a humidity of 250 %) is stored as the device sent it,
 * as every reading is; the readings summary and a room's latest readings flag it
 * (`out_of_range`), so nobody takes it for the room’s value. A unit not listed here,
 * and the type `other`, are never flagged. docs/readings.md lists the same ranges.
 */
export interface PlausibleRange {
  readonly type: string;
  /** The unit as the docs write it. */
  readonly unit: string;
  /** The spellings devices send for it, lower case, without spaces. */
  readonly spellings: readonly string[];
  readonly min: number;
  readonly max: number;
}

export const PLAUSIBLE_RANGES: readonly PlausibleRange[] = [
  {
    type: 'temperature',
    unit: '°C',
    spellings: ['°c', 'c', 'degc', 'celsius'],
    min: -50,
    max: 100,
  },
  {
    type: 'temperature',
    unit: '°F',
    spellings: ['°f', 'f', 'degf', 'fahrenheit'],
    min: -58,
    max: 212,
  },
  { type: 'temperature', unit: 'K', spellings: ['k', 'kelvin'], min: 223.15, max: 373.15 },
  { type: 'humidity', unit: '%', spellings: ['%', '%rh', 'rh', 'percent'], min: 0, max: 100 },
  { type: 'ph', unit: 'pH', spellings: ['ph'], min: 0, max: 14 },
  { type: 'co2', unit: 'ppm', spellings: ['ppm'], min: 0, max: 100_000 },
  { type: 'light', unit: 'lux', spellings: ['lux', 'lx'], min: 0, max: 200_000 },
];

/** The range of a type in a unit as sent (`C`, `°C`, `%RH`), or null when none is known. */
export function plausibleRange(type: string, unit: string): PlausibleRange | null {
  const spelt = unit.replace(/\s+/g, '').toLowerCase();
  return (
    PLAUSIBLE_RANGES.find((range) => range.type === type && range.spellings.includes(spelt)) ?? null
  );
}

/** Whether any of `values` lies outside what a sensor of this type can report. */
export function outOfRange(type: string, unit: string, ...values: number[]): boolean {
  const range = plausibleRange(type, unit);
  return range !== null && values.some((value) => value < range.min || value > range.max);
}
