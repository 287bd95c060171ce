import { beforeEach, expect, it } from 'vitest';
import { newBatch, newRecipe } from '../media/support.js';
import { dataOf, GENEROUS_LIMITS, newExplant, newPlant, type Json } from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

/*
 * Contamination and multiplication by medium batch and recipe, worked out by hand.
 * May 2026, UTC; recipes "MS basal" (batches B1 prepared 05-01, B2 prepared 05-08)
 * and "WPM" (B3, prepared 05-01):
 *
 * M1: made 05-04 09:00 on B1, 10 vessels; transferred 05-11 onto B2, 20 vessels (rate 2,
 *     cycle 7); 05-18 onto B3, 60 vessels (rate 3); contamination 05-13 (against the
 *     05-11 transfer). M1 itself is now on B3: its making's batch is its created event's.
 * M2: made 05-04 on no batch, 4 vessels; transferred 05-11 onto B1, 16 vessels (rate 4);
 *     contamination 05-12 (against that transfer).
 * M3: made 05-04 on B3, 5 vessels; contamination 05-06 (against its making).
 */
const PERIOD = 'since=2026-05-01&until=2026-05-31';
const T = (date: string) => `2026-${date}:00.000Z`;

describeOnDatabases('Insights by medium batch and recipe', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });
  let ids: { r1: string; r2: string; b1: string; b2: string; b3: string } & Record<string, string>;

  /** Dates an explant's making (and its last subculture) as if made at `at`. */
  const backdate = async (explantId: string, at: string) => {
    await t.database.db
      .updateTable('explants')
      .set({ created_at: at, subcultured_at: at })
      .where('workspace_id', '=', lab.workspaceId)
      .where('id', '=', explantId)
      .execute();
  };

  beforeEach(async () => {
    const r1 = (await newRecipe(owner, { title: 'MS basal' })).id;
    const r2 = (await newRecipe(owner, { title: 'WPM' })).id;
    const b1 = (await newBatch(owner, { recipe_id: r1, prepared_at: '2026-05-01T08:00:00Z' })).id;
    const b2 = (await newBatch(owner, { recipe_id: r1, prepared_at: '2026-05-08T08:00:00Z' })).id;
    const b3 = (await newBatch(owner, { recipe_id: r2, prepared_at: '2026-05-01T08:00:00Z' })).id;
    const plant = (await newPlant(owner, { species: 'Ficus lyrata' })).id;
    const made = async (label: string, count: number, batch?: string) => {
      const explant = await newExplant(owner, {
        label,
        plant_id: plant,
        initial_count: count,
        ...(batch === undefined ? {} : { media_batch_id: batch }),
      });
      await backdate(explant.id, T('05-04T09:00'));
      return explant.id as string;
    };
    const transfer = async (explantId: string, at: string, batch: string, n: number) =>
      dataOf(
        await owner.post('/api/v1/transfers', {
          explant_id: explantId,
          transfer_date: T(at),
          vessel_count: n,
          media_batch_id: batch,
        }),
        201,
      );
    const contamination = async (explantId: string, at: string) =>
      dataOf(
        await owner.post('/api/v1/contaminations', {
          explant_id: explantId,
          type: 'mold',
          issue: 'Mold on the medium',
          observed_at: T(at),
        }),
        201,
      ).id as string;
    const m1 = await made('M1', 10, b1);
    const m2 = await made('M2', 4);
    const m3 = await made('M3', 5, b3);
    await transfer(m1, '05-11T09:00', b2, 20);
    await transfer(m1, '05-18T09:00', b3, 60);
    await transfer(m2, '05-11T09:00', b1, 16);
    const c1 = await contamination(m1, '05-13T09:00');
    const c2 = await contamination(m2, '05-12T09:00');
    const c3 = await contamination(m3, '05-06T09:00');
    ids = { r1, r2, b1, b2, b3, m1, m2, m3, c1, c2, c3 };
  });

  const figures = async (path: string, by: string) =>
    (dataOf(await owner.get(`/api/v1/insights/${path}?by=${by}&${PERIOD}`), 200) as Json[]).map(
      (row) =>
        Object.fromEntries(
          Object.entries(row).map(([k, v]) => [
            k,
            typeof v === 'number' && !Number.isInteger(v) ? Number(v.toFixed(6)) : v,
          ]),
        ),
    );

  it('contamination by media batch and by recipe', async () => {
    // The premise: a later transfer moved M1 itself onto B3.
    expect(dataOf(await owner.get(`/api/v1/explants/${ids.m1}`), 200).media_batch_id).toBe(ids.b3);
    const half = { rate: 0.5, ci_low: 0.094531, ci_high: 0.905469 };
    expect(await figures('contamination', 'media_batch')).toEqual([
      {
        group: { id: ids.b1, label: 'MS basal 2026-05-01' },
        exposures: 2,
        contaminated: 1,
        ...half,
      },
      {
        group: { id: ids.b2, label: 'MS basal 2026-05-08' },
        exposures: 1,
        contaminated: 1,
        rate: 1,
        ci_low: 0.206549,
        ci_high: 1,
      },
      { group: { id: ids.b3, label: 'WPM 2026-05-01' }, exposures: 2, contaminated: 1, ...half },
      {
        group: { id: null, label: 'none recorded' },
        exposures: 1,
        contaminated: 0,
        rate: 0,
        ci_low: 0,
        ci_high: 0.793451,
      },
    ]);
    expect(await figures('contamination', 'recipe')).toEqual([
      {
        group: { id: ids.r1, label: 'MS basal' },
        exposures: 3,
        contaminated: 2,
        rate: 0.666667,
        ci_low: 0.20766,
        ci_high: 0.938508,
      },
      { group: { id: ids.r2, label: 'WPM' }, exposures: 2, contaminated: 1, ...half },
      {
        group: { id: null, label: 'none recorded' },
        exposures: 1,
        contaminated: 0,
        rate: 0,
        ci_low: 0,
        ci_high: 0.793451,
      },
    ]);
  });

  it('multiplication by media batch: the batch each transfer put the cultures on', async () => {
    expect(await figures('multiplication', 'media_batch')).toEqual([
      {
        group: { id: ids.b1, label: 'MS basal 2026-05-01' },
        handlings: 1,
        rate: 4,
        handlings_4w: 1,
        rate_4w: 256,
        cycle_days: 7,
      },
      {
        group: { id: ids.b2, label: 'MS basal 2026-05-08' },
        handlings: 1,
        rate: 2,
        handlings_4w: 1,
        rate_4w: 16,
        cycle_days: 7,
      },
      {
        group: { id: ids.b3, label: 'WPM 2026-05-01' },
        handlings: 1,
        rate: 3,
        handlings_4w: 1,
        rate_4w: 81,
        cycle_days: 7,
      },
    ]);
  });

  it('the exposures behind a batch and a recipe name both', async () => {
    const list = async (query: string) =>
      dataOf(await owner.get(`/api/v1/insights/exposures?${PERIOD}&${query}`), 200) as Json[];
    const b1 = { id: ids.b1, label: 'MS basal 2026-05-01' };
    const r1 = { id: ids.r1, label: 'MS basal' };
    expect(
      (await list(`by=media_batch&group=${ids.b1}`)).map((e) => [
        e.explant_id,
        e.kind,
        e.handled_at,
        e.media_batch,
        e.recipe,
        e.contamination_id,
      ]),
    ).toEqual([
      [ids.m2, 'transfer', T('05-11T09:00'), b1, r1, ids.c2],
      [ids.m1, 'initiation', T('05-04T09:00'), b1, r1, null],
    ]);
    const recipe = await list(`by=recipe&group=${ids.r1}`);
    // The two transfers of 11 May (onto B2 and B1), then M1's making on B1.
    expect(recipe.map((e) => e.handled_at)).toEqual([
      T('05-11T09:00'),
      T('05-11T09:00'),
      T('05-04T09:00'),
    ]);
    expect(recipe.map((e) => [e.explant_id, e.media_batch.id, e.contaminated])).toEqual(
      expect.arrayContaining([
        [ids.m1, ids.b2, true],
        [ids.m2, ids.b1, true],
        [ids.m1, ids.b1, false],
      ]),
    );
    expect(recipe.every((e) => e.recipe.id === ids.r1)).toBe(true);
    expect(await list(`by=media_batch&group=none`)).toMatchObject([
      { explant_id: ids.m2, kind: 'initiation', media_batch: null, recipe: null },
    ]);
  });
});
