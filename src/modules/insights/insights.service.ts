import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import { roleAtLeast } from '../../kernel/access.js';
import type { Principal } from '../../kernel/principal.js';
import { wilsonInterval } from '../../lib/wilson.js';
import { stageList } from '../lab/index.js';
import { handlingsOf, isContaminated, type Handling } from './handlings.js';
import { grouped, type Names } from './groups.js';
import { loadFacts, namesOf, type ExplantScope, type Period } from './insights.repository.js';
import {
  DEFAULT_WINDOW_DAYS,
  type ContaminationInsight,
  type ContaminationInsightMeta,
  type ContaminationInsightQuery,
  type MultiplicationInsight,
  type MultiplicationInsightQuery,
} from './insights.schemas.js';
import { periodOf } from './period.js';

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

/**
 * The handlings of the period, of the explants in scope. A member below manager
 * sees the figures of their own handlings only.
 */
export async function handlingsIn(
  db: Db,
  principal: Principal,
  period: Period,
  scope: ExplantScope,
): Promise<Handling[]> {
  const facts = await loadFacts(db, principal.workspaceId, period, scope);
  const own =
    principal.role !== null && roleAtLeast(principal.role, 'manager') ? null : principal.memberId;
  return handlingsOf(facts).filter(
    (h) => h.at >= period.since && h.at < period.before && (own === null || h.by === own),
  );
}

function rateOf(exposures: number, contaminated: number) {
  const interval = wilsonInterval(contaminated, exposures);
  return {
    exposures,
    contaminated,
    rate: exposures === 0 ? null : contaminated / exposures,
    ci_low: interval?.low ?? null,
    ci_high: interval?.high ?? null,
  };
}

/** GET /insights/contamination: exposures, contaminated ones and the rate, per group. */
export async function contaminationInsights(
  db: Db,
  principal: Principal,
  query: Static<typeof ContaminationInsightQuery>,
  now: string,
): Promise<{ data: ContaminationRow[]; meta: Static<typeof ContaminationInsightMeta> }> {
  const period = periodOf(query, now);
  const windowDays = query.window_days ?? DEFAULT_WINDOW_DAYS;
  const [handlings, names] = await Promise.all([
    handlingsIn(db, principal, period, { plantIds: null }),
    labNames(db, principal.workspaceId),
  ]);
  const contaminatedCount = (list: readonly Handling[]) =>
    list.filter((h) => isContaminated(h, windowDays)).length;
  const data = grouped(handlings, query.by, names).map(({ group, handlings: list }) => {
    const figures = rateOf(list.length, contaminatedCount(list));
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
      overall: rateOf(handlings.length, contaminatedCount(handlings)),
    },
  };
}

const geometricMean = (values: readonly number[]) =>
  Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);

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
 * The shortest cycle a 4-week rate is extrapolated from: one day. A handling soon after
 * the previous one (the same day, the same instant) has a rate but no 4-week rate.
 */
export const MIN_CYCLE_DAYS = 1;

/** The multiplication figures of some handlings (all of them multiplication handlings). */
export function multiplicationOf(handlings: readonly Handling[]) {
  const rates = handlings.map((h) => h.after! / h.before!);
  const fourWeekly = handlings.flatMap((h, i) =>
    h.cycleDays! >= MIN_CYCLE_DAYS ? [Math.exp((Math.log(rates[i]!) * 28) / h.cycleDays!)] : [],
  );
  return {
    handlings: handlings.length,
    rate: geometricMean(rates),
    handlings_4w: fourWeekly.length,
    rate_4w: fourWeekly.length === 0 ? null : geometricMean(fourWeekly),
    cycle_days: handlings.reduce((sum, h) => sum + h.cycleDays!, 0) / handlings.length,
    fourWeekly,
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
  const [handlings, names] = await Promise.all([
    handlingsIn(db, principal, period, { plantIds: null }),
    labNames(db, principal.workspaceId),
  ]);
  const data = grouped(handlings.filter(isMultiplication), query.by, names).map(
    ({ group, handlings: list }) => {
      const figures = multiplicationOf(list);
      return {
        group,
        handlings: figures.handlings,
        rate: figures.rate,
        handlings_4w: figures.handlings_4w,
        rate_4w: figures.rate_4w,
        cycle_days: figures.cycle_days,
      };
    },
  );
  return { data, meta: { since: period.since, until: period.before } };
}
