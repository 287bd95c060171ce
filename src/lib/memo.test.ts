import { describe, expect, it } from 'vitest';
import { memo } from './memo.js';

describe('memo', () => {
  it('makes each value once while it is kept, by key', () => {
    const made: string[] = [];
    const upper = memo(10, (text: string) => {
      made.push(text);
      return text.toUpperCase();
    });
    expect([upper('a'), upper('b'), upper('a'), upper('b')]).toEqual(['A', 'B', 'A', 'B']);
    expect(made).toEqual(['a', 'b']);
  });

  it('keys by what keyOf names, and keeps an undefined answer too', () => {
    let calls = 0;
    const byId = memo(
      10,
      (row: { id: string; n: number }) => {
        calls += 1;
        return row.n > 0 ? row.n : undefined;
      },
      (row) => row.id,
    );
    expect(byId({ id: 'x', n: 1 })).toBe(1);
    expect(byId({ id: 'x', n: 2 })).toBe(1);
    expect(byId({ id: 'y', n: 0 })).toBeUndefined();
    expect(byId({ id: 'y', n: 0 })).toBeUndefined();
    expect(calls).toBe(2);
  });

  it('keeps at most limit values, letting the oldest made go first', () => {
    const made: number[] = [];
    const square = memo(2, (n: number) => {
      made.push(n);
      return n * n;
    });
    square(1);
    square(2);
    square(3); // 1 goes
    square(2);
    square(1); // made again; 2 goes
    expect(made).toEqual([1, 2, 3, 1]);
    square(3);
    square(2);
    expect(made).toEqual([1, 2, 3, 1, 2]);
  });
});
