import { beforeEach, expect, it } from 'vitest';
import { body } from '../support/harness.js';
import { dataOf, expectError, GENEROUS_LIMITS, type Json } from '../support/helpers.js';
import { describeOnDatabases, labSuite, otherLab } from '../support/suite.js';
import { buildInsightsLab, T, type InsightsLab } from './insights-fixture.js';

const PERIOD = 'since=2026-01-01&until=2026-03-31';

describeOnDatabases('Insights: the exposures behind a contamination group', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });
  const their = otherLab(t);
  let fx: InsightsLab;
  beforeEach(async () => {
    fx = await buildInsightsLab(t, lab, owner);
  });

  const exposures = async (query: string, c = owner) => {
    const res = await c.get(`/api/v1/insights/exposures?${PERIOD}&${query}`);
    return { data: dataOf(res, 200) as Json[], meta: body(res).meta };
  };
  const contaminationOf = async (explantId: string, on: string) => {
    const logs = dataOf(await owner.get(`/api/v1/contaminations?explant_id=${explantId}`), 200);
    return (logs as Json[]).find((log) => log.observed_at === T(on))!.id as string;
  };

  it("an operator's exposures, newest first, each with what it was grouped by", async () => {
    const { data } = await exposures(`by=operator&group=${fx.member.memberId}`);
    // The member: T2 (16 February), the split of E4 and the making of D1 and D2 by it
    // (2 February), E4's making (5 January).
    expect(data.map((e) => e.handled_at)).toEqual([
      T('02-16T09:00'),
      T('02-02T09:00'),
      T('02-02T09:00'),
      T('02-02T09:00'),
      T('01-05T09:00'),
    ]);
    const split = data.slice(1, 4).map((e) => [e.explant_id, e.kind]);
    expect(split).toEqual(
      expect.arrayContaining([
        [fx.explants.e4, 'split'],
        [fx.explants.d1, 'split'],
        [fx.explants.d2, 'split'],
      ]),
    );
    expect(data[4]).toMatchObject({ explant_id: fx.explants.e4, kind: 'initiation' });
    expect(data[0]).toEqual({
      explant_id: fx.explants.e1,
      explant_label: 'E1',
      plant_id: fx.plants.fiddleA,
      kind: 'transfer',
      handled_at: T('02-16T09:00'),
      operator: { id: fx.member.memberId, label: 'member member' },
      location: 'Hood 2',
      media_batch: null,
      recipe: null,
      room: null,
      stage: 'elongation',
      week: '2026-W08',
      contaminated: false,
      contamination_id: null,
    });
    const d1 = data.find((e) => e.explant_id === fx.explants.d1)!;
    expect(d1).toMatchObject({
      explant_label: expect.any(String),
      plant_id: fx.plants.banana,
      room: { id: fx.roomId, label: 'Hood room' },
      stage: 'multiplication',
      week: '2026-W06',
      contaminated: true,
      contamination_id: await contaminationOf(fx.explants.d1, '02-05T09:00'),
    });
    expect(data.filter((e) => e.contaminated)).toHaveLength(1);
  });

  it('contaminated=true or false splits a group as its figures count it', async () => {
    const only = await exposures('by=location&group=Hood%201&contaminated=true');
    // Hood 1: T1 (contaminated 25 January), T3, T4 (contaminated 10 February).
    expect(only.data.map((e) => [e.explant_id, e.handled_at, e.contamination_id])).toEqual([
      [fx.explants.e3, T('02-02T09:00'), await contaminationOf(fx.explants.e3, '02-10T09:00')],
      [fx.explants.e1, T('01-19T09:00'), await contaminationOf(fx.explants.e1, '01-25T09:00')],
    ]);
    const clean = await exposures('by=location&group=Hood%201&contaminated=false');
    expect(clean.data.map((e) => [e.explant_id, e.handled_at, e.contaminated])).toEqual([
      [fx.explants.e3, T('01-05T09:00'), false],
    ]);
    // T2 counts only with a window of 32 days.
    const t2 = `by=location&group=Hood%202&contaminated=true`;
    expect((await exposures(`${t2}&window_days=31`)).data).toEqual([]);
    expect((await exposures(`${t2}&window_days=32`)).data).toMatchObject([
      { explant_id: fx.explants.e1, contaminated: true },
    ]);
  });

  it('every group of every grouping lists as many exposures as its figures count', async () => {
    for (const by of ['operator', 'location', 'room', 'stage', 'week', 'media_batch', 'recipe']) {
      const groups = dataOf(
        await owner.get(`/api/v1/insights/contamination?by=${by}&${PERIOD}`),
        200,
      ) as Json[];
      expect(groups.length).toBeGreaterThan(0);
      for (const { group, exposures: n, contaminated } of groups) {
        const named = group.label === 'none recorded' ? 'none' : (group.id ?? group.label);
        const { data } = await exposures(`by=${by}&group=${encodeURIComponent(named)}&limit=200`);
        expect([by, group.label, data.length, data.filter((e) => e.contaminated).length]).toEqual([
          by,
          group.label,
          n,
          contaminated,
        ]);
      }
    }
    expect((await exposures('by=week&group=2026-W09')).data).toEqual([]);
  });

  it('pages newest first by cursor', async () => {
    const all = (await exposures('by=room&group=' + fx.roomId)).data;
    expect(all).toHaveLength(10);
    const seen: Json[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await exposures(
        `by=room&group=${fx.roomId}&limit=4${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
      );
      seen.push(...page.data);
      cursor = page.meta.next_cursor;
      pages += 1;
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual(all);
    const times = all.map((e) => e.handled_at as string);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('a member below manager gets their own exposures only; another lab none', async () => {
    const own = await exposures(`by=operator&group=${lab.owner.memberId}`, fx.member.client);
    expect(own.data).toEqual([]);
    const mine = await exposures('by=location&group=none', fx.member.client);
    // The member's: E4's making, its split, D1's and D2's making (none names a location).
    expect(mine.data.map((e) => e.operator.id)).toEqual(Array(4).fill(fx.member.memberId));
    expect((await exposures('by=location&group=none', their.owner)).data).toEqual([]);
  });

  it('refuses an unknown grouping, no group, since after until', async () => {
    const get = (query: string) => owner.get(`/api/v1/insights/exposures?${query}`);
    expectError(await get('by=colour&group=none'), 422, 'VALIDATION_ERROR', /by/);
    expectError(await get('by=week'), 422, 'VALIDATION_ERROR', /group/);
    expectError(
      await get('by=week&group=none&since=2026-03-01&until=2026-02-01'),
      422,
      'VALIDATION_ERROR',
      /since: .* is after until/,
    );
    expectError(await get('by=week&group=none&cursor=nope'), 422, 'INVALID_CURSOR');
  });
});
