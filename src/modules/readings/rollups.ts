import {
  addDecimals,
  ExactSum,
  formatDecimal,
  parseDecimal,
  type Decimal,
} from '../../lib/exact-sum.js';
import type { SensorRollupTable } from '../../db/schema.js';
import type { ReadingRow } from './readings.repository.js';

/**
 * Rollups: per device, room, type and unit, the count, min, max, exact sum and
 * last value of the readings of each minute (span 1), each five minutes (span 5)
 * and each hour (span 60).
 * Kept in the transaction that stores the readings, from the rows it stored (a
 * repeat the dedupe skipped is not counted), so they always agree with the raw
 * readings; a summary reads them instead of the raw rows.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MINUTES = 60;
/**
 * The rollups' spans, finest first; each divides the next. Five minutes serves
 * 5- and 15-minute buckets (a day's chart reads 288 rows of a device, not 1,440).
 */
export const ROLLUP_SPANS = [1, 5, HOUR_MINUTES] as const;
export type Span = (typeof ROLLUP_SPANS)[number];

/** `room_key` of readings without a room (the key's columns cannot be null). */
export const NO_ROOM = '00000000-0000-0000-0000-000000000000';

/** The running figures of a set of readings; mergeable. */
export interface Figures {
  count: number;
  min: number;
  max: number;
  sum: Decimal;
  /** The last reading: the greatest recorded_at (epoch ms), then the greatest id. */
  lastAt: number;
  lastId: string;
  lastValue: number;
}

/** Whether (at, id) comes after the figures' last reading. */
export const isLater = (figures: Figures, at: number, id: string): boolean =>
  at > figures.lastAt || (at === figures.lastAt && id > figures.lastId);

export function mergeFigures(into: Figures, from: Figures): void {
  into.count += from.count;
  if (from.min < into.min) into.min = from.min;
  if (from.max > into.max) into.max = from.max;
  into.sum = addDecimals(into.sum, from.sum);
  if (isLater(into, from.lastAt, from.lastId)) {
    into.lastAt = from.lastAt;
    into.lastId = from.lastId;
    into.lastValue = from.lastValue;
  }
}

/**
 * One row of `sensor_rollups`: `minute` is the start of the minute or hour in minutes
 * since 1970-01-01T00:00Z, `value_sum` exact decimal text (see lib/exact-sum.ts).
 */
export type RollupRow = Omit<SensorRollupTable, 'span_minutes'> & { span_minutes: Span };

interface Group {
  row: Omit<
    RollupRow,
    'reading_count' | 'min_value' | 'max_value' | 'value_sum' | 'last_at' | 'last_id' | 'last_value'
  >;
  count: number;
  min: number;
  max: number;
  sum: ExactSum;
  lastRecordedAt: string;
  lastId: string;
  lastValue: number;
}

/**
 * The minute, five-minute and hour rollup rows of readings just stored, one per key, in key
 * order. Times compare as their canonical ISO text (what the readings carry);
 * each minute's start and last time are parsed once.
 */
export function rollupRowsOf(rows: readonly ReadingRow[]): RollupRow[] {
  const minutes = new Map<string, Group>();
  let previous: ReadingRow | null = null;
  let group: Group | undefined;
  /** The current group's minute: canonical ISO text, its first 16 characters. */
  let minuteText = '';
  for (const reading of rows) {
    // Most readings of a batch continue the previous one's group (a device's run).
    if (
      previous === null ||
      group === undefined ||
      reading.device_id !== previous.device_id ||
      reading.room_id !== previous.room_id ||
      reading.type !== previous.type ||
      reading.unit !== previous.unit ||
      !reading.recorded_at.startsWith(minuteText)
    ) {
      minuteText = reading.recorded_at.slice(0, 16);
      const room = reading.room_id ?? NO_ROOM;
      const key = `${reading.device_id}|${room}|${reading.type}|${reading.unit}|${minuteText}`;
      group = minutes.get(key);
      if (group === undefined) {
        group = {
          row: {
            workspace_id: reading.workspace_id,
            device_id: reading.device_id,
            span_minutes: 1,
            minute: Date.parse(`${minuteText}:00.000Z`) / MINUTE_MS,
            type: reading.type,
            unit: reading.unit,
            room_key: room,
          },
          count: 0,
          min: reading.value,
          max: reading.value,
          sum: new ExactSum(),
          lastRecordedAt: reading.recorded_at,
          lastId: reading.id,
          lastValue: reading.value,
        };
        minutes.set(key, group);
      }
    }
    previous = reading;
    group.count += 1;
    if (reading.value < group.min) group.min = reading.value;
    if (reading.value > group.max) group.max = reading.value;
    group.sum.add(reading.value);
    if (
      reading.recorded_at > group.lastRecordedAt ||
      (reading.recorded_at === group.lastRecordedAt && reading.id > group.lastId)
    ) {
      group.lastRecordedAt = reading.recorded_at;
      group.lastId = reading.id;
      group.lastValue = reading.value;
    }
  }

  const out: RollupRow[] = [];
  /** The coarser spans' rows, made from the minutes' (exact sums add up exactly). */
  const coarser = new Map<string, RollupRow>();
  for (const group of minutes.values()) {
    const minuteRow: RollupRow = {
      ...group.row,
      reading_count: group.count,
      min_value: group.min,
      max_value: group.max,
      value_sum: group.sum.text,
      last_at: Date.parse(group.lastRecordedAt),
      last_id: group.lastId,
      last_value: group.lastValue,
    };
    out.push(minuteRow);
    for (const span of ROLLUP_SPANS) {
      if (span === 1) continue;
      const start = minuteRow.minute - modulo(minuteRow.minute, span);
      const key = `${minuteRow.device_id}|${minuteRow.room_key}|${minuteRow.type}|${minuteRow.unit}|${span}|${start}`;
      const row = coarser.get(key);
      if (row === undefined) {
        coarser.set(key, { ...minuteRow, span_minutes: span, minute: start });
      } else {
        const figures = figuresOf(row);
        mergeFigures(figures, figuresOf(minuteRow));
        Object.assign(row, rowFigures(figures));
      }
    }
  }
  out.push(...coarser.values());
  return out.sort(compareKeys);
}

/** x mod m, never negative (minutes before 1970 are negative). */
export const modulo = (x: number, m: number): number => ((x % m) + m) % m;

export function figuresOf(
  row: Pick<
    RollupRow,
    'reading_count' | 'min_value' | 'max_value' | 'value_sum' | 'last_at' | 'last_id' | 'last_value'
  >,
): Figures {
  return {
    count: row.reading_count,
    min: row.min_value,
    max: row.max_value,
    sum: parseDecimal(row.value_sum),
    lastAt: row.last_at,
    lastId: row.last_id,
    lastValue: row.last_value,
  };
}

function rowFigures(figures: Figures) {
  return {
    reading_count: figures.count,
    min_value: figures.min,
    max_value: figures.max,
    value_sum: formatDecimal(figures.sum),
    last_at: figures.lastAt,
    last_id: figures.lastId,
    last_value: figures.lastValue,
  };
}

/** Key order (device, span, minute, type, unit, room): upserts lock rows in one order. */
function compareKeys(a: RollupRow, b: RollupRow): number {
  return (
    compare(a.device_id, b.device_id) ||
    a.span_minutes - b.span_minutes ||
    a.minute - b.minute ||
    compare(a.type, b.type) ||
    compare(a.unit, b.unit) ||
    compare(a.room_key, b.room_key)
  );
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
