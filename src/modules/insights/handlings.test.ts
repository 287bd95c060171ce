import { describe, expect, it } from 'vitest';
import {
  appendedHandlings,
  countAfter,
  handlingsOf,
  isContaminated,
  isoWeek,
} from './handlings.js';
import { handlingOfRow, keptRowOf } from './kept.js';
import type { Facts } from './insights.repository.js';

const explant = (id: string, createdAt: string, initial: number | null) => ({
  id,
  plant_id: null,
  created_by: 'm',
  created_at: createdAt,
  initial_count: initial,
  current_count: null,
  status: 'active',
  updated_at: createdAt,
  media_batch_id: null,
});
/** The family edge a split leaves from parent to daughter. */
const splitEdge = (
  parent: string,
  child: string,
  transferId: string,
  count: number,
  batch: string | null,
) => ({
  parent_id: parent,
  child_id: child,
  kind: 'split',
  transfer_id: transferId,
  initial_count: count,
  media_batch_id: batch,
});
const transfer = (
  id: string,
  explantId: string,
  at: string,
  cycle: number,
  vessels: number | null,
) => ({
  id,
  entity_id: explantId,
  transfer_date: at,
  transfer_cycle: cycle,
  from_location: null,
  vessel_count: vessels,
  plantlet_count: null,
  created_by: 'm',
  media_batch_id: null,
});
const facts = (parts: Partial<Facts>): Facts => ({
  explants: [],
  transfers: [],
  edges: [],
  stages: [],
  contaminations: [],
  ...parts,
});

describe('handlingsOf', () => {
  it('counts before from the latest transfer that counted, else the initial count', () => {
    const list = handlingsOf(
      facts({
        explants: [explant('e', '2026-01-01T00:00:00.000Z', 4)],
        transfers: [
          transfer('t2', 'e', '2026-01-15T00:00:00.000Z', 2, null),
          transfer('t1', 'e', '2026-01-08T00:00:00.000Z', 1, 8),
          transfer('t3', 'e', '2026-01-22T00:00:00.000Z', 3, 24),
        ],
      }),
    );
    expect(list.map((h) => [h.kind, h.before, h.after, h.cycleDays])).toEqual([
      ['initiation', null, 4, null],
      ['transfer', 4, 8, 7],
      ['transfer', 8, null, 7],
      ['transfer', 8, 24, 7],
    ]);
  });

  it('takes an explant recorded after its first transfer as made at that transfer', () => {
    const [making, first] = handlingsOf(
      facts({
        explants: [explant('e', '2026-02-01T00:00:00.000Z', 2)],
        transfers: [transfer('t', 'e', '2026-01-20T00:00:00.000Z', 1, 6)],
      }),
    );
    expect(making!.at).toBe('2026-01-20T00:00:00.000Z');
    expect(first!.cycleDays).toBe(0);
  });

  it("a split's transfer has the daughters' vessels after it, and they are made by a split", () => {
    const list = handlingsOf(
      facts({
        explants: [
          explant('p', '2026-01-01T00:00:00.000Z', 10),
          explant('d', '2026-01-29T00:00:00.000Z', 6),
        ],
        transfers: [transfer('s', 'p', '2026-01-29T00:00:00.000Z', 1, 4)],
        edges: [splitEdge('p', 'd', 's', 6, null)],
      }),
    );
    expect(list.map((h) => [h.explantId, h.kind, h.before, h.after])).toEqual([
      ['p', 'initiation', null, 10],
      ['p', 'split', 10, 10],
      ['d', 'split', null, 6],
    ]);
  });

  it("names each handling's medium batch: a daughter's from its split, a making's as made", () => {
    const list = handlingsOf(
      facts({
        explants: [
          // Its own column names a later transfer's batch; it was made on b0.
          {
            ...explant('p', '2026-01-01T00:00:00.000Z', 10),
            media_batch_id: 'b2',
            made_media_batch_id: 'b0',
          },
          explant('d', '2026-01-29T00:00:00.000Z', 6),
        ],
        transfers: [
          { ...transfer('s', 'p', '2026-01-29T00:00:00.000Z', 1, 4), media_batch_id: 'b2' },
        ],
        edges: [splitEdge('p', 'd', 's', 6, 'b1')],
      }),
    );
    expect(list.map((h) => [h.key, h.kind, h.mediaBatchId])).toEqual([
      ['p', 'initiation', 'b0'],
      ['s', 'split', 'b2'],
      ['d', 'split', 'b1'],
    ]);
  });

  it('counts a contamination after a handling, before the next, within the window', () => {
    const [making, next] = handlingsOf(
      facts({
        explants: [explant('e', '2026-01-01T00:00:00.000Z', 1)],
        transfers: [transfer('t', 'e', '2026-01-31T00:00:00.000Z', 1, 1)],
        contaminations: [
          {
            id: 'c1',
            entity_id: 'e',
            observed_at: '2026-01-22T00:00:00.000Z',
            resolution_outcome: null,
          },
          {
            id: 'c2',
            entity_id: 'e',
            observed_at: '2026-01-31T00:00:00.000Z',
            resolution_outcome: null,
          },
        ],
      }),
    );
    expect(isContaminated(making!, 21)).toBe(true);
    expect(isContaminated(making!, 20)).toBe(false);
    // Observed at the very time of the transfer: neither after it nor before it.
    expect(isContaminated(next!, 365)).toBe(false);
  });
});

