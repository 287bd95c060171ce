import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import type { Principal } from '../../kernel/principal.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { stageList } from '../lab/index.js';
import { DAY_MS } from './handlings.js';
import { completedStays, stayCounts } from './insights.repository.js';
import type { StageLosses, StagesInsightQuery } from './insights.schemas.js';
import { periodOf } from './period.js';
import { scopeOf } from './scope.js';

type LossRow = Static<typeof StageLosses>;

/** The middle value (the mean of the two middle ones for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * GET /insights/stages: of the explants that entered each stage in the period, how
 * many moved on, are still there, or ended there (discarded, discarded for a
 * contamination, lost, retired), and the median days in it of those that moved on.
 * Every stage of the lab's explant list is listed, in its order; a retired stage
 * (or one no longer in any list) only when explants entered it.
 */
export async function stageInsights(
  db: Db,
  principal: Principal,
  query: Static<typeof StagesInsightQuery>,
  records: RecordLookup,
  now: string,
): Promise<{ data: LossRow[]; meta: { since: string; until: string } }> {
  const workspaceId = principal.workspaceId;
  const scope = await scopeOf(db, workspaceId, query, records);
  const period = periodOf(query, now);
  const [counts, completed, list] = await Promise.all([
    stayCounts(db, workspaceId, period, scope),
    completedStays(db, workspaceId, period, scope),
    stageList(db, workspaceId, 'explant'),
  ]);
  const rows = new Map<string, LossRow & { days: number[] }>();
  const rowOf = (key: string, name: string) => {
    let row = rows.get(key);
    if (row === undefined) {
      row = {
        stage: { key, name },
        entered: 0,
        moved_on: 0,
        still_there: 0,
        discarded: 0,
        contaminated_discarded: 0,
        lost: 0,
        retired: 0,
        median_days: null,
        days: [],
      };
      rows.set(key, row);
    }
    return row;
  };
  for (const option of list.active) rowOf(option.key, option.name);
  const retiredNames = new Map(list.retired.map((o) => [o.key, o.name]));
  const named = (stage: string) => rowOf(stage, retiredNames.get(stage) ?? stage);
  for (const count of [...counts].sort((a, b) => (a.stage < b.stage ? -1 : 1))) {
    const row = named(count.stage);
    row.entered += count.stays;
    if (count.completed === 1) row.moved_on += count.stays;
    else if (count.for_contamination === 1) row.contaminated_discarded += count.stays;
    else if (count.explant_status === 'discarded') row.discarded += count.stays;
    else if (count.explant_status === 'lost') row.lost += count.stays;
    else if (count.explant_status === 'retired') row.retired += count.stays;
    else row.still_there += count.stays;
  }
  for (const stay of completed) {
    named(stay.stage).days.push(
      (Date.parse(stay.completed_at!) - Date.parse(stay.entered_on)) / DAY_MS,
    );
  }
  const data = [...rows.values()].map(({ days, ...row }) => ({
    ...row,
    median_days: median(days),
  }));
  return { data, meta: { since: period.since, until: period.before } };
}
