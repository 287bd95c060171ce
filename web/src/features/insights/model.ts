import type { paths } from '../../api/schema';

type Json<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer J } } } };
}
  ? J
  : never;
type ContaminationAnswer = Json<'/api/v1/insights/contamination'>;
export type ContaminationGroup = ContaminationAnswer['data'][number];
export type ContaminationMeta = ContaminationAnswer['meta'];
export type Exposure = Json<'/api/v1/insights/exposures'>['data'][number];
export type MultiplicationGroup = Json<'/api/v1/insights/multiplication'>['data'][number];
export type StageLosses = Json<'/api/v1/insights/stages'>['data'][number];
export type Forecast = Json<'/api/v1/insights/forecast'>['data'];

export const VIEWS = ['contamination', 'multiplication', 'stages', 'plan'] as const;
export type View = (typeof VIEWS)[number];

export const GROUPINGS = [
  'operator',
  'location',
  'room',
  'stage',
  'week',
  'media_batch',
  'recipe',
] as const;
export type Grouping = (typeof GROUPINGS)[number];

/**
 * What the screen shows, all of it in the address (`/insights?view=…&by=…`), so a
 * link reproduces the view: the part, the grouping, the period (dates), the
 * contamination window, and the planner's line, target and date.
 */
export interface Filters {
  readonly view: View;
  readonly by: Grouping;
  readonly since: string;
  readonly until: string;
  readonly window: string;
  /** The contamination group drilled into (its `group` for the exposures), and which of them. */
  readonly group: string;
  readonly contaminated: '' | 'true' | 'false';
  readonly plant: string;
  readonly target: string;
  readonly date: string;
}

const pick = <T extends string>(value: string | undefined, allowed: readonly T[], fallback: T) =>
  allowed.includes(value as T) ? (value as T) : fallback;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const dateOrEmpty = (value: string | undefined) => (value && DATE.test(value) ? value : '');
const digitsOrEmpty = (value: string | undefined) => (value && /^\d+$/.test(value) ? value : '');

export function filtersOf(query: Readonly<Record<string, string>>): Filters {
  return {
    view: pick(query.view, VIEWS, 'contamination'),
    by: pick(query.by, GROUPINGS, 'operator'),
    since: dateOrEmpty(query.since),
    until: dateOrEmpty(query.until),
    window: digitsOrEmpty(query.window),
    group: (query.group ?? '').slice(0, 200),
    contaminated: pick(query.contaminated, ['', 'true', 'false'] as const, ''),
    plant: /^[0-9a-fA-F-]{36}$/.test(query.plant ?? '') ? query.plant! : '',
    target: digitsOrEmpty(query.target),
    date: dateOrEmpty(query.date),
  };
}

/** The address of a view: only what differs from the defaults, in a fixed order. */
export function searchOf(filters: Filters): string {
  const params = new URLSearchParams();
  if (filters.view !== 'contamination') params.set('view', filters.view);
  if (filters.by !== 'operator') params.set('by', filters.by);
  for (const name of [
    'since',
    'until',
    'window',
    'group',
    'contaminated',
    'plant',
    'target',
    'date',
  ] as const) {
    if (filters[name] !== '') params.set(name, filters[name]);
  }
  const search = params.toString();
  return search === '' ? '' : `?${search}`;
}

/** The period of the API's queries: the dates picked, or none (the API's last year). */
export function periodQuery(filters: Filters): { since?: string; until?: string } {
  return {
    ...(filters.since ? { since: filters.since } : {}),
    ...(filters.until ? { until: filters.until } : {}),
  };
}

/** GET /insights/contamination's query for a grouping: the filters' period and window. */
export function contaminationQuery(filters: Filters, by: Filters['by']) {
  return {
    by,
    ...periodQuery(filters),
    ...(filters.window ? { window_days: Number(filters.window) } : {}),
  };
}

/** GET /insights/exposures' query: the bar's group, and which of its exposures. */
export function exposuresQuery(filters: Filters) {
  return {
    ...contaminationQuery(filters, filters.by),
    group: filters.group,
    ...(filters.contaminated ? { contaminated: filters.contaminated === 'true' } : {}),
  };
}

/** GET /insights/forecast's query: the line, its target and date, the period its rates rest on. */
export function forecastQuery(filters: Filters) {
  return {
    plant_id: filters.plant,
    ...(filters.target ? { target_plantlets: Number(filters.target) } : {}),
    ...(filters.date ? { by: filters.date } : {}),
    ...periodQuery(filters),
  };
}

/**
 * How the exposures operation names a contamination group: its id, else (a location,
 * a week) its label; `none` for the handlings that name none.
 */
export function groupKey(group: ContaminationGroup['group']): string {
  if (group.id !== null) return group.id;
  return group.label === NONE_RECORDED ? 'none' : group.label;
}

/** The label of the group of handlings that name none (a making has no location). */
export const NONE_RECORDED = 'none recorded';

/**
 * Whether a group is worse than overall: only when its whole 95 % interval lies
 * above the overall rate. A group whose interval reaches the overall rate could be
 * no worse at all: it is not marked.
 */
export function isWorse(group: ContaminationGroup, overall: number | null): boolean {
  return overall !== null && group.exposures > 0 && group.ci_low > overall;
}

/** Highest rate first; of equal rates, the better supported (more exposures); then by name. */
export function byRate(groups: readonly ContaminationGroup[]): ContaminationGroup[] {
  return [...groups].sort(
    (a, b) =>
      b.rate - a.rate || b.exposures - a.exposures || a.group.label.localeCompare(b.group.label),
  );
}

/** Fastest first (4-week rate, then the rate per transfer); lines without a 4-week rate last. */
export function byGrowth(groups: readonly MultiplicationGroup[]): MultiplicationGroup[] {
  return [...groups].sort(
    (a, b) =>
      (b.rate_4w ?? -1) - (a.rate_4w ?? -1) ||
      b.rate - a.rate ||
      a.group.label.localeCompare(b.group.label),
  );
}

/** The Monday (UTC) an ISO week label (`2026-W05`) starts on, in seconds; null for another label. */
export function weekStart(label: string): number | null {
  const match = /^(\d{4})-W(\d{2})$/.exec(label);
  if (!match) return null;
  const year = Number(match[1]);
  const week = Number(match[2]);
  // ISO week 1 holds 4 January; its Monday is the year's first week's start.
  const jan4 = Date.UTC(year, 0, 4);
  const jan4Weekday = (new Date(jan4).getUTCDay() + 6) % 7;
  return (jan4 - jan4Weekday * 86_400_000 + (week - 1) * 7 * 86_400_000) / 1000;
}

/** A date (`YYYY-MM-DD`) as the x of a time chart: its midnight UTC, in seconds. */
export const dateSeconds = (date: string): number => Date.parse(`${date}T00:00:00Z`) / 1000;
