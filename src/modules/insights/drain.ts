import type { Db, Trx } from '../../db/database.js';
import type { InsightDailyTable } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { handlingsOf, type Handling } from './handlings.js';
import { factsOf } from './insights.repository.js';
import {
  DIMENSIONS,
  addTally,
  emptyTally,
  groupKeyOf,
  handlingOfRow,
  sameTally,
  keptRowOf,
  tallyOf,
  utcDay,
} from './kept.js';
import {
  addToDaily,
  dirtyWorkspaces,
  hasDirty,
  insertKept,
  lockLabDrain,
  takeDirty,
  takeKept,
} from './kept.repository.js';

/*
 * The drain: the explants whose records changed (marked by the writes, `dirty.ts`) get
 * their kept handlings made anew from their records with `handlingsOf`, and the days'
 * figures follow (the old handlings taken away, the new ones added), one transaction
 * per round of explants.
 */

/** Explants made anew per round (one transaction). */
const EXPLANTS_PER_ROUND = 100;

/** A bound on the rounds of one drain, should writes keep marking explants as it goes. */
const MAX_ROUNDS = 100_000;

/** Some handlings' figures added up in the days' rows they fall in, by row key. */
function tallied(
  workspaceId: string,
  handlings: readonly Handling[],
): Map<string, InsightDailyTable> {
  const into = new Map<string, InsightDailyTable>();
  // In one order, so the same handlings add up to the same figures to the last digit.
  const ordered = [...handlings].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const h of ordered) {
    const figures = tallyOf(h);
    const day = utcDay(h.at);
    for (const dimension of DIMENSIONS) {
      const groupKey = groupKeyOf(h, dimension);
      const key = `${dimension}\u0000${groupKey}\u0000${day}\u0000${figures.contaminated_days}`;
      let row = into.get(key);
      if (row === undefined) {
        row = {
          workspace_id: workspaceId,
          dimension,
          day,
          ...emptyTally(groupKey, figures.contaminated_days),
        };
        into.set(key, row);
      }
      addTally(row, figures);
    }
  }
  return into;
}

/**
 * What to add to the days' rows to go from the old figures to the new: the new less
 * the old, leaving out the rows they agree on (an explant whose handlings did not
 * change writes nothing).
 */
function changesOf(
  old: Map<string, InsightDailyTable>,
  now: Map<string, InsightDailyTable>,
): InsightDailyTable[] {
  const changes: InsightDailyTable[] = [];
  for (const key of new Set([...old.keys(), ...now.keys()])) {
    const before = old.get(key);
    const after = now.get(key);
    const change = {
      ...(after ?? before)!,
      ...emptyTally((after ?? before)!.group_key, (after ?? before)!.contaminated_days),
    };
    if (after !== undefined) addTally(change, after);
    if (before !== undefined) addTally(change, before, -1);
    if (before !== undefined && after !== undefined && sameTally(before, after)) continue;
    changes.push(change);
  }
  // Sorted, so that drains of other explants add to shared rows in one order.
  const keyOf = (r: InsightDailyTable) =>
    `${r.dimension}\u0000${r.group_key}\u0000${r.day}\u0000${r.contaminated_days}`;
  return changes.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
}

/** One round: takes some marked explants and makes their kept handlings anew. */
async function drainRound(trx: Trx, workspaceId: string): Promise<number> {
  await lockLabDrain(trx, workspaceId);
  const ids = await takeDirty(trx, workspaceId, EXPLANTS_PER_ROUND);
  if (ids.length === 0) return 0;
  const old = await takeKept(trx, workspaceId, ids);
  const handlings = handlingsOf(await factsOf(trx, workspaceId, () => ids, null));
  await insertKept(
    trx,
    handlings.map((h) => keptRowOf(workspaceId, h)),
  );
  await addToDaily(
    trx,
    changesOf(tallied(workspaceId, old.map(handlingOfRow)), tallied(workspaceId, handlings)),
  );
  return ids.length;
}

/**
 * Makes anew the kept handlings of every marked explant of the lab, until none is
 * marked (one another drain holds is waited for): a read after it sees every write
 * acknowledged before it. Answers how many explants it made anew.
 */
export async function drainLab(db: Db, workspaceId: string): Promise<number> {
  let total = 0;
  // Nothing marked (the common case for a read): no write transaction at all.
  for (let round = 0; round < MAX_ROUNDS && (await hasDirty(db, workspaceId)); round++) {
    total += await inTransaction(db, (trx) => drainRound(trx, workspaceId));
  }
  return total;
}

/** Drains every lab with marked explants (the background drain). */
export async function drainAll(db: Db): Promise<number> {
  let total = 0;
  for (const workspaceId of await dirtyWorkspaces(db)) total += await drainLab(db, workspaceId);
  return total;
}
