import { describe, expect, it } from 'vitest';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { client, dataOf, expectError, ISO_MS, keysOf, listAll, tick } from '../support/helpers.js';
import { DEMAND_KEYS, newDemand } from './task-helpers.js';

type Item = { id: string };
const ids = (items: Item[]) => items.map((i) => i.id);
const URL = '/api/v1/tasks/demand';

describeOnDatabases('Demand signals', (target) => {
  const { t, lab, owner } = labSuite(target);

  const all = (query = '') => listAll(owner, `${URL}${query}`);

  it('records a signal with every field it is sent and reads it back; observed_at defaults to now', async () => {
    const res = await owner.post(URL, {
      genus: 'Monstera',
      demand_score: 42.5,
      source: 'webshop',
      source_type: 'orders',
      observed_at: '2020-11-20T10:00:00+01:00',
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replay']).toBe('false');
    const signal = body(res).data;
    expect(keysOf(signal)).toEqual(DEMAND_KEYS);
    expect(signal).toMatchObject({
      genus: 'Monstera',
      demand_score: 42.5,
      source: 'webshop',
      source_type: 'orders',
      observed_at: '2020-11-20T09:00:00.000Z',
    });
    expect(signal.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(signal.created_at).toMatch(ISO_MS);

    const bare = await newDemand(owner, { genus: 'Alocasia', demand_score: 0 });
    expect(bare).toMatchObject({ source_type: null, demand_score: 0 });
    expect(bare.observed_at).toBe(bare.created_at);
    expect(await all()).toEqual([bare, signal]);
  });

  it('refuses a negative, non-finite, too large or non-numeric score and bad fields, recording nothing', async () => {
    expect((await newDemand(owner, { demand_score: 1e15 })).demand_score).toBe(1e15);
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ demand_score: -0.01 }, /^demand_score:/],
      [{ demand_score: 1e15 + 2 }, /^demand_score:/],
      [{ demand_score: '5' }, /^demand_score:/],
      [{ demand_score: null }, /^demand_score:/],
      [{ genus: '' }, /^genus:/],
      [{ genus: 'x'.repeat(101) }, /^genus:/],
      [{ source: '' }, /^source:/],
      [{ source: 'x'.repeat(101) }, /^source:/],
      [{ source_type: 'x'.repeat(51) }, /^source_type:/],
      [{ observed_at: '2026-11-20T10:00:00' }, /^observed_at:/],
      [{ observed_at: '2026-11-20' }, /^observed_at:/],
      [{ observed_at: '9999-12-31T23:00:00-14:00' }, /^observed_at:/],
      [{ id: 'current' }, /id/],
    ];
    for (const [fields, problem] of refusals) {
      expectError(
        await owner.post(URL, { genus: 'Monstera', demand_score: 1, source: 's', ...fields }),
        422,
        'VALIDATION_ERROR',
        problem,
      );
    }
    for (const missing of ['genus', 'demand_score', 'source']) {
      const payload: Record<string, unknown> = { genus: 'M', demand_score: 1, source: 's' };
      delete payload[missing];
      expectError(await owner.post(URL, payload), 422, 'VALIDATION_ERROR', new RegExp(missing));
    }
    const raw = await t.request({
      method: 'POST',
      url: URL,
      headers: { ...lab.owner.headers, 'content-type': 'application/json' },
      payload: '{"genus":"M","source":"s","demand_score":1e400}',
    });
    expectError(raw, 422, 'VALIDATION_ERROR');
    expect(await all()).toHaveLength(1);
    expect((await newDemand(owner, { source_type: '' })).source_type).toBe('');
  });

  it('lists newest observation first, equal times the later recorded first, and keeps the history', async () => {
    const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T12:00:00Z`;
    const mid = await newDemand(owner, { observed_at: at(10), demand_score: 1 });
    const newest = await newDemand(owner, { observed_at: at(20), demand_score: 2 });
    const tieA = await newDemand(owner, { observed_at: at(15), genus: 'Musa' });
    const tieB = await newDemand(owner, { observed_at: at(15), genus: 'Musa' });
    const backfilled = await newDemand(owner, { observed_at: at(1), demand_score: 3 });
    const expected = ids([newest, tieB, tieA, mid, backfilled]);
    expect(ids(await all())).toEqual(expected);
    for (const limit of [1, 2]) expect(ids(await listAll(owner, URL, limit))).toEqual(expected);
    const offsetPage = dataOf(await owner.get(`${URL}?limit=2&offset=2`), 200);
    expect(ids(offsetPage)).toEqual(expected.slice(2, 4));
  });

  it('filters by genus ignoring case; a cursor is bound to the genus', async () => {
    const m1 = await newDemand(owner, { genus: 'Monstera', observed_at: '2026-11-01T00:00:00Z' });
    const a1 = await newDemand(owner, { genus: 'Alocasia' });
    const m2 = await newDemand(owner, { genus: 'monstera', observed_at: '2026-11-02T00:00:00Z' });
    expect(ids(await all('?genus=MONSTERA'))).toEqual([m2.id, m1.id]);
    expect(ids(await all('?genus=alocasia'))).toEqual([a1.id]);
    expect(await all('?genus=Musa')).toEqual([]);
    const cursor = body(await owner.get(`${URL}?genus=Monstera&limit=1`)).meta.next_cursor;
    expect(cursor).toEqual(expect.any(String));
    const c = encodeURIComponent(cursor);
    expectError(await owner.get(`${URL}?genus=Alocasia&cursor=${c}`), 422, 'INVALID_CURSOR');
    expectError(await owner.get(`${URL}?cursor=${c}`), 422, 'INVALID_CURSOR');
    expect(ids(dataOf(await owner.get(`${URL}?genus=Monstera&cursor=${c}`), 200))).toEqual([m1.id]);
  });

  describe('current=true', () => {
    it('answers the latest observation of the genus as one reading with id "current", never paged', async () => {
      const latest = await newDemand(owner, {
        genus: 'Monstera',
        demand_score: 80,
        observed_at: '2026-11-20T00:00:00Z',
      });
      await tick();
      // Recorded later but observed earlier: history, not the current demand.
      await newDemand(owner, {
        genus: 'MONSTERA',
        demand_score: 5,
        observed_at: '2026-11-01T00:00:00Z',
      });
      await newDemand(owner, { genus: 'Alocasia', demand_score: 1 });
      for (const query of [
        '?genus=Monstera&current=true',
        '?current=true&genus=monstera',
        '?genus=Monstera&current=true&limit=1',
        '?genus=Monstera&current=true&offset=0',
      ]) {
        expect(body(await owner.get(`${URL}${query}`)), query).toEqual({
          ok: true,
          data: [{ ...latest, id: 'current' }],
          meta: { next_cursor: null },
        });
      }
      expect(await all('?genus=Monstera')).toHaveLength(2);
      expect(body(await owner.get(`${URL}?genus=Musa&current=true`))).toEqual({
        ok: true,
        data: [],
        meta: { next_cursor: null },
      });
    });

    it('needs a genus, and takes only true (422)', async () => {
      await newDemand(owner);
      expectError(await owner.get(`${URL}?current=true`), 422, 'VALIDATION_ERROR', /^genus:/);
      expectError(
        await owner.get(`${URL}?genus=Monstera&current=false`),
        422,
        'VALIDATION_ERROR',
        /^current:/,
      );
      expectError(
        await owner.get(`${URL}?genus=Monstera&current=yes`),
        422,
        'VALIDATION_ERROR',
        /^current:/,
      );
    });

    it('works as the SDK calls it: taskDemand.list({genus, current: true})', async () => {
      const sdk = {
        taskDemand: {
          list: async (params: { genus?: string; current?: boolean }) => {
            const query = new URLSearchParams(
              Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
            );
            const res = await t.request({
              method: 'GET',
              url: `${URL}?${query.toString()}`,
              headers: lab.owner.headers,
            });
            return body(res);
          },
        },
      };
      await newDemand(owner, { genus: 'Philodendron', demand_score: 12, source_type: 'orders' });
      const latest = await newDemand(owner, { genus: 'Philodendron', demand_score: 14 });
      const page = await sdk.taskDemand.list({ genus: 'Philodendron', current: true });
      expect(page.meta).toEqual({ next_cursor: null });
      expect(page.data).toHaveLength(1);
      expect(keysOf(page.data[0])).toEqual(DEMAND_KEYS);
      expect(page.data[0]).toEqual({ ...latest, id: 'current' });
    });
  });

  describe('access', () => {
    it('needs the manager role to record (403 naming it, nothing recorded); any member reads', async () => {
      for (const role of ['member', 'viewer', 'guest'] as const) {
        const actor = client(t, await lab.actor(role));
        expectError(
          await actor.post(URL, { genus: 'M', demand_score: 1, source: 's' }),
          403,
          'FORBIDDEN',
          /manager/,
        );
        expect(dataOf(await actor.get(URL), 200)).toEqual([]);
      }
      for (const role of ['manager', 'admin'] as const) {
        await newDemand(client(t, await lab.actor(role)), { source: role });
      }
      expect((await all()).map((s: { source: string }) => s.source)).toEqual(['admin', 'manager']);
    });

    it('needs write:demand to record and read:tasks to list (403 naming the scope)', async () => {
      const tasksOnly = client(
        t,
        await lab.actor('owner', { scopes: ['read:tasks', 'write:tasks'] }),
      );
      expectError(
        await tasksOnly.post(URL, { genus: 'M', demand_score: 1, source: 's' }),
        403,
        'FORBIDDEN',
        /write:demand/,
      );
      const writer = client(t, await lab.actor('owner', { scopes: ['write:demand'] }));
      expectError(await writer.get(URL), 403, 'FORBIDDEN', /read:tasks/);
      expect(
        (await writer.post(URL, { genus: 'M', demand_score: 1, source: 's' })).statusCode,
      ).toBe(201);
      expect(await all()).toHaveLength(1);
    });

    it('shows only the workspace’s own signals, in lists and as current', async () => {
      const theirs = client(t, (await createLab(t.database, { name: 'Theirs' })).owner);
      await newDemand(theirs, { genus: 'Monstera', demand_score: 99 });
      const mine = await newDemand(owner, {
        genus: 'Monstera',
        demand_score: 1,
        observed_at: '2020-01-01T00:00:00Z',
      });
      expect(await all()).toEqual([mine]);
      expect(dataOf(await owner.get(`${URL}?genus=Monstera&current=true`), 200)).toEqual([
        { ...mine, id: 'current' },
      ]);
    });
  });

  it('replays a signal sent again with the same Idempotency-Key', async () => {
    const headers = { 'idempotency-key': 'demand:monstera:2026-11-20' };
    const payload = { genus: 'Monstera', demand_score: 3, source: 'webshop' };
    const first = await owner.post(URL, payload, headers);
    const again = await owner.post(URL, payload, headers);
    expect(first.statusCode).toBe(201);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(body(again)).toEqual(body(first));
    expect(await all()).toHaveLength(1);
  });
});
