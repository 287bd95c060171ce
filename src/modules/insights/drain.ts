import type { Db, Trx } from '../../db/database.js';
import type { InsightDailyTable } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { appendedHandlings, countAfter, handlingsOf, type Handling } from './handlings.js';
import { appendedFactsOf, factsOf } from './insights.repository.js';
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
 * per round of explants. An explant marked only by transfers added after its last
 * kept handling (the bench's everyday case) gets their handlings added instead, and its
 * last handling's next: its history is not read again.
 */

/** Explants taken per round (one transaction). */
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

/**
 * The explants marked only by transfers added to their histories: their last kept
 * handling is taken and, where the transfers all come after it, it and the transfers'
 * handlings are the new ones (`appendedHandlings`). Answers those, and the explants
 * whose whole history must be made anew after all (a backdated transfer, or no kept
 * handling to add to) with the last handling taken of each.
 */
async function appendTransfers(
  trx: Trx,
  workspaceId: string,
  marks: ReadonlyMap<string, readonly string[]>,
): Promise<{ old: Handling[]; now: Handling[]; anew: string[]; anewOld: Handling[] }> {
  const result = {
    old: [] as Handling[],
    now: [] as Handling[],
    anew: [] as string[],
    anewOld: [] as Handling[],
  };
  if (marks.size === 0) return result;
  const lastOf = new Map<string, Handling[]>();
  for (const row of await takeKept(trx, workspaceId, [...marks.keys()], true)) {
    lastOf.set(row.explant_id, [...(lastOf.get(row.explant_id) ?? []), handlingOfRow(row)]);
  }
  const lasts = [...lastOf.values()].flat();
  const splits = lasts.filter((h) => h.kind === 'split' && h.key !== h.explantId).map((h) => h.key);
  const added = [...new Set([...marks.values()].flat())];
  const since = lasts.reduce((min, h) => (h.at < min ? h.at : min), '9999');
  const facts = await appendedFactsOf(
    trx,
    workspaceId,
    [...marks.keys()],
    [...added, ...splits],
    since,
  );
  const splitVessels = new Map(facts.transfers.map((t) => [t.id, t.vessel_count]));
  for (const [explantId, transferIds] of marks) {
    const last = lastOf.get(explantId) ?? [];
    const count = last.length === 1 ? countAfter(last[0]!, splitVessels) : undefined;
    const handlings =
      count === undefined
        ? null
        : appendedHandlings(last[0]!, count, {
            transfers: facts.transfers.filter(
              (t) => t.entity_id === explantId && transferIds.includes(t.id),
            ),
            edges: facts.edges,
            stages: facts.stages.filter((s) => s.entity_id === explantId),
            contaminations: facts.contaminations.filter((c) => c.entity_id === explantId),
          });
    if (handlings === null) {
      result.anew.push(explantId);
      result.anewOld.push(...last);
    } else {
      result.old.push(last[0]!);
      result.now.push(...handlings);
    }
  }
  return result;
}

/** What a round did: explants taken, and of those, how many had handlings added only. */
export interface Drained {
  explants: number;
  appended: number;
}

/**
 * One round: takes some marked explants; adds the handlings of those marked only by
 * transfers added after their last kept handling, and makes the others anew.
 */
async function drainRound(trx: Trx, workspaceId: string): Promise<Drained> {
  await lockLabDrain(trx, workspaceId);
  const marks = await takeDirty(trx, workspaceId, EXPLANTS_PER_ROUND);
  if (marks.size === 0) return { explants: 0, appended: 0 };
  const onlyAdded = new Map<string, readonly string[]>();
  const anew: string[] = [];
  for (const [id, transfers] of marks) {
    if (transfers === null) anew.push(id);
    else onlyAdded.set(id, transfers);
  }
  const appended = await appendTransfers(trx, workspaceId, onlyAdded);
  anew.push(...appended.anew);
  const old = [...appended.old, ...appended.anewOld];
  const now = [...appended.now];
  if (anew.length > 0) {
    old.push(...(await takeKept(trx, workspaceId, anew)).map(handlingOfRow));
    now.push(...handlingsOf(await factsOf(trx, workspaceId, () => anew, null)));
  }
  await insertKept(
    trx,
    now.map((h) => keptRowOf(workspaceId, h)),
  );
  await addToDaily(trx, changesOf(tallied(workspaceId, old), tallied(workspaceId, now)));
  return { explants: marks.size, appended: marks.size - anew.length };
}

/**
 * Makes anew the kept handlings of every marked explant of the lab, until none is
 * marked (one another drain holds is waited for): a read after it sees every write
 * acknowledged before it. Answers how many explants it took, and how many of those had
 * handlings added only.
 */
export async function drainLab(db: Db, workspaceId: string): Promise<Drained> {
  const total = { explants: 0, appended: 0 };
  // Nothing marked (the common case for a read): no write transaction at all.
  for (let round = 0; round < MAX_ROUNDS && (await hasDirty(db, workspaceId)); round++) {
    const drained = await inTransaction(db, (trx) => drainRound(trx, workspaceId));
    total.explants += drained.explants;
    total.appended += drained.appended;
  }
  return total;
}

/** Drains every lab with marked explants (the background drain). */
export async function drainAll(db: Db): Promise<Drained> {
  const total = { explants: 0, appended: 0 };
  for (const workspaceId of await dirtyWorkspaces(db)) {
    const drained = await drainLab(db, workspaceId);
    total.explants += drained.explants;
    total.appended += drained.appended;
  }
  return total;
}
