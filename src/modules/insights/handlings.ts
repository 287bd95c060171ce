import type { Facts, StageFact, TransferFact } from './insights.repository.js';

/*
 * The handlings of explants, as docs/insights.md defines them: each explant's making
 * (an initiation, or its making by a split or a merge) and each completed transfer,
 * in time order, with who, where, the stage and room at that time, the vessels
 * before and after, the previous and next handling, and whether a contamination was
 * observed after it in time to count against it. Pure: computed from the facts read.
 */

export type HandlingKind = 'initiation' | 'transfer' | 'split' | 'merge';

export interface Handling {
  /** Unique among handlings: the transfer's id, or the explant's for its making. */
  readonly key: string;
  readonly explantId: string;
  readonly plantId: string | null;
  readonly kind: HandlingKind;
  readonly at: string;
  readonly by: string | null;
  readonly location: string | null;
  /** The medium batch it put the cultures on, when named. */
  readonly mediaBatchId: string | null;
  readonly stage: string | null;
  readonly roomId: string | null;
  /** Vessels just before it: the count the explant's previous handling left; null unknown. */
  readonly before: number | null;
  /** Vessels after it (a split: what the parent kept and the daughters); null unknown. */
  readonly after: number | null;
  readonly plantlets: number | null;
  /** Days since the explant's previous handling; null for its first. */
  readonly cycleDays: number | null;
  readonly nextAt: string | null;
  /** The explant's contaminations observed after it, before its next handling, in time order. */
  readonly contaminationsAfter: readonly { readonly id: string; readonly at: string }[];
}

export const DAY_MS = 86_400_000;

const byTime = (a: { at: string; order: string }, b: { at: string; order: string }) =>
  a.at < b.at ? -1 : a.at > b.at ? 1 : a.order < b.order ? -1 : a.order > b.order ? 1 : 0;

/** The stage (and room) an explant was in at `at`: the latest entered at or before it. */
function stageAt(stages: readonly StageFact[], at: string): StageFact | null {
  let found: StageFact | null = null;
  for (const stage of stages) {
    if (stage.entered_on <= at) found = stage;
    else break;
  }
  return found;
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list === undefined) groups.set(k, [row]);
    else list.push(row);
  }
  return groups;
}

/** Every handling of the explants of `facts`, each explant's in time order. */
export function handlingsOf(facts: Facts): Handling[] {
  const transfersOf = groupBy(facts.transfers, (t) => t.entity_id);
  const stagesOf = groupBy(facts.stages, (s) => s.entity_id);
  const contaminationsOf = groupBy(facts.contaminations, (c) => c.entity_id);
  const edgesOfTransfer = groupBy(
    facts.edges.filter((e) => e.transfer_id !== null),
    (e) => e.transfer_id!,
  );
  const madeBy = groupBy(facts.edges, (e) => e.child_id);
  const handlings: Handling[] = [];
  for (const explant of facts.explants) {
    const stages = stagesInOrder(stagesOf.get(explant.id) ?? []);
    const transfers = transfersInOrder(transfersOf.get(explant.id) ?? []);
    const observed = observedInOrder(contaminationsOf.get(explant.id) ?? []);
    const made = madeBy.get(explant.id)?.[0];
    // An explant recorded after its first transfers is taken as made at the earliest.
    const madeAt =
      transfers.length > 0 && transfers[0]!.transfer_date < explant.created_at
        ? transfers[0]!.transfer_date
        : explant.created_at;
    const steps: Step[] = [
      {
        key: explant.id,
        explantId: explant.id,
        plantId: explant.plant_id,
        kind: made === undefined ? 'initiation' : (made.kind as HandlingKind),
        at: madeAt,
        by: explant.created_by,
        location: null,
        mediaBatchId:
          made === undefined
            ? explant.made_media_batch_id === undefined
              ? explant.media_batch_id
              : explant.made_media_batch_id
            : made.media_batch_id,
        before: null,
        after: explant.initial_count,
        plantlets: null,
      },
    ];
    steps.push(...transferSteps(explant, transfers, explant.initial_count, edgesOfTransfer));
    handlings.push(...placed(steps, stages, observed, null));
  }
  return handlings;
}

/** A handling before its place in the explant's history (stage, cycle, next) is known. */
type Step = Omit<Handling, 'cycleDays' | 'nextAt' | 'contaminationsAfter' | 'stage' | 'roomId'>;

/** The steps of an explant's transfers in time order, from `count` vessels before the first. */
function transferSteps(
  explant: { id: string; plant_id: string | null },
  transfers: readonly TransferFact[],
  count: number | null,
  edgesOfTransfer: ReadonlyMap<string, readonly { kind: string; initial_count: number | null }[]>,
): Step[] {
  let before = count;
  return transfers.map((transfer) => {
    const step = transferStep(explant, transfer, before, edgesOfTransfer.get(transfer.id) ?? []);
    if (transfer.vessel_count !== null) before = transfer.vessel_count;
    return step;
  });
}

/**
 * An explant's steps as handlings, in time order: each with the stage and room it
 * was in then, the days since the one before (`previousAt` for the first), the next,
 * and the contaminations observed between it and the next.
 */
