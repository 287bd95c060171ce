import type { Db } from '../../db/database.js';
import { roleAtLeast } from '../../kernel/access.js';
import type { Principal } from '../../kernel/principal.js';
import { drainLab } from './drain.js';
import type { Period } from './insights.repository.js';
import {
  addTally,
  emptyTally,
  groupKeyOf,
  handlingOfRow,
  tallyOf,
  utcDay,
  type Dimension,
  type Tally,
} from './kept.js';
import { dailyTallies, keptIn } from './kept.repository.js';

/** The member whose own handlings a principal sees: null for a manager and up (all of them). */
export const ownOf = (principal: Principal): string | null =>
  principal.role !== null && roleAtLeast(principal.role, 'manager') ? null : principal.memberId;

/** The next UTC midnight at or after an instant, as a day. */
function dayAtOrAfter(at: string): string {
  const day = utcDay(at);
  return `${day}T00:00:00.000Z` === new Date(at).toISOString()
    ? day
    : utcDay(new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString());
}

/** Kept handlings' figures, one tally per handling, by a dimension's groups. */
function talliesOfKept(rows: Awaited<ReturnType<typeof keptIn>>, dimension: Dimension): Tally[] {
  return rows.map((row) => {
    const h = handlingOfRow(row);
    return { ...tallyOf(h), group_key: groupKeyOf(h, dimension) };
  });
}

/**
 * The figures of the period's handlings by a dimension's groups (after the lab's
 * marked explants are drained, so every acknowledged write counts): the days wholly
 * in the period from `insight_daily`, the kept handlings of the days it cuts; with
 * `operatorId`, that member's kept handlings only.
 */
export async function talliesIn(
  db: Db,
  workspaceId: string,
  period: Period,
  dimension: Dimension,
  operatorId: string | null,
): Promise<Tally[]> {
  await drainLab(db, workspaceId);
  if (operatorId !== null) {
    return talliesOfKept(
      await keptIn(db, workspaceId, period.since, period.before, operatorId),
      dimension,
    );
  }
  const firstDay = dayAtOrAfter(period.since);
  const lastDay = utcDay(period.before);
  if (firstDay >= lastDay) {
    return talliesOfKept(
      await keptIn(db, workspaceId, period.since, period.before, null),
      dimension,
    );
  }
  const [whole, head, tail] = await Promise.all([
    dailyTallies(db, workspaceId, dimension, firstDay, lastDay),
    keptIn(db, workspaceId, period.since, `${firstDay}T00:00:00.000Z`, null),
    keptIn(db, workspaceId, `${lastDay}T00:00:00.000Z`, period.before, null),
  ]);
  return [...whole, ...talliesOfKept(head, dimension), ...talliesOfKept(tail, dimension)];
}

/** Tallies added up into one. */
export function total(tallies: readonly Tally[]): Tally {
  const sum = emptyTally('', 0);
  for (const tally of tallies) addTally(sum, tally);
  return sum;
}
