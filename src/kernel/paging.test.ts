import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CursorCodec, filterHash } from './paging.js';

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
