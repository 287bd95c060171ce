import { describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { body } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { dataOf, expectError, listAll, newExplant, newPlant } from '../support/helpers.js';

type Item = { id: string };
const ids = (items: Item[]) => items.map((i) => i.id);

describeOnDatabases('Lists', (target) => {
  const { t, lab, owner } = labSuite(target);

  /** One list per kind, each with `count` records; returns the list URL and ids in creation order. */
  const fill = async (kind: 'plants' | 'explants' | 'stages' | 'events', count: number) => {
    const created: string[] = [];
    if (kind === 'plants')
      for (let i = 0; i < count; i++)
        created.push((await newPlant(owner, { species: `P${i}` })).id);
    if (kind === 'explants')
      for (let i = 0; i < count; i++)
        created.push((await newExplant(owner, { label: `E${i}` })).id);
    if (kind === 'events') {
      for (let i = 0; i < count; i++) await newPlant(owner, { species: `P${i}` });
      return {
        url: '/api/v1/events?entity=plant',
        created: ids(await listAll(owner, '/api/v1/events?entity=plant')),
      };
    }
    if (kind === 'stages') {
      const plant = await newPlant(owner);
      created.push((await listAll(owner, `/api/v1/stages?plant_id=${plant.id}`))[0].id);
      for (let i = 1; i < count; i++) {
        const moved = await owner.post('/api/v1/stages', {
          plant_id: plant.id,
          stage: i % 2 ? 'production' : 'greenhouse',
        });
        created.push(body(moved).data.id);
      }
      return { url: `/api/v1/stages?plant_id=${plant.id}`, created };
    }
    return { url: `/api/v1/${kind}`, created };
  };

  const join = (url: string) => (url.includes('?') ? '&' : '?');

  describe.each(['plants', 'explants', 'stages', 'events'] as const)('%s', (kind) => {
    // Events are oldest first; the record lists newest first.
    const expectedOrder = (created: string[]) =>
      kind === 'events' ? created : [...created].reverse();

    it('pages with cursors through every record exactly once, in order, next_cursor null at the end', async () => {
      const { url, created } = await fill(kind, 7);
      const pages: string[][] = [];
      let cursor: string | null = null;
      do {
        const res = await owner.get(
          `${url}${join(url)}limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        pages.push(ids(dataOf(res, 200)));
        expect(body(res).meta).toHaveProperty('next_cursor');
        cursor = body(res).meta.next_cursor;
      } while (cursor !== null);
      expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
      expect(pages.flat()).toEqual(expectedOrder(created));
    });

    it('pages with offset and limit, and a full last page has next_cursor null', async () => {
      const { url, created } = await fill(kind, 5);
      const order = expectedOrder(created);
      const res = await owner.get(`${url}${join(url)}limit=2&offset=2`);
      expect(ids(dataOf(res, 200))).toEqual(order.slice(2, 4));
      expect(body(res).meta.next_cursor).toEqual(expect.any(String));
      const last = await owner.get(`${url}${join(url)}limit=5`);
      expect(ids(dataOf(last, 200))).toEqual(order);
      expect(body(last).meta).toEqual({ next_cursor: null });
      const beyond = await owner.get(`${url}${join(url)}offset=50`);
      expect(body(beyond)).toEqual({ ok: true, data: [], meta: { next_cursor: null } });
    });

    it('refuses limit 0, a negative offset, cursor with offset, and an overlong or forged cursor', async () => {
      const { url } = await fill(kind, 3);
      const cursor = body(await owner.get(`${url}${join(url)}limit=1`)).meta.next_cursor as string;
      const at = `${url}${join(url)}`;
      expectError(await owner.get(`${at}limit=0`), 422, 'VALIDATION_ERROR', /limit/);
      expectError(await owner.get(`${at}limit=-3`), 422, 'VALIDATION_ERROR', /limit/);
      expectError(await owner.get(`${at}limit=2.5`), 422, 'VALIDATION_ERROR', /limit/);
      expectError(await owner.get(`${at}offset=-1`), 422, 'VALIDATION_ERROR', /offset/);
      expectError(
        await owner.get(`${at}offset=0&cursor=${encodeURIComponent(cursor)}`),
        422,
        'VALIDATION_ERROR',
        /cursor/,
      );
      expectError(
        await owner.get(`${at}cursor=${'a'.repeat(2049)}`),
        422,
        'VALIDATION_ERROR',
        /cursor/,
      );
      expectError(await owner.get(`${at}cursor=not-a-cursor`), 422, 'INVALID_CURSOR');
      const [payload, mac] = cursor.split('.');
      const forged = Buffer.from(
        Buffer.from(payload!, 'base64url')
          .toString('utf8')
          .replace(/"k":\[/, '"k":["x",'),
      ).toString('base64url');
      expectError(await owner.get(`${at}cursor=${forged}.${mac}`), 422, 'INVALID_CURSOR');
    });
  });

  it('caps limit at 200 and defaults to 50', async () => {
    const now = Date.now();
    const rows = Array.from({ length: 205 }, (_, i) => {
      const at = new Date(now - i * 1000).toISOString();
      return {
        id: newId(),
        workspace_id: lab.workspaceId,
        species: `Bulk ${i}`,
        common_name: null,
        genus: null,
        family: null,
        cultivar: null,
        source: null,
        notes: null,
        status: 'active',
        external_id: null,
        external_id_key: null,
        custom_fields: '{}',
        created_by: lab.owner.memberId,
        created_at: at,
        updated_at: at,
        deleted_at: null,
      };
    });
    await t.database.db.insertInto('plants').values(rows).execute();
    const capped = await owner.get('/api/v1/plants?limit=201');
    expect(dataOf(capped, 200)).toHaveLength(200);
    expect(body(capped).meta.next_cursor).toEqual(expect.any(String));
    const rest = await owner.get(
      `/api/v1/plants?limit=1000&cursor=${encodeURIComponent(body(capped).meta.next_cursor)}`,
    );
    expect(dataOf(rest, 200)).toHaveLength(5);
    expect(body(rest).meta.next_cursor).toBeNull();
    expect(dataOf(await owner.get('/api/v1/plants'), 200)).toHaveLength(50);
    const all = await listAll(owner, '/api/v1/plants', 1000);
    expect(new Set(ids(all)).size).toBe(205);
  });

  it('returns an empty first page with next_cursor null', async () => {
    await newPlant(owner, { external_id: 'some' });
    for (const url of [
      '/api/v1/explants',
      '/api/v1/events?entity=explant',
      `/api/v1/plants?externalId=none`,
    ]) {
      expect(body(await owner.get(url))).toEqual({
        ok: true,
        data: [],
        meta: { next_cursor: null },
      });
    }
    const explant = await newExplant(owner);
    expect(body(await owner.get(`/api/v1/stages?explant_id=${explant.id}`))).toEqual({
      ok: true,
      data: [],
      meta: { next_cursor: null },
    });
  });

  it('neither skips nor repeats a record when records are added between pages', async () => {
    const { created } = await fill('plants', 6);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await owner.get(
        `/api/v1/plants?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      seen.push(...ids(dataOf(res, 200)));
      cursor = body(res).meta.next_cursor;
      await newPlant(owner, { species: 'Added while paging' });
    } while (cursor !== null);
    expect(seen).toEqual([...created].reverse());
  });

  it('binds a cursor to its list and its filters (422 INVALID_CURSOR)', async () => {
    const plant = await newPlant(owner);
    const other = await newPlant(owner);
    await newExplant(owner);
    await newExplant(owner);
    for (const p of [plant, other]) {
      await owner.post('/api/v1/stages', { plant_id: p.id, stage: 'production' });
    }
    const cursorOf = async (url: string) => body(await owner.get(url)).meta.next_cursor as string;
    const plants = await cursorOf('/api/v1/plants?limit=1');
    const explants = await cursorOf('/api/v1/explants?limit=1');
    const stages = await cursorOf(`/api/v1/stages?plant_id=${plant.id}&limit=1`);
    const events = await cursorOf('/api/v1/events?entity=plant&limit=1');
    const since = await cursorOf('/api/v1/events?entity=plant&since=2000-01-01T00:00:00Z&limit=1');
    for (const cursor of [plants, explants, stages, events, since])
      expect(cursor).toEqual(expect.any(String));
    const c = encodeURIComponent;

    const refused = [
      `/api/v1/explants?cursor=${c(plants)}`,
      `/api/v1/plants?cursor=${c(explants)}`,
      `/api/v1/plants?externalId=x&cursor=${c(plants)}`,
      `/api/v1/stages?plant_id=${plant.id}&cursor=${c(plants)}`,
      `/api/v1/stages?plant_id=${other.id}&cursor=${c(stages)}`,
      `/api/v1/events?entity=explant&cursor=${c(events)}`,
      `/api/v1/events?entity=plant&since=2000-01-01T00:00:00Z&cursor=${c(events)}`,
      `/api/v1/events?entity=plant&cursor=${c(since)}`,
      `/api/v1/events?entity=plant&cursor=${c(plants)}`,
    ];
    for (const url of refused) expectError(await owner.get(url), 422, 'INVALID_CURSOR');

    const accepted = [
      `/api/v1/plants?cursor=${c(plants)}`,
      `/api/v1/explants?limit=5&cursor=${c(explants)}`,
      `/api/v1/stages?plant_id=${plant.id}&cursor=${c(stages)}`,
      `/api/v1/events?entity=plant&cursor=${c(events)}`,
      `/api/v1/events?entity=plant&since=2000-01-01T00:00:00Z&cursor=${c(since)}`,
    ];
    for (const url of accepted) expect((await owner.get(url)).statusCode, url).toBe(200);
  });
});
