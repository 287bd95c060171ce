import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CursorCodec, filterHash } from '../../src/kernel/paging.js';
import {
  body,
  createLab,
  databaseTargets,
  startTestApp,
  type TestApp,
} from '../support/harness.js';

describe('cursor codec', () => {
  const codec = new CursorCodec('a-secret-of-at-least-thirty-two-characters');
  const filters = filterHash({ status: 'active' });

  it('round-trips the sort key', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), {
          minLength: 1,
          maxLength: 3,
        }),
        (key) => {
          const cursor = codec.encode('plants', filters, 'ws-1', key);
          expect(codec.decode(cursor, 'plants', filters, 'ws-1')).toEqual(key);
        },
      ),
    );
  });

  it('refuses any tampering, and cursors of another list, filter set, workspace or secret', () => {
    const cursor = codec.encode('plants', filters, 'ws-1', ['2026-11-21T08:00:00.000Z', 'id-1']);
    const invalid = (fn: () => unknown) =>
      expect(fn).toThrowError(expect.objectContaining({ code: 'INVALID_CURSOR' }));
    invalid(() => codec.decode(cursor, 'explants', filters, 'ws-1'));
    invalid(() => codec.decode(cursor, 'plants', filterHash({ status: 'dormant' }), 'ws-1'));
    invalid(() => codec.decode(cursor, 'plants', filters, 'ws-2'));
    invalid(() =>
      new CursorCodec('another-secret-of-at-least-thirty-two-chars').decode(
        cursor,
        'plants',
        filters,
        'ws-1',
      ),
    );
    for (const bad of ['', '.', 'abc', 'abc.', '.abc', `${cursor}x`, cursor.replace('.', '')]) {
      invalid(() => codec.decode(bad, 'plants', filters, 'ws-1'));
    }
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: cursor.length - 1 }),
        fc.constantFrom('A', 'b', '0', '-', '_'),
        (at, ch) => {
          fc.pre(cursor[at] !== ch);
          const mutated = cursor.slice(0, at) + ch + cursor.slice(at + 1);
          expect(() => codec.decode(mutated, 'plants', filters, 'ws-1')).toThrow();
        },
      ),
      { numRuns: 2000 },
    );
    // Every position, every replacement that differs: exhaustive for the MAC's last characters.
    for (let at = cursor.length - 3; at < cursor.length; at++) {
      for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_') {
        if (cursor[at] === ch) continue;
        const mutated = cursor.slice(0, at) + ch + cursor.slice(at + 1);
        invalid(() => codec.decode(mutated, 'plants', filters, 'ws-1'));
      }
    }
  });

  it('ignores paging parameters and key order when hashing filters', () => {
    expect(filterHash({ a: '1', b: '2', limit: 5, cursor: 'x' })).toBe(
      filterHash({ b: '2', a: '1', offset: 3 }),
    );
    expect(filterHash({ a: '1' })).not.toBe(filterHash({ a: '2' }));
    expect(filterHash({ a: '1' })).not.toBe(filterHash({}));
  });
});

describe.each(databaseTargets())('list paging on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(target);
  });
  afterAll(() => t.close());

  it('keysets through a list with limit+1, caps the page, and refuses foreign cursors', async () => {
    const lab = await createLab(t.database);
    const other = await createLab(t.database);
    for (let i = 0; i < 7; i++) {
      await t.request({
        method: 'POST',
        url: '/api/v1/plants',
        headers: lab.owner.headers,
        payload: { species: `P${i}` },
      });
    }
    const get = (url: string, headers = lab.owner.headers) =>
      t.request({ method: 'GET', url, headers });
    const seen: string[] = [];
    let url = '/api/v1/plants?limit=3';
    for (;;) {
      const page = body(await get(url));
      expect(page.meta).toHaveProperty('next_cursor');
      seen.push(...page.data.map((p: { species: string }) => p.species));
      if (page.meta.next_cursor === null) break;
      url = `/api/v1/plants?limit=3&cursor=${encodeURIComponent(page.meta.next_cursor)}`;
    }
    expect(seen).toEqual(['P6', 'P5', 'P4', 'P3', 'P2', 'P1', 'P0']);

    const firstPage = body(await get('/api/v1/plants?limit=2'));
    const cursor = encodeURIComponent(firstPage.meta.next_cursor);
    const foreignList = await get(`/api/v1/explants?limit=2&cursor=${cursor}`);
    expect(body(foreignList).code).toBe('INVALID_CURSOR');
    expect(foreignList.statusCode).toBe(422);
    const foreignWorkspace = await get(
      `/api/v1/plants?limit=2&cursor=${cursor}`,
      other.owner.headers,
    );
    expect(body(foreignWorkspace).code).toBe('INVALID_CURSOR');
    const foreignFilter = await get(`/api/v1/plants?limit=2&externalId=x&cursor=${cursor}`);
    expect(body(foreignFilter).code).toBe('INVALID_CURSOR');
    const tampered = await get(`/api/v1/plants?limit=2&cursor=${cursor}A`);
    expect(body(tampered).code).toBe('INVALID_CURSOR');

    const tooLong = await get(`/api/v1/plants?cursor=${'a'.repeat(2049)}`);
    expect(tooLong.statusCode).toBe(422);
    expect(body(tooLong).code).toBe('VALIDATION_ERROR');
    const both = await get(`/api/v1/plants?offset=1&cursor=${cursor}`);
    expect(body(both).code).toBe('VALIDATION_ERROR');
    expect(body(await get('/api/v1/plants?limit=0')).code).toBe('VALIDATION_ERROR');
    expect(body(await get('/api/v1/plants?offset=-1')).code).toBe('VALIDATION_ERROR');
    expect(body(await get('/api/v1/plants?limit=abc')).code).toBe('VALIDATION_ERROR');
    expect(body(await get('/api/v1/plants?limit=100000')).data).toHaveLength(7);
    const offset = body(await get('/api/v1/plants?limit=2&offset=5'));
    expect(offset.data.map((p: { species: string }) => p.species)).toEqual(['P1', 'P0']);
    expect(offset.meta.next_cursor).toBeNull();
  });
});
