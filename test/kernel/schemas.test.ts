import { Ajv } from 'ajv';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { Nullable, StringEnum } from '../../src/kernel/schemas.js';

/** The schema helpers, as a validator reading the OpenAPI document sees them. */
describe('Nullable', () => {
  const ajv = new Ajv({ strict: false });

  it('lets null through an enum, and still refuses a value outside it', () => {
    const check = ajv.compile(Nullable(StringEnum(['recovered', 'rule_deleted'])));
    expect(check(null)).toBe(true);
    expect(check('recovered')).toBe(true);
    expect(check('open')).toBe(false);
    expect(check(1)).toBe(false);
  });

  it('makes plain and composed schemas nullable', () => {
    const text = ajv.compile(Nullable(Type.String({ maxLength: 3 })));
    expect([text(null), text('abc'), text('abcd')]).toEqual([true, true, false]);
    const either = ajv.compile(Nullable(Type.Union([Type.String(), Type.Number()])));
    expect([either(null), either(2), either(true)]).toEqual([true, true, false]);
  });
});
