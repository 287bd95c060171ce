import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import type { Principal } from '../../kernel/principal.js';
import { wilsonInterval } from '../../lib/wilson.js';
import { stageList } from '../lab/index.js';
import { GROUPINGS, groupedBy, type Names } from './groups.js';
import { namesOf } from './insights.repository.js';
import {
  DEFAULT_WINDOW_DAYS,
  type ContaminationInsight,
  type ContaminationInsightMeta,
  type ContaminationInsightQuery,
  type MultiplicationInsight,
  type MultiplicationInsightQuery,
} from './insights.schemas.js';
import { DIMENSION_OF, handlingOfGroup, type Tally } from './kept.js';
import { periodOf } from './period.js';
import { ownOf, talliesIn, total } from './tallies.js';

type ContaminationRow = Static<typeof ContaminationInsight>;
type MultiplicationRow = Static<typeof MultiplicationInsight>;

/** The lab's names the groups are labelled with. */
export async function labNames(db: Db, workspaceId: string): Promise<Names> {
  const [names, stages] = await Promise.all([
    namesOf(db, workspaceId),
    stageList(db, workspaceId, 'explant'),
  ]);
  return {
    ...names,
    stages: new Map([...stages.active, ...stages.retired].map((s) => [s.key, s.name])),
  };
}

/** Tallies by the groups of an insight's grouping `by` (named as its handlings would be). */
export function groupedTallies(tallies: readonly Tally[], by: string, names: Names) {
  const dimension = DIMENSION_OF[by]!;
  const groupOf = GROUPINGS[by]!;
  return groupedBy(tallies, (t) => groupOf(handlingOfGroup(dimension, t.group_key), names)).map(
    ({ group, items }) => ({ group, items, figures: total(items) }),
  );
}

/** A group's contamination figures: the rate and its Wilson 95 % interval. */
export function rateOf(exposures: number, contaminated: number) {
  const interval = wilsonInterval(contaminated, exposures);
  return {
    exposures,
    contaminated,
    rate: exposures === 0 ? null : contaminated / exposures,
    ci_low: interval?.low ?? null,
    ci_high: interval?.high ?? null,
  };
}

/** Exposures contaminated within a window: a contamination at most `windowDays` days after. */
const contaminatedWithin = (tallies: readonly Tally[], windowDays: number) =>
  tallies.reduce(
    (sum, t) =>
      sum + (t.contaminated_days > 0 && t.contaminated_days <= windowDays ? t.exposures : 0),
    0,
  );

/** GET /insights/contamination: exposures, contaminated ones and the rate, per group. */
export async function contaminationInsights(
  db: Db,
  principal: Principal,
  query: Static<typeof ContaminationInsightQuery>,
  now: string,
): Promise<{ data: ContaminationRow[]; meta: Static<typeof ContaminationInsightMeta> }> {
  const period = periodOf(query, now);
  const windowDays = query.window_days ?? DEFAULT_WINDOW_DAYS;
  const [tallies, names] = await Promise.all([
    talliesIn(db, principal.workspaceId, period, DIMENSION_OF[query.by]!, ownOf(principal)),
    labNames(db, principal.workspaceId),
  ]);
  const data = groupedTallies(tallies, query.by, names)
    .filter(({ figures }) => figures.exposures > 0)
    .map(({ group, items, figures: { exposures } }) => {
      const figures = rateOf(exposures, contaminatedWithin(items, windowDays));
      return {
        group,
        exposures: figures.exposures,
        contaminated: figures.contaminated,
        rate: figures.rate!,
        ci_low: figures.ci_low!,
        ci_high: figures.ci_high!,
      };
    });
  return {
    data,
    meta: {
      since: period.since,
      until: period.before,
      window_days: windowDays,
      overall: rateOf(total(tallies).exposures, contaminatedWithin(tallies, windowDays)),
    },
  };
}

/** The multiplication figures of a group's tallies (those of at least one rated handling). */
export function multiplicationOf(figures: Tally) {
  return {
    handlings: figures.rated,
    rate: Math.exp(figures.ln_rate_sum / figures.rated),
    handlings_4w: figures.rated_4w,
    rate_4w: figures.rated_4w === 0 ? null : Math.exp(figures.ln_rate_4w_sum / figures.rated_4w),
    cycle_days: figures.cycle_days_sum / figures.rated,
  };
}

/** GET /insights/multiplication: the geometric mean rates per group. */
export async function multiplicationInsights(
  db: Db,
  principal: Principal,
  query: Static<typeof MultiplicationInsightQuery>,
  now: string,
): Promise<{ data: MultiplicationRow[]; meta: { since: string; until: string } }> {
  const period = periodOf(query, now);
  const [tallies, names] = await Promise.all([
    talliesIn(db, principal.workspaceId, period, DIMENSION_OF[query.by]!, ownOf(principal)),
    labNames(db, principal.workspaceId),
  ]);
  const data = groupedTallies(tallies, query.by, names)
    .filter(({ figures }) => figures.rated > 0)
    .map(({ group, figures }) => ({ group, ...multiplicationOf(figures) }));
  return { data, meta: { since: period.since, until: period.before } };
}