describe('appendedHandlings', () => {
  const DAY = 86_400_000;
  const START = Date.parse('2026-01-01T00:00:00.000Z');
  const iso = (days: number) => new Date(START + days * DAY).toISOString();
  /** Kept and read back: what the drain has of a handling (its first contamination only). */
  const asKept = (h: Parameters<typeof keptRowOf>[1]) => handlingOfRow(keptRowOf('w', h));

  function random(seed: number) {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state / 2 ** 31;
    };
  }

  /** An explant's random history: transfers (some uncounted, some splits), stages, contaminations. */
  function history(seed: number) {
    const rand = random(seed);
    let day = rand() * 3;
    const transfers = Array.from({ length: 2 + Math.floor(rand() * 8) }, (_, i) => {
      day += rand() < 0.1 ? 0 : rand() * 20;
      return {
        ...transfer(
          `t${i}`,
          'e',
          iso(day),
          i + 1,
          rand() < 0.25 ? null : 1 + Math.floor(rand() * 30),
        ),
        plantlet_count: rand() < 0.5 ? Math.floor(rand() * 90) : null,
        from_location: rand() < 0.5 ? 'Hood 1' : null,
      };
    });
    const edges = transfers.flatMap((t, i) =>
      rand() < 0.3 ? [splitEdge('e', `d${i}`, t.id, 1 + Math.floor(rand() * 5), null)] : [],
    );
    const stages = Array.from({ length: 1 + Math.floor(rand() * 3) }, (_, i) => ({
      id: `s${i}`,
      entity_id: 'e',
      stage: ['multiplication', 'elongation', 'rooting'][i]!,
      status: 'active',
      entered_on: iso(i === 0 ? 0 : rand() * day),
      completed_at: null,
      room_id: rand() < 0.5 ? 'r1' : null,
    }));
    const contaminations = Array.from({ length: Math.floor(rand() * 4) }, (_, i) => ({
      id: `c${i}`,
      entity_id: 'e',
      observed_at: iso(rand() * (day + 10)),
      resolution_outcome: null,
    }));
    return {
      explants: [explant('e', iso(0), 1 + Math.floor(rand() * 8))],
      transfers,
      edges,
      stages,
      contaminations,
    };
  }

  it('makes of transfers added after the last handling what the whole history makes', () => {
    let compared = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const all = history(seed);
      const whole = handlingsOf(all).map((h) => keptRowOf('w', h));
      for (let kept = 0; kept < all.transfers.length; kept++) {
        const before = all.transfers.slice(0, kept);
        const added = all.transfers.slice(kept);
        if (
          added[0]!.transfer_date <= (before.at(-1)?.transfer_date ?? all.explants[0]!.created_at)
        ) {
          continue;
        }
        const last = asKept(handlingsOf({ ...all, transfers: before }).at(-1)!);
        const vessels = new Map(before.map((t) => [t.id, t.vessel_count]));
        const appended = appendedHandlings(last, countAfter(last, vessels)!, {
          ...all,
          transfers: added,
        });
        expect(
          appended?.map((h) => keptRowOf('w', h)),
          `seed ${seed}, ${kept} kept`,
        ).toEqual(whole.slice(kept));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('answers null for a transfer dated at or before the last handling', () => {
    const all = history(3);
    const last = asKept(handlingsOf(all).at(-1)!);
    const backdated = { ...transfer('late', 'e', last.at, 99, 4) };
    expect(appendedHandlings(last, 4, { ...all, transfers: [backdated] })).toBeNull();
  });

  it("knows no split's count without its transfer", () => {
    const split = asKept({
      ...handlingsOf(history(5))[1]!,
      kind: 'split',
    });
    expect(countAfter(split, new Map())).toBeUndefined();
    expect(countAfter(split, new Map([[split.key, 7]]))).toBe(7);
    expect(countAfter(split, new Map([[split.key, null]]))).toBe(split.before);
  });
});

describe('isoWeek', () => {
  it.each([
    ['2026-01-01T12:00:00.000Z', '2026-W01'],
    ['2026-01-05T00:00:00.000Z', '2026-W02'],
    ['2027-01-01T00:00:00.000Z', '2026-W53'],
    ['2024-12-30T00:00:00.000Z', '2025-W01'],
  ])('%s is in %s', (at, week) => {
    expect(isoWeek(at)).toBe(week);
  });
});
