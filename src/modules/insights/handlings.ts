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
    const stages = [...(stagesOf.get(explant.id) ?? [])].sort((a, b) =>
      byTime({ at: a.entered_on, order: a.id }, { at: b.entered_on, order: b.id }),
    );
    const transfers = [...(transfersOf.get(explant.id) ?? [])].sort((a, b) =>
      byTime(
        { at: a.transfer_date, order: String(a.transfer_cycle).padStart(10, '0') + a.id },
        { at: b.transfer_date, order: String(b.transfer_cycle).padStart(10, '0') + b.id },
      ),
    );
    const observed = (contaminationsOf.get(explant.id) ?? [])
      .map((c) => ({ id: c.id, at: c.observed_at }))
      .sort((a, b) => byTime({ at: a.at, order: a.id }, { at: b.at, order: b.id }));
    const made = madeBy.get(explant.id)?.[0];
    // An explant recorded after its first transfers is taken as made at the earliest.
    const madeAt =
      transfers.length > 0 && transfers[0]!.transfer_date < explant.created_at
        ? transfers[0]!.transfer_date
        : explant.created_at;
    const steps: Omit<
      Handling,
      'cycleDays' | 'nextAt' | 'contaminationsAfter' | 'stage' | 'roomId'
    >[] = [
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
    let count = explant.initial_count;
    for (const transfer of transfers) {
      steps.push(transferStep(explant, transfer, count, edgesOfTransfer.get(transfer.id) ?? []));
      if (transfer.vessel_count !== null) count = transfer.vessel_count;
    }
    steps.forEach((step, i) => {
      const previous = i === 0 ? null : steps[i - 1]!.at;
      const nextAt = i + 1 < steps.length ? steps[i + 1]!.at : null;
      const stage = stageAt(stages, step.at);
      handlings.push({
        ...step,
        stage: stage?.stage ?? null,
        roomId: stage?.room_id ?? null,
        cycleDays: previous === null ? null : (Date.parse(step.at) - Date.parse(previous)) / DAY_MS,
        nextAt,
        contaminationsAfter: observed.filter(
          (c) => c.at > step.at && (nextAt === null || c.at < nextAt),
        ),
      });
    });
  }
  return handlings;
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