function placed(
  steps: readonly Step[],
  stages: readonly StageFact[],
  observed: readonly { id: string; at: string }[],
  previousAt: string | null,
): Handling[] {
  return steps.map((step, i) => {
    const previous = i === 0 ? previousAt : steps[i - 1]!.at;
    const nextAt = i + 1 < steps.length ? steps[i + 1]!.at : null;
    const stage = stageAt(stages, step.at);
    return {
      ...step,
      stage: stage?.stage ?? null,
      roomId: stage?.room_id ?? null,
      cycleDays: previous === null ? null : (Date.parse(step.at) - Date.parse(previous)) / DAY_MS,
      nextAt,
      contaminationsAfter: observed.filter(
        (c) => c.at > step.at && (nextAt === null || c.at < nextAt),
      ),
    };
  });
}

/** Sorted as `handlingsOf` orders an explant's records. */
const stagesInOrder = (stages: readonly StageFact[]) =>
  [...stages].sort((a, b) =>
    byTime({ at: a.entered_on, order: a.id }, { at: b.entered_on, order: b.id }),
  );
const transfersInOrder = (transfers: readonly TransferFact[]) =>
  [...transfers].sort((a, b) =>
    byTime(
      { at: a.transfer_date, order: String(a.transfer_cycle).padStart(10, '0') + a.id },
      { at: b.transfer_date, order: String(b.transfer_cycle).padStart(10, '0') + b.id },
    ),
  );
const observedInOrder = (contaminations: Facts['contaminations']) =>
  contaminations
    .map((c) => ({ id: c.id, at: c.observed_at }))
    .sort((a, b) => byTime({ at: a.at, order: a.id }, { at: b.at, order: b.id }));

/**
 * The vessels an explant's handling left it with (the count `handlingsOf` carries to
 * the next): its making's, a transfer's counted vessels, else those before it; for a
 * split, what the parent kept (`splitVessels`: its transfer's counted vessels by id),
 * undefined when its transfer is not there.
 */
export function countAfter(
  handling: Handling,
  splitVessels: ReadonlyMap<string, number | null>,
): number | null | undefined {
  if (handling.key === handling.explantId) return handling.after;
  if (handling.kind !== 'split') return handling.after ?? handling.before;
  if (!splitVessels.has(handling.key)) return undefined;
  return splitVessels.get(handling.key) ?? handling.before;
}

/**
 * An explant's handlings when some transfers were added at the end of its history,
 * without the rest of it: `last` is its last handling as it stood (kept), `count` the
 * vessels it left, `facts` the added transfers with their family edges, the explant's
 * stages, and its contaminations observed after `last`. Answers `last` (now with a
 * next) followed by the new handlings — what `handlingsOf` makes of the whole history
 * for them, the earlier handlings unchanged — or null when the transfers are not all
 * after `last` (a backdated one: the whole history must be made anew).
 */
export function appendedHandlings(
  last: Handling,
  count: number | null,
  facts: Pick<Facts, 'transfers' | 'edges' | 'stages' | 'contaminations'>,
): Handling[] | null {
  const transfers = transfersInOrder(facts.transfers);
  if (transfers.length === 0) return [last];
  if (transfers[0]!.transfer_date <= last.at) return null;
  const explant = { id: last.explantId, plant_id: last.plantId };
  const edgesOfTransfer = groupBy(
    facts.edges.filter((e) => e.transfer_id !== null),
    (e) => e.transfer_id!,
  );
  const observed = observedInOrder(facts.contaminations).filter((c) => c.at > last.at);
  const steps = transferSteps(explant, transfers, count, edgesOfTransfer);
  const nextAt = steps[0]!.at;
  return [
    { ...last, nextAt, contaminationsAfter: observed.filter((c) => c.at < nextAt) },
    ...placed(steps, stagesInOrder(facts.stages), observed, last.at),
  ];
}

function transferStep(
  explant: { id: string; plant_id: string | null },
  transfer: TransferFact,
  before: number | null,
  edges: readonly { kind: string; initial_count: number | null }[],
) {
  const kind: HandlingKind = edges.length === 0 ? 'transfer' : (edges[0]!.kind as HandlingKind);
  const daughters = edges.reduce((sum, edge) => sum + (edge.initial_count ?? 0), 0);
  return {
    key: transfer.id,
    explantId: explant.id,
    plantId: explant.plant_id,
    kind,
    at: transfer.transfer_date,
    by: transfer.created_by,
    location: transfer.from_location,
    mediaBatchId: transfer.media_batch_id,
    before,
    after:
      transfer.vessel_count === null
        ? null
        : transfer.vessel_count + (kind === 'split' ? daughters : 0),
    plantlets: transfer.plantlet_count,
  };
}

/**
 * The contamination that counts against a handling: the first after it, before the
 * next, within the window; undefined when none does.
 */
export function contaminationOf(
  handling: Handling,
  windowDays: number,
): { id: string; at: string } | undefined {
  const first = handling.contaminationsAfter[0];
  const limit = Date.parse(handling.at) + windowDays * DAY_MS;
  return first !== undefined && Date.parse(first.at) <= limit ? first : undefined;
}

/** Whether a contamination counts against a handling: after it, before the next, within the window. */
export function isContaminated(handling: Handling, windowDays: number): boolean {
  return contaminationOf(handling, windowDays) !== undefined;
}

/** The ISO 8601 week of a UTC instant: `2026-W05`. */
export function isoWeek(at: string): string {
  const date = new Date(at);
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = day.getUTCDay() === 0 ? 7 : day.getUTCDay();
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / DAY_MS + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}
