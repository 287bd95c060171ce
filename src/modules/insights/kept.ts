import type { InsightDailyTable, InsightHandlingTable } from '../../db/schema.js';
import { DAY_MS, isoWeek, type Handling, type HandlingKind } from './handlings.js';

/*
 * The handlings as kept (`insight_handlings`, one row each) and their figures as added
 * up per UTC day and group (`insight_daily`). Both are made from the same handlings
 * `handlingsOf` computes; a read over a period adds up the days wholly in it and the
 * kept handlings of the days it cuts.
 */

/** What the kept figures are grouped by; `recipe` and `species` are read through `media_batch` and `plant`. */
export const DIMENSIONS = [
  'operator',
  'location',
  'media_batch',
  'room',
  'stage',
  'plant',
  'week',
] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** The kept dimension each grouping of an insight is read from. */
export const DIMENSION_OF: Record<string, Dimension> = {
  operator: 'operator',
  location: 'location',
  media_batch: 'media_batch',
  recipe: 'media_batch',
  room: 'room',
  stage: 'stage',
  week: 'week',
  plant: 'plant',
  species: 'plant',
};

/** The figures of some handlings of one group, as `insight_daily` adds them up. */
export type Tally = Omit<InsightDailyTable, 'workspace_id' | 'dimension' | 'day'>;

/** The shortest cycle a 4-week rate is extrapolated from (see `isMultiplication`). */
export const MIN_CYCLE_DAYS = 1;

/**
 * The handlings a multiplication rate rests on: transfers and splits (not the making
 * of an explant, not a merge) with vessels counted before and after, both above 0.
 */
export function isMultiplication(h: Handling): h is Handling & { before: number; after: number } {
  return (
    (h.kind === 'transfer' || h.kind === 'split') &&
    h.before !== null &&
    h.after !== null &&
    h.before > 0 &&
    h.after > 0 &&
    h.cycleDays !== null
  );
}

/**
 * Whole days (rounded up) from a handling to the contamination that follows it,
 * before its next handling; null when none does. A contamination counts within a
 * window of w days exactly when this is at most w (`contaminationOf`'s rule).
 */
export function contaminatedDays(h: Handling): number | null {
  const first = h.contaminationsAfter[0];
  return first === undefined ? null : Math.ceil((Date.parse(first.at) - Date.parse(h.at)) / DAY_MS);
}

export function keptRowOf(workspaceId: string, h: Handling): InsightHandlingTable {
  const first = h.contaminationsAfter[0];
  return {
    workspace_id: workspaceId,
    key: h.key,
    explant_id: h.explantId,
    plant_id: h.plantId,
    kind: h.kind,
    handled_at: h.at,
    operator_id: h.by,
    location: h.location,
    media_batch_id: h.mediaBatchId,
    room_id: h.roomId,
    stage: h.stage,
    before_count: h.before,
    after_count: h.after,
    plantlet_count: h.plantlets,
    cycle_days: h.cycleDays,
    next_at: h.nextAt,
    contamination_id: first?.id ?? null,
    contamination_at: first?.at ?? null,
    contaminated_days: contaminatedDays(h),
  };
}

/** A kept handling as the handling it was made from (with its first contamination after only). */
export function handlingOfRow(row: InsightHandlingTable): Handling {
  return {
    key: row.key,
    explantId: row.explant_id,
    plantId: row.plant_id,
    kind: row.kind as HandlingKind,
    at: row.handled_at,
    by: row.operator_id,
    location: row.location,
    mediaBatchId: row.media_batch_id,
    stage: row.stage,
    roomId: row.room_id,
    before: row.before_count === null ? null : Number(row.before_count),
    after: row.after_count === null ? null : Number(row.after_count),
    plantlets: row.plantlet_count === null ? null : Number(row.plantlet_count),
    cycleDays: row.cycle_days === null ? null : Number(row.cycle_days),
    nextAt: row.next_at,
    contaminationsAfter:
      row.contamination_id === null
        ? []
        : [{ id: row.contamination_id, at: row.contamination_at! }],
  };
}

