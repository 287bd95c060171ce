import { parse } from 'csv-parse/sync';
import { beforeEach, expect, it } from 'vitest';
import { body } from '../support/harness.js';
import { dataOf, expectError, GENEROUS_LIMITS, type Json } from '../support/helpers.js';
import { describeOnDatabases, labSuite, otherLab } from '../support/suite.js';
import { buildInsightsLab, type InsightsLab } from './insights-fixture.js';

const PERIOD = 'since=2026-01-01&until=2026-03-31';

/** A group's figures, rates to 6 decimals. */
const figures = (row: Json) =>
  Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      typeof value === 'number' && !Number.isInteger(value) ? Number(value.toFixed(6)) : value,
    ]),
  );

describeOnDatabases('Insights', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });
  const their = otherLab(t);
  let fx: InsightsLab;
  beforeEach(async () => {
    fx = await buildInsightsLab(t, lab, owner);
  });

  const insight = async (path: string, query: string) => {
    const res = await owner.get(`/api/v1/insights/${path}?${query}`);
    return { data: dataOf(res, 200), meta: body(res).meta };
  };
  const contamination = async (by: string, extra = '') =>
    (await insight('contamination', `by=${by}&${PERIOD}${extra}`)).data.map(figures);

  it('contamination by operator: exposures, contaminated ones and the Wilson interval', async () => {
    const { data, meta } = await insight('contamination', `by=operator&${PERIOD}`);
    // The member: T2, E4's making, the split, D1's and D2's making; D1's is contaminated.
    // The owner: E1's, E2's and E3's making, T1, T3, T4; T1, E2's making and T4 are.
    expect(data.map(figures)).toEqual([
      {
        group: { id: fx.member.memberId, label: 'member member' },
        exposures: 5,
        contaminated: 1,
        rate: 0.2,
        ci_low: 0.036224,
        ci_high: 0.624465,
      },
      {
        group: { id: lab.owner.memberId, label: 'owner member' },
        exposures: 6,
        contaminated: 3,
        rate: 0.5,
        ci_low: 0.187616,
        ci_high: 0.812384,
      },
    ]);
    expect(figures(meta.overall)).toEqual({
      exposures: 11,
      contaminated: 4,
      rate: 0.363636,
      ci_low: 0.151665,
      ci_high: 0.646199,
    });
    expect(meta).toMatchObject({
      since: '2026-01-01T00:00:00.000Z',
      until: '2026-04-01T00:00:00.000Z',
      window_days: 21,
    });
  });

  it('contamination by location, room, stage, week and media batch', async () => {
    expect(await contamination('location')).toEqual([
      {
        group: { id: null, label: 'Hood 1' },
        exposures: 3,
        contaminated: 2,
        rate: 0.666667,
        ci_low: 0.20766,
        ci_high: 0.938508,
      },
      {
        group: { id: null, label: 'Hood 2' },
        exposures: 1,
        contaminated: 0,
        rate: 0,
        ci_low: 0,
        ci_high: 0.793451,
      },
      {
        group: { id: null, label: 'none recorded' },
        exposures: 7,
        contaminated: 2,
        rate: 0.285714,
        ci_low: 0.082219,
        ci_high: 0.641066,
      },
    ]);
    // T2 was in Elongation, which E1 entered with no room.
    expect(await contamination('room')).toEqual([
      {
        group: { id: fx.roomId, label: 'Hood room' },
        exposures: 10,
        contaminated: 4,
        rate: 0.4,
        ci_low: 0.16818,
        ci_high: 0.687326,
      },
      {
        group: { id: null, label: 'none recorded' },
        exposures: 1,
        contaminated: 0,
        rate: 0,
        ci_low: 0,
        ci_high: 0.793451,
      },
    ]);
    expect(await contamination('stage')).toEqual([
      {
        group: { id: 'elongation', label: 'Elongation' },
        exposures: 1,
        contaminated: 0,
        rate: 0,
        ci_low: 0,
        ci_high: 0.793451,
      },
      {
        group: { id: 'multiplication', label: 'Multiplication' },
        exposures: 10,
        contaminated: 4,
        rate: 0.4,
        ci_low: 0.16818,
        ci_high: 0.687326,
      },
    ]);
    // 5 January 2026 is a Monday of week 2.
    expect(await contamination('week')).toEqual([
      {
        group: { id: null, label: '2026-W02' },
        exposures: 5,
        contaminated: 1,
        rate: 0.2,
        ci_low: 0.036224,
        ci_high: 0.624465,
      },
      {
        group: { id: null, label: '2026-W04' },
        exposures: 1,
        contaminated: 1,
        rate: 1,
        ci_low: 0.206549,
        ci_high: 1,
      },
      {
        group: { id: null, label: '2026-W06' },
        exposures: 4,
        contaminated: 2,
        rate: 0.5,
        ci_low: 0.150039,
        ci_high: 0.849961,
      },
      {
        group: { id: null, label: '2026-W08' },
        exposures: 1,
        contaminated: 0,
        rate: 0,
        ci_low: 0,
        ci_high: 0.793451,
      },
    ]);
    for (const by of ['media_batch', 'recipe']) {
      expect(await contamination(by)).toEqual([
        {
          group: { id: null, label: 'none recorded' },
          exposures: 11,
          contaminated: 4,
          rate: 0.363636,
          ci_low: 0.151665,
          ci_high: 0.646199,
        },
      ]);
    }
  });

  it('counts a contamination within window_days only, and never against an earlier handling', async () => {
    // The contamination of 20 March is 32 days after T2: it counts with a window of 32.
    expect(await contamination('stage', '&window_days=31')).toMatchObject([
      { group: { id: 'elongation' }, exposures: 1, contaminated: 0 },
      { group: { id: 'multiplication' }, exposures: 10, contaminated: 4 },
    ]);
    expect(await contamination('stage', '&window_days=32')).toMatchObject([
      { group: { id: 'elongation' }, exposures: 1, contaminated: 1 },
      { group: { id: 'multiplication' }, exposures: 10, contaminated: 4 },
    ]);
    // E3's contamination of 10 February came after T3's next handling (T4): T4's, not T3's.
    const week2 = (await contamination('week', '&window_days=365'))[0];
    expect(week2).toMatchObject({ group: { label: '2026-W02' }, exposures: 5, contaminated: 1 });
  });

  it('a period with no handlings answers no groups and an empty overall', async () => {
    const { data, meta } = await insight(
      'contamination',
      'by=operator&since=2025-01-01&until=2025-12-31',
    );
    expect(data).toEqual([]);
    expect(meta.overall).toEqual({
      exposures: 0,
      contaminated: 0,
      rate: null,
      ci_low: null,
      ci_high: null,
    });
    expect(
      (await insight('multiplication', 'by=plant&since=2025-01-01&until=2025-12-31')).data,
    ).toEqual([]);
  });

  it('multiplication by plant, species, operator and stage: geometric means and what they rest on', async () => {
    const multiplication = async (by: string) =>
      (await insight('multiplication', `by=${by}&${PERIOD}`)).data.map(figures);
    // T1 3 (14 days, 4-week 9), T2 2 (28 days), T3 2 (0 days: no 4-week rate), T4 2 (28),
    // the split (2 kept + 3 + 3) / 8 = 1 (28). Makings are no multiplication.
    expect(await multiplication('plant')).toEqual([
      {
        group: { id: fx.plants.banana, label: 'Banana' },
        handlings: 1,
        rate: 1,
        handlings_4w: 1,
        rate_4w: 1,
        cycle_days: 28,
      },
      {
        group: { id: fx.plants.fiddleA, label: 'Fiddle A' },
        handlings: 2,
        rate: 2.44949,
        handlings_4w: 2,
        rate_4w: 4.242641,
        cycle_days: 21,
      },
      {
        group: { id: fx.plants.fiddleB, label: 'Fiddle B' },
        handlings: 2,
        rate: 2,
        handlings_4w: 1,
        rate_4w: 2,
        cycle_days: 14,
      },
    ]);
    expect(await multiplication('species')).toEqual([
      {
        group: { id: null, label: 'Ficus lyrata' },
        handlings: 4,
        rate: 2.213364,
        handlings_4w: 3,
        rate_4w: 3.301927,
        cycle_days: 17.5,
      },
      {
        group: { id: null, label: 'Musa acuminata' },
        handlings: 1,
        rate: 1,
        handlings_4w: 1,
        rate_4w: 1,
        cycle_days: 28,
      },
    ]);
    expect(await multiplication('operator')).toEqual([
      {
        group: { id: fx.member.memberId, label: 'member member' },
        handlings: 2,
        rate: 1.414214,
        handlings_4w: 2,
        rate_4w: 1.414214,
        cycle_days: 28,
      },
      {
        group: { id: lab.owner.memberId, label: 'owner member' },
        handlings: 3,
        rate: 2.289428,
        handlings_4w: 2,
        rate_4w: 4.242641,
        cycle_days: 14,
      },
    ]);
    expect(await multiplication('stage')).toEqual([
      {
        group: { id: 'elongation', label: 'Elongation' },
        handlings: 1,
        rate: 2,
        handlings_4w: 1,
        rate_4w: 2,
        cycle_days: 28,
      },
      {
        group: { id: 'multiplication', label: 'Multiplication' },
        handlings: 4,
        rate: 1.86121,
        handlings_4w: 3,
        rate_4w: 2.620741,
        cycle_days: 17.5,
      },
    ]);
    expect(await multiplication('media_batch')).toMatchObject([
      { group: { id: null, label: 'none recorded' }, handlings: 5 },
    ]);
  });

  it('a member below manager gets the figures of their own handlings only', async () => {
    const res = await fx.member.client.get(`/api/v1/insights/contamination?by=operator&${PERIOD}`);
    expect(dataOf(res, 200).map(figures)).toEqual([
      {
        group: { id: fx.member.memberId, label: 'member member' },
        exposures: 5,
        contaminated: 1,
        rate: 0.2,
        ci_low: 0.036224,
        ci_high: 0.624465,
      },
    ]);
    expect(body(res).meta.overall).toMatchObject({ exposures: 5, contaminated: 1 });
    const manager = await lab.actor('manager');
    const all = await t.request({
      method: 'GET',
      url: `/api/v1/insights/contamination?by=operator&${PERIOD}`,
      headers: manager.headers,
    });
    expect(body(all).meta.overall).toMatchObject({ exposures: 11, contaminated: 4 });
  });

  it('losses by stage: entered, moved on, still there, ended, median days', async () => {
    // E2 discarded for its contamination, D2 lost.
    const [e2Log] = dataOf(
      await owner.get(`/api/v1/contaminations?explant_id=${fx.explants.e2}`),
      200,
    );
    dataOf(
      await owner.post(`/api/v1/contaminations/${e2Log.id}/resolve`, { outcome: 'discarded' }),
      200,
    );
    dataOf(await owner.patch(`/api/v1/explants/${fx.explants.e2}`, { status: 'discarded' }), 200);
    dataOf(await owner.patch(`/api/v1/explants/${fx.explants.d2}`, { status: 'lost' }), 200);
    const none = {
      moved_on: 0,
      still_there: 0,
      discarded: 0,
      contaminated_discarded: 0,
      lost: 0,
      retired: 0,
      median_days: null,
    };
    const stage = (key: string, name: string, figures: Json) => ({
      stage: { key, name },
      ...none,
      ...figures,
    });
    const empty = (key: string, name: string) => stage(key, name, { entered: 0 });
    const { data, meta } = await insight('stages', PERIOD);
    // Multiplication: E1 (left after 36 days), E2, E3, E4, D1, D2; Elongation: E1.
    expect(data).toEqual([
      empty('initiation', 'Initiation'),
      empty('establishment', 'Establishment'),
      stage('multiplication', 'Multiplication', {
        entered: 6,
        moved_on: 1,
        still_there: 3,
        contaminated_discarded: 1,
        lost: 1,
        median_days: 36,
      }),
      stage('elongation', 'Elongation', { entered: 1, still_there: 1 }),
      empty('root_induction', 'Root Induction'),
      empty('acclimatization', 'Acclimatization'),
    ]);
    expect(meta).toEqual({ since: '2026-01-01T00:00:00.000Z', until: '2026-04-01T00:00:00.000Z' });
    const ofPlant = await insight('stages', `plant_id=${fx.plants.fiddleA}&${PERIOD}`);
    expect(ofPlant.data.filter((row: Json) => row.entered > 0)).toEqual([
      stage('multiplication', 'Multiplication', {
        entered: 2,
        moved_on: 1,
        contaminated_discarded: 1,
        median_days: 36,
      }),
      stage('elongation', 'Elongation', { entered: 1, still_there: 1 }),
    ]);
    const ofSpecies = await insight('stages', `species=musa%20ACUMINATA&${PERIOD}`);
    expect(ofSpecies.data.filter((row: Json) => row.entered > 0)).toEqual([
      stage('multiplication', 'Multiplication', { entered: 3, still_there: 2, lost: 1 }),
    ]);
    expect(
      (await insight('stages', `species=Quercus&${PERIOD}`)).data.every(
        (row: Json) => row.entered === 0,
      ),
    ).toBe(true);
  });

  it('forecast: the line falls back to its species, the plan for a target, the projection without', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const day = (n: number) =>
      new Date(Date.parse(today) + n * 86_400_000).toISOString().slice(0, 10);
    const rates = { since: '2026-01-01', until: '2026-03-31' };
    const query = `since=${rates.since}&until=${rates.until}`;
    // Fiddle A has two 4-week rates (9, 2): too few; Ficus lyrata has three (9, 2, 2).
    const plan = dataOf(
      await owner.get(
        `/api/v1/insights/forecast?plant_id=${fx.plants.fiddleA}&target_plantlets=5000&by=${day(84)}&${query}`,
      ),
      200,
    );
    expect(plan.plant).toEqual({ id: fx.plants.fiddleA, label: 'Fiddle A' });
    expect(plan.current_vessels).toBe(64);
    expect(figures(plan.rates)).toEqual({
      source: 'species',
      handlings: 3,
      rate_4w: 3.301927,
      rate_4w_low: 1.385591,
      rate_4w_high: 7.868644,
      plantlets_per_vessel: 4,
    });
    // 5000 / 4 = 1250 vessels on the day; 12 weeks grow them 36-fold (3.3019^3).
    expect(plan.plan).toEqual({
      target_plantlets: 5000,
      by: day(84),
      vessels_needed: 1250,
      vessels_to_start: 35,
      vessels_to_start_low: 3,
      vessels_to_start_high: 470,
      // 64 vessels need 28 × ln(1250/64) / ln 3.3019 = 69.7 days: 70 days before the day.
      start_by: day(14),
      late: false,
    });
    expect(plan.weeks).toHaveLength(13);
    expect(figures(plan.weeks[12])).toEqual({
      week: 12,
      date: day(84),
      vessels: 1260,
      vessels_low: 93.10506,
      vessels_high: 17051.704863,
      plantlets: 5040,
    });
    // Banana's line and species have one rate each: the lab's four (9, 2, 2, 1).
    const plain = dataOf(
      await owner.get(`/api/v1/insights/forecast?plant_id=${fx.plants.banana}&${query}`),
      200,
    );
    expect(plain.plan).toBeNull();
    expect(plain.current_vessels).toBe(8);
    expect(figures(plain.rates)).toMatchObject({ source: 'lab', handlings: 4, rate_4w: 2.44949 });
    expect(plain.weeks.map((w: Json) => w.date)).toEqual(
      Array.from({ length: 13 }, (_, k) => day(7 * k)),
    );
    expect(figures(plain.weeks[4])).toMatchObject({
      vessels: 19.595918,
      vessels_low: 7.754436,
      vessels_high: 49.520044,
    });
  });

  it("forecast refusals: another lab's plant, a target without a date, a date passed, no rates", async () => {
    const theirs = (await their.owner.post('/api/v1/plants', { species: 'Ficus lyrata' })).json()
      .data;
    const forecastOf = (query: string) => owner.get(`/api/v1/insights/forecast?${query}`);
    expectError(await forecastOf(`plant_id=${theirs.id}`), 404, 'NOT_FOUND', /Plant not found/);
    expectError(await owner.get(`/api/v1/insights/stages?plant_id=${theirs.id}`), 404, 'NOT_FOUND');
    expectError(
      await owner.get(`/api/v1/insights/stages?plant_id=${fx.plants.banana}&species=Musa`),
      422,
      'VALIDATION_ERROR',
      /not both/,
    );
    expectError(
      await forecastOf(`plant_id=${fx.plants.banana}&target_plantlets=10`),
      422,
      'VALIDATION_ERROR',
      /together/,
    );
    expectError(
      await forecastOf(`plant_id=${fx.plants.banana}&target_plantlets=10&by=2026-01-01`),
      422,
      'VALIDATION_ERROR',
      /not after today/,
    );
    expectError(
      await forecastOf(`plant_id=${fx.plants.banana}&since=2025-01-01&until=2025-12-31`),
      422,
      'VALIDATION_ERROR',
      /no rate to forecast with/,
    );
  });

  it('answers CSV: a row per group, per stage, per week', async () => {
    const csv = async (url: string, accept = 'text/csv') => {
      const res = await t.request({
        method: 'GET',
        url,
        headers: { ...lab.owner.headers, accept },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      const rows: string[][] = parse(res.body);
      return rows;
    };
    expect(await csv(`/api/v1/insights/contamination?by=location&${PERIOD}`)).toEqual([
      ['group_id', 'group_label', 'exposures', 'contaminated', 'rate', 'ci_low', 'ci_high'],
      [
        '',
        'Hood 1',
        '3',
        '2',
        String(2 / 3),
        expect.stringMatching(/^0\.2076/),
        expect.stringMatching(/^0\.9385/),
      ],
      ['', 'Hood 2', '1', '0', '0', '0', expect.stringMatching(/^0\.7934/)],
      [
        '',
        'none recorded',
        '7',
        '2',
        String(2 / 7),
        expect.stringMatching(/^0\.0822/),
        expect.stringMatching(/^0\.6410/),
      ],
    ]);
    const [header, ...plants] = await csv(`/api/v1/insights/multiplication?by=plant&${PERIOD}`);
    expect(header).toEqual([
      'group_id',
      'group_label',
      'handlings',
      'rate',
      'handlings_4w',
      'rate_4w',
      'cycle_days',
    ]);
    expect(plants.map((row) => row.slice(0, 3))).toEqual([
      [fx.plants.banana, 'Banana', '1'],
      [fx.plants.fiddleA, 'Fiddle A', '2'],
      [fx.plants.fiddleB, 'Fiddle B', '2'],
    ]);
    const stages = await csv(`/api/v1/insights/stages?${PERIOD}`);
    expect(stages[0]!.slice(0, 4)).toEqual(['stage_key', 'stage_name', 'entered', 'moved_on']);
    expect(stages[3]!.slice(0, 4)).toEqual(['multiplication', 'Multiplication', '6', '1']);
    const weeks = await csv(`/api/v1/insights/forecast?plant_id=${fx.plants.banana}&${PERIOD}`);
    expect(weeks[0]).toEqual([
      'week',
      'date',
      'vessels',
      'vessels_low',
      'vessels_high',
      'plantlets',
    ]);
    expect(weeks).toHaveLength(14);
    expect(weeks[1]!.slice(0, 3)).toEqual(['0', new Date().toISOString().slice(0, 10), '8']);
    // The spreadsheet profile: headers in words.
    const friendly = await csv(
      `/api/v1/insights/contamination?by=week&${PERIOD}`,
      'text/csv; profile=spreadsheet',
    );
    expect(friendly[0]).toEqual([
      'Group ID',
      'Group label',
      'Exposures',
      'Contaminated',
      'Rate',
      'Ci low',
      'Ci high',
    ]);
    // JSON stays the answer of a request that asks for it.
    const json = await owner.get(`/api/v1/insights/contamination?by=week&${PERIOD}`);
    expect(json.headers['content-type']).toMatch(/application\/json/);
    expect(json.headers.vary).toMatch(/Accept/);
  });

  it('another lab sees none of it', async () => {
    const res = await their.owner.get(`/api/v1/insights/contamination?by=operator&${PERIOD}`);
    expect(dataOf(res, 200)).toEqual([]);
  });

  it('refuses an unknown grouping, since after until and a period over five years', async () => {
    expectError(
      await owner.get('/api/v1/insights/contamination?by=colour'),
      422,
      'VALIDATION_ERROR',
      /by/,
    );
    expectError(
      await owner.get('/api/v1/insights/multiplication?by=room'),
      422,
      'VALIDATION_ERROR',
      /by/,
    );
    expectError(await owner.get('/api/v1/insights/contamination'), 422, 'VALIDATION_ERROR', /by/);
    expectError(
      await owner.get('/api/v1/insights/contamination?by=week&since=2026-03-01&until=2026-02-01'),
      422,
      'VALIDATION_ERROR',
      /since: .* is after until/,
    );
    expectError(
      await owner.get('/api/v1/insights/multiplication?by=plant&since=2020-01-01&until=2025-01-01'),
      422,
      'VALIDATION_ERROR',
      /at most 5 years/,
    );
    // Five years to the day is allowed.
    dataOf(
      await owner.get('/api/v1/insights/multiplication?by=plant&since=2021-01-01&until=2025-12-31'),
      200,
    );
    expectError(
      await owner.get('/api/v1/insights/contamination?by=week&window_days=0'),
      422,
      'VALIDATION_ERROR',
      /window_days/,
    );
    const noScope = await lab.actor('owner', { scopes: ['read:explants'] });
    const refused = await t.request({
      method: 'GET',
      url: '/api/v1/insights/contamination?by=week',
      headers: noScope.headers,
    });
    expectError(refused, 403, 'FORBIDDEN', /read:insights/);
  });
});
