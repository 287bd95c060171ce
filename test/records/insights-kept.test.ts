import { expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import type { InsightHandlingTable } from '../../src/db/schema.js';
import { inTransaction } from '../../src/db/transaction.js';
import { GROUPINGS, groupedBy } from '../../src/modules/insights/groups.js';
import {
  handlingsOf,
  isContaminated,
  type Handling,
} from '../../src/modules/insights/handlings.js';
import { drainLab, explantsChanged } from '../../src/modules/insights/index.js';
import { factsOf, loadFacts } from '../../src/modules/insights/insights.repository.js';
import { labNames, rateOf } from '../../src/modules/insights/insights.service.js';
import { isMultiplication, keptRowOf } from '../../src/modules/insights/kept.js';
import { lockLabDrain, takeDirty } from '../../src/modules/insights/kept.repository.js';
import { periodOf } from '../../src/modules/insights/period.js';
import { body } from '../support/harness.js';
import {
  addRoom,
  client,
  dataOf,
  GENEROUS_LIMITS,
  markDeleted,
  newExplant,
  newPlant,
  type Client,
  type Json,
} from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

/*
 * The kept insights against the computation they replace: a small random lab is
 * built through the API (transfers dated in the past, splits, stage moves,
 * contaminations), and every grouping's answer over several periods (whole days and
 * periods that cut days) must be what computing every handling from the records
 * gives — after the lab is built, after more writes (a backdated transfer, a split, a
 * stage move), and after records change under the drain (a deleted explant, a
 * contamination moved and one removed).
 */

const DAY = 86_400_000;
const CONTAMINATION_BY = ['operator', 'location', 'media_batch', 'recipe', 'room', 'stage', 'week'];
const MULTIPLICATION_BY = ['plant', 'species', 'stage', 'media_batch', 'operator'];

/**
 * The expected answer with each number matched to 6 decimals (within 5e-7), not
 * rounded: the kept sums and the computed ones add the same numbers in another order,
 * and two answers 1e-12 apart round apart when they sit on a 6th decimal's edge.
 */
const near = (value: unknown): unknown =>
  typeof value === 'number'
    ? expect.closeTo(value, 6)
    : Array.isArray(value)
      ? value.map(near)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, near(v)]))
        : value;

function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** The handlings of a period computed from the records, as the insights did before they were kept. */
async function computed(database: Database, workspaceId: string, query: Record<string, string>) {
  const period = periodOf(query, new Date().toISOString());
  const facts = await loadFacts(database.db, workspaceId, period, { plantIds: null });
  return handlingsOf(facts).filter((h) => h.at >= period.since && h.at < period.before);
}

const geometricMean = (values: readonly number[]) =>
  Math.exp(values.reduce((sum, v) => sum + Math.log(v), 0) / values.length);

function multiplication(handlings: readonly (Handling & { before: number; after: number })[]) {
  const rates = handlings.map((h) => h.after / h.before);
  const fourWeekly = handlings.flatMap((h, i) =>
    h.cycleDays! >= 1 ? [Math.exp((Math.log(rates[i]!) * 28) / h.cycleDays!)] : [],
  );
  return {
    handlings: handlings.length,
    rate: geometricMean(rates),
    handlings_4w: fourWeekly.length,
    rate_4w: fourWeekly.length === 0 ? null : geometricMean(fourWeekly),
    cycle_days: handlings.reduce((sum, h) => sum + h.cycleDays!, 0) / handlings.length,
  };
}