/** The group a handling falls in, by a kept dimension: '' for none. */
export function groupKeyOf(h: Handling, dimension: Dimension): string {
  switch (dimension) {
    case 'operator':
      return h.by ?? '';
    case 'location':
      return h.location ?? '';
    case 'media_batch':
      return h.mediaBatchId ?? '';
    case 'room':
      return h.roomId ?? '';
    case 'stage':
      return h.stage ?? '';
    case 'plant':
      return h.plantId ?? '';
    case 'week':
      return isoWeek(h.at);
  }
}

/** A handling standing for a group key of a dimension: what the groupings name it by. */
export function handlingOfGroup(dimension: Dimension, key: string): Handling {
  const value = key === '' ? null : key;
  // A week's key is its label; any instant of the week names it (the Thursday).
  const at = dimension === 'week' ? thursdayOf(key) : '1970-01-01T00:00:00.000Z';
  return {
    key: '',
    explantId: '',
    plantId: dimension === 'plant' ? value : null,
    kind: 'transfer',
    at,
    by: dimension === 'operator' ? value : null,
    location: dimension === 'location' ? value : null,
    mediaBatchId: dimension === 'media_batch' ? value : null,
    stage: dimension === 'stage' ? value : null,
    roomId: dimension === 'room' ? value : null,
    before: null,
    after: null,
    plantlets: null,
    cycleDays: null,
    nextAt: null,
    contaminationsAfter: [],
  };
}

/** The Monday 00:00 UTC an ISO week (`2026-W05`) starts on, as a time; null when not one. */
export function weekStart(label: string): number | null {
  const match = /^(\d{4})-W(\d{2})$/.exec(label);
  if (match === null) return null;
  const jan4 = Date.UTC(Number(match[1]), 0, 4);
  const weekday = new Date(jan4).getUTCDay() || 7;
  const start = jan4 - (weekday - 1) * DAY_MS + (Number(match[2]) - 1) * 7 * DAY_MS;
  return isoWeek(new Date(start).toISOString()) === label ? start : null;
}

const thursdayOf = (label: string) => new Date((weekStart(label) ?? 0) + 3 * DAY_MS).toISOString();

/** A handling's figures, alone. */
export function tallyOf(h: Handling): Tally {
  const rated = isMultiplication(h);
  const ln = rated ? Math.log(h.after / h.before) : 0;
  const fourWeekly = rated && h.cycleDays! >= MIN_CYCLE_DAYS;
  const ln4w = fourWeekly ? (ln * 28) / h.cycleDays! : 0;
  const yielded = rated && h.kind === 'transfer' && h.plantlets !== null;
  return {
    group_key: '',
    contaminated_days: contaminatedDays(h) ?? 0,
    exposures: 1,
    rated: rated ? 1 : 0,
    ln_rate_sum: ln,
    cycle_days_sum: rated ? h.cycleDays! : 0,
    rated_4w: fourWeekly ? 1 : 0,
    ln_rate_4w_sum: ln4w,
    ln_rate_4w_squares: ln4w * ln4w,
    yielded: yielded ? 1 : 0,
    plantlets_per_vessel_sum: yielded ? h.plantlets / h.after : 0,
  };
}

const SUMMED = [
  'exposures',
  'rated',
  'ln_rate_sum',
  'cycle_days_sum',
  'rated_4w',
  'ln_rate_4w_sum',
  'ln_rate_4w_squares',
  'yielded',
  'plantlets_per_vessel_sum',
] as const;

/** Adds `sign` × `from`'s figures to `into`. */
export function addTally(into: Tally, from: Tally, sign = 1): void {
  for (const field of SUMMED) into[field] += sign * from[field];
}

/** Whether two tallies hold the same figures, to the last digit. */
export const sameTally = (a: Tally, b: Tally): boolean =>
  SUMMED.every((field) => a[field] === b[field]);

export const emptyTally = (groupKey: string, contaminatedDays: number): Tally => ({
  group_key: groupKey,
  contaminated_days: contaminatedDays,
  exposures: 0,
  rated: 0,
  ln_rate_sum: 0,
  cycle_days_sum: 0,
  rated_4w: 0,
  ln_rate_4w_sum: 0,
  ln_rate_4w_squares: 0,
  yielded: 0,
  plantlets_per_vessel_sum: 0,
});

/** UTC day of an instant: `2026-02-01`. */
export const utcDay = (at: string): string => new Date(at).toISOString().slice(0, 10);