describeOnDatabases('Insights kept by the drain', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });

  /** Periods of whole days and periods cutting days, some at handlings' very instants. */
  const periods = async () => {
    const all = (
      await computed(t.database, lab.workspaceId, {
        since: new Date(Date.now() - 90 * DAY).toISOString(),
      })
    ).sort((a, b) => (a.at < b.at ? -1 : 1));
    const at = (share: number) => all[Math.floor(share * (all.length - 1))]!.at;
    const justAfter = (instant: string) => new Date(Date.parse(instant) + 1).toISOString();
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + DAY).toISOString().slice(0, 10);
    const ago = (days: number, hour: string) =>
      `${new Date(Date.now() - days * DAY).toISOString().slice(0, 10)}T${hour}Z`;
    return [
      { since: ago(60, '00:00:00'), until: tomorrow },
      { since: ago(45, '13:30:00'), until: ago(12, '07:15:00') },
      { since: ago(30, '00:00:00'), until: ago(20, '23:59:59') },
      { since: ago(25, '18:00:00'), until: ago(25, '22:00:00') },
      { since: ago(9, '06:00:00'), until: today },
      { since: at(0.25), until: at(0.75) },
      { since: justAfter(at(0.3)), until: new Date().toISOString() },
      { since: at(0.5), until: justAfter(at(0.6)) },
    ];
  };

  /** Every grouping's answer over every period, through the API and as computed. */
  async function expectSameAnswers() {
    const names = await labNames(t.database.db, lab.workspaceId);
    for (const period of await periods()) {
      const query = new URLSearchParams(period).toString();
      const handlings = await computed(t.database, lab.workspaceId, period);
      for (const windowDays of [21, 3]) {
        for (const by of CONTAMINATION_BY) {
          const res = await owner.get(
            `/api/v1/insights/contamination?by=${by}&${query}&window_days=${windowDays}`,
          );
          const expected = groupedBy(handlings, (h) => GROUPINGS[by]!(h, names)).map(
            ({ group, items }) => ({
              group,
              ...rateOf(items.length, items.filter((h) => isContaminated(h, windowDays)).length),
            }),
          );
          expect(dataOf(res, 200), `${by} ${query} ${windowDays}`).toEqual(near(expected));
          expect(body(res).meta.overall).toEqual(
            near(
              rateOf(
                handlings.length,
                handlings.filter((h) => isContaminated(h, windowDays)).length,
              ),
            ),
          );
        }
      }
      for (const by of MULTIPLICATION_BY) {
        const res = await owner.get(`/api/v1/insights/multiplication?by=${by}&${query}`);
        const expected = groupedBy(handlings.filter(isMultiplication), (h) =>
          GROUPINGS[by]!(h, names),
        ).map(({ group, items }) => ({ group, ...multiplication(items) }));
        expect(dataOf(res, 200), `${by} ${query}`).toEqual(near(expected));
      }
    }
  }

  /** A random lab: explants of three lines, transfers over the last 50 days, contaminations. */
  async function buildLab(seed: number) {
    const rand = random(seed);
    const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
    const member = client(t, await lab.actor('member'));
    const roomId = await addRoom(t.database, lab.workspaceId, 'Room K');
    const plants = [
      (await newPlant(owner, { species: 'Ficus lyrata', common_name: 'K1' })).id as string,
      (await newPlant(owner, { species: 'Ficus lyrata', common_name: 'K2' })).id as string,
      (await newPlant(owner, { species: 'Musa acuminata', common_name: 'K3' })).id as string,
    ];
    const explants: string[] = [];
    for (let i = 0; i < 8; i++) {
      const explant = await newExplant(pick([owner, member]), {
        label: `K-${i}`,
        plant_id: pick(plants),
        initial_count: 1 + Math.floor(rand() * 8),
        initial_stage: 'multiplication',
        ...(rand() < 0.5 ? { room_id: roomId } : {}),
      });
      explants.push(explant.id as string);
      let at = Date.now() - (50 - rand() * 5) * DAY;
      for (let n = 0; n < 1 + Math.floor(rand() * 4); n++) {
        at += (3 + rand() * 12) * DAY;
        await transfer(pick([owner, member]), explant.id as string, at, rand);
      }
    }
    for (let i = 0; i < 10; i++) {
      await contamination(pick(explants), Date.now() - rand() * 45 * DAY);
    }
    return { explants, member, rand, roomId };
  }

  async function transfer(c: Client, explantId: string, at: number, rand: () => number) {
    const counted = rand() < 0.85;
    return dataOf(
      await c.post('/api/v1/transfers', {
        explant_id: explantId,
        transfer_date: new Date(at).toISOString(),
        ...(rand() < 0.7 ? { from_location: rand() < 0.5 ? 'Hood 1' : 'Hood 2' } : {}),
        ...(counted ? { vessel_count: 1 + Math.floor(rand() * 30) } : {}),
        ...(counted && rand() < 0.5 ? { plantlet_count: Math.floor(rand() * 90) } : {}),
      }),
      201,
    );
  }

  async function contamination(explantId: string, at: number): Promise<Json> {
    return dataOf(
      await owner.post('/api/v1/contaminations', {
        explant_id: explantId,
        type: 'mold',
        issue: 'Mold',
        observed_at: new Date(at).toISOString(),
      }),
      201,
    );
  }

  const dirty = () =>
    t.database.db
      .selectFrom('insight_dirty')
      .select('explant_id')
      .where('workspace_id', '=', lab.workspaceId)
      .execute();

  it('a write marks its explant, a read drains it and sees the write', async () => {
    const explant = await newExplant(owner, { initial_count: 4 });
    await owner.get('/api/v1/insights/contamination?by=operator');
    expect(await dirty()).toEqual([]);
    dataOf(
      await owner.post('/api/v1/transfers', {
        explant_id: explant.id,
        from_location: 'Hood 7',
        vessel_count: 8,
      }),
      201,
    );
    expect(await dirty()).toEqual([{ explant_id: explant.id }]);
    const res = await owner.get('/api/v1/insights/contamination?by=location');
    expect(dataOf(res, 200)).toMatchObject([{ group: { label: 'Hood 7' }, exposures: 1 }, {}]);
    expect(await dirty()).toEqual([]);
  });

  it('a round takes so many explants, however many marks each has, and all their marks', async () => {
    const ids = [
      (await newExplant(owner, { initial_count: 4 })).id as string,
      (await newExplant(owner, { initial_count: 4 })).id as string,
      (await newExplant(owner, { initial_count: 4 })).id as string,
    ].sort();
    await drainLab(t.database.db, lab.workspaceId);
    for (let i = 0; i < 5; i++) {
      dataOf(
        await owner.post('/api/v1/transfers', { explant_id: ids[0], vessel_count: 5 + i }),
        201,
      );
    }
    dataOf(await owner.post('/api/v1/transfers', { explant_id: ids[1], vessel_count: 5 }), 201);
    dataOf(await owner.post(`/api/v1/explants/${ids[2]}/archive`, { reason: 'Done' }), 200);
    const taken = await inTransaction(t.database.db, (trx) => takeDirty(trx, lab.workspaceId, 2));
    expect([...taken.keys()].sort()).toEqual([ids[0], ids[1]]);
    expect(taken.get(ids[0]!)).toHaveLength(5);
    expect(await dirty()).toEqual([{ explant_id: ids[2] }]);
  });

  it('never holds a write up while a drain round runs, and keeps the mark the write made', async () => {
    // A round takes the marks it makes anew at its start; on SQLite it is the one writer
    // meanwhile, so this is PostgreSQL's case: a write of a marked explant during the
    // round must neither wait for it (it would hold the lab's event sequence, so every
    // write of the lab, until the round ends) nor lose its mark.
    if (target.name !== 'postgres') return;
    const explant = await newExplant(owner, { initial_count: 4 });
    const moved = (vessels: number) =>
      owner.post('/api/v1/transfers', { explant_id: explant.id, vessel_count: vessels });
    dataOf(await moved(6), 201);
    await inTransaction(t.database.db, async (trx) => {
      await lockLabDrain(trx, lab.workspaceId);
      expect([...(await takeDirty(trx, lab.workspaceId, 100)).keys()]).toContain(explant.id);
      // Answered while the round still holds what it took (a wait here never ends).
      dataOf(await moved(9), 201);
    });
    expect(await dirty()).toEqual([{ explant_id: explant.id }]);
    const res = await owner.get('/api/v1/insights/multiplication?by=plant');
    expect(
      dataOf(res, 200).reduce((n: number, g: { handlings: number }) => n + g.handlings, 0),
    ).toBe(2);
    expect(await dirty()).toEqual([]);
  });

  it('answers as computing every handling from the records does, through writes and changes', async () => {
    const { explants, member, rand } = await buildLab(7);
    await expectSameAnswers();

    // More writes: a transfer dated before the explant's others, a split, a stage move,
    // a contamination just at the window's edge of a handling.
    await transfer(owner, explants[0]!, Date.now() - 55 * DAY, rand);
    dataOf(
      await member.post(`/api/v1/explants/${explants[1]}/split`, {
        daughters: [{ vessel_count: 2 }, { vessel_count: 3 }],
      }),
      201,
    );
    dataOf(
      await owner.post('/api/v1/stages', {
        explant_id: explants[2],
        stage: 'elongation',
        entered_on: new Date(Date.now() - 20 * DAY).toISOString(),
      }),
      201,
    );
    const edge = await transfer(owner, explants[3]!, Date.now() - 6 * DAY, () => 0.1);
    await contamination(explants[3]!, Date.parse(edge.transfer_date as string) + 3 * DAY);
    await expectSameAnswers();

    // Records changed under the drain (no API deletes an explant or a contamination):
    // the explants are marked as the writes mark them.
    await markDeleted(t.database, 'explants', explants[4]!);
    const [moved, removed] = await t.database.db
      .selectFrom('contaminations')
      .select(['id', 'entity_id'])
      .where('workspace_id', '=', lab.workspaceId)
      .orderBy('id')
      .limit(2)
      .execute();
    await t.database.db
      .updateTable('contaminations')
      .set({ observed_at: new Date(Date.now() - 2 * DAY).toISOString() })
      .where('id', '=', moved!.id)
      .execute();
    await t.database.db
      .updateTable('contaminations')
      .set({ deleted_at: new Date().toISOString() })
      .where('id', '=', removed!.id)
      .execute();
    await inTransaction(t.database.db, async (trx) => {
      explantsChanged(trx, lab.workspaceId, [explants[4]!, moved!.entity_id, removed!.entity_id]);
    });
    await expectSameAnswers();
    const kept = await t.database.db
      .selectFrom('insight_handlings')
      .select('key')
      .where('workspace_id', '=', lab.workspaceId)
      .where('explant_id', '=', explants[4]!)
      .execute();
    expect(kept).toEqual([]);
  });

  /** The kept handlings, and what making every explant's anew from its records gives. */
  async function keptAndRemade() {
    const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : 1);
    const kept = await t.database.db
      .selectFrom('insight_handlings')
      .selectAll()
      .where('workspace_id', '=', lab.workspaceId)
      .execute();
    const ids = await t.database.db
      .selectFrom('explants')
      .select('id')
      .where('workspace_id', '=', lab.workspaceId)
      .execute();
    const facts = await factsOf(
      t.database.db,
      lab.workspaceId,
      () => ids.map((row) => row.id),
      null,
    );
    const remade = handlingsOf(facts).map((h) => keptRowOf(lab.workspaceId, h));
    const numbers = (row: InsightHandlingTable) => ({
      ...row,
      before_count: row.before_count === null ? null : Number(row.before_count),
      after_count: row.after_count === null ? null : Number(row.after_count),
      plantlet_count: row.plantlet_count === null ? null : Number(row.plantlet_count),
      cycle_days: row.cycle_days === null ? null : Number(row.cycle_days),
      contaminated_days: row.contaminated_days === null ? null : Number(row.contaminated_days),
    });
    return { kept: kept.map(numbers).sort(byKey), remade: remade.map(numbers).sort(byKey) };
  }

  it("adds the handlings of transfers recorded after an explant's last, as making it anew would", async () => {
    const { explants, member, rand } = await buildLab(19);
    await drainLab(t.database.db, lab.workspaceId);
    const lastOf = async (id: string) =>
      (
        await t.database.db
          .selectFrom('insight_handlings')
          .select(['handled_at', 'kind'])
          .where('explant_id', '=', id)
          .where('next_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).handled_at;
    // Explants whose history ends before now: a transfer recorded now comes after it.
    const past: string[] = [];
    for (const id of explants) if ((await lastOf(id)) < new Date().toISOString()) past.push(id);
    expect(past.length).toBeGreaterThanOrEqual(5);
    const [a, b, c, d, e] = past as [string, string, string, string, string];
    await transfer(owner, a, Date.now(), rand);
    await transfer(member, b, Date.now(), rand);
    await transfer(owner, b, Date.now() + 1000, rand);
    dataOf(
      await member.post(`/api/v1/explants/${c}/split`, {
        daughters: [{ vessel_count: 2 }, { vessel_count: 3 }],
      }),
      201,
    );
    // Not completed: no handling. Backdated: made anew, the whole history.
    dataOf(await owner.post('/api/v1/transfers', { explant_id: d, status: 'pending' }), 201);
    await transfer(owner, e, Date.parse(await lastOf(e)) - DAY, rand);
    const contaminated = await contamination(a, Date.now() + 500);
    expect(contaminated.id).toBeDefined();

    // a: a transfer and a contamination (made anew); b: two transfers; c: a split;
    // d: a pending transfer (nothing to add); e: backdated (made anew); the daughters.
    expect(await drainLab(t.database.db, lab.workspaceId)).toEqual({ explants: 7, appended: 3 });
    let { kept, remade } = await keptAndRemade();
    expect(kept).toEqual(remade);
    await expectSameAnswers();

    // After a split, the parent's next transfer counts from what the parent kept.
    await transfer(owner, c, Date.now() + 2000, () => 0.2);
    await transfer(member, a, Date.now() + 3000, rand);
    expect(await drainLab(t.database.db, lab.workspaceId)).toEqual({ explants: 2, appended: 2 });
    ({ kept, remade } = await keptAndRemade());
    expect(kept).toEqual(remade);
    await expectSameAnswers();
  });

  it('the forecast uses the kept rates as it used the computed ones', async () => {
    await buildLab(11);
    const plants = dataOf(await owner.get('/api/v1/plants?limit=10'), 200) as Json[];
    const period = { since: new Date(Date.now() - 365 * DAY).toISOString() };
    const handlings = (await computed(t.database, lab.workspaceId, period)).filter(
      isMultiplication,
    );
    const names = await labNames(t.database.db, lab.workspaceId);
    for (const plant of plants) {
      const res = await owner.get(`/api/v1/insights/forecast?plant_id=${plant.id}`);
      const species = names.plants.get(plant.id as string)?.species;
      const sources = [
        { source: 'line', of: (h: Handling) => h.plantId === plant.id },
        {
          source: 'species',
          of: (h: Handling) =>
            (h.plantId === null ? undefined : names.plants.get(h.plantId)?.species) === species,
        },
        { source: 'lab', of: () => true },
      ];
      const expected = sources.flatMap(({ source, of }) => {
        const chosen = handlings.filter(of);
        const logs = chosen.flatMap((h) =>
          h.cycleDays! >= 1 ? [(Math.log(h.after / h.before) * 28) / h.cycleDays!] : [],
        );
        if (logs.length < (source === 'lab' ? 1 : 3)) return [];
        const mean = logs.reduce((s, v) => s + v, 0) / logs.length;
        const sd =
          logs.length < 2
            ? 0
            : Math.sqrt(logs.reduce((s, v) => s + (v - mean) ** 2, 0) / (logs.length - 1));
        const counted = chosen.filter((h) => h.kind === 'transfer' && h.plantlets !== null);
        return [
          {
            source,
            handlings: logs.length,
            rate_4w: Math.exp(mean),
            rate_4w_low: Math.exp(mean - sd),
            rate_4w_high: Math.exp(mean + sd),
            plantlets_per_vessel:
              counted.length === 0
                ? null
                : counted.reduce((s, h) => s + h.plantlets! / h.after, 0) / counted.length,
          },
        ];
      })[0];
      expect(dataOf(res, 200).rates).toEqual(near(expected));
    }
  });
});
