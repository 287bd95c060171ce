import { describe, expect, it } from 'vitest';
import type { CustomFieldDefinitionRow } from '../lab/index.js';
import { customFieldsOf, mergeCustomFields } from './custom-fields.js';

const definition = (
  key: string,
  type: string,
  options: readonly string[] | null = null,
): CustomFieldDefinitionRow => ({
  workspace_id: 'ws',
  entity_type: 'plant',
  key,
  type,
  options: options === null ? null : JSON.stringify(options),
  position: 0,
});

const DEFINITIONS = [
  definition('medium', 'text'),
  definition('hood', 'number'),
  definition('sterile', 'boolean'),
  definition('harvest', 'date'),
  definition('grade', 'select', ['A', 'B']),
];

const merge = (current: Record<string, string | number | boolean>, input: unknown) =>
  mergeCustomFields(DEFINITIONS, 'plant', current, input as never);

/** The message of the validation error `work` throws. */
function refusal(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    expect((error as { code?: unknown }).code).toBe('VALIDATION_ERROR');
    return (error as Error).message;
  }
  throw new Error('expected a validation error');
}

describe('custom field values', () => {
  it('reads stored text as a map; most records have none', () => {
    expect(customFieldsOf('{}')).toEqual({});
    expect(customFieldsOf('{"hood":3,"medium":"MS"}')).toEqual({ hood: 3, medium: 'MS' });
  });

  it('merges per key: sent keys replace, null clears, others stay', () => {
    const current = { medium: 'MS', hood: 2, grade: 'A' };
    expect(merge(current, { hood: 3, grade: null, sterile: true })).toEqual({
      medium: 'MS',
      hood: 3,
      sterile: true,
    });
    expect(current).toEqual({ medium: 'MS', hood: 2, grade: 'A' });
  });

  it('leaves the values as they are when nothing is sent', () => {
    const current = { medium: 'MS' };
    for (const input of [undefined, null]) {
      const merged = merge(current, input);
      expect(merged).toEqual(current);
      expect(merged).not.toBe(current);
    }
  });

  it('refuses a key the lab does not define, and a value of the wrong type', () => {
    expect(refusal(() => merge({}, { colour: 'green' }))).toBe(
      'custom_fields.colour: not a custom field defined for plants in this lab',
    );
    expect(refusal(() => merge({}, { medium: 5 }))).toBe('custom_fields.medium: must be text');
    expect(refusal(() => merge({}, { hood: 'three' }))).toBe(
      'custom_fields.hood: must be a number',
    );
    expect(refusal(() => merge({}, { sterile: 'yes' }))).toBe(
      'custom_fields.sterile: must be true or false',
    );
    expect(refusal(() => merge({}, { harvest: '2026-02-31' }))).toBe(
      'custom_fields.harvest: must be a date (YYYY-MM-DD)',
    );
    expect(refusal(() => merge({}, { grade: 'C' }))).toBe(
      'custom_fields.grade: must be one of: A, B',
    );
    expect(merge({}, { harvest: '2026-02-28', grade: 'B' })).toEqual({
      harvest: '2026-02-28',
      grade: 'B',
    });
  });

  it('refuses custom fields larger than 10,000 bytes in all', () => {
    expect(refusal(() => merge({ medium: 'x'.repeat(9_990) }, { hood: 12345 }))).toBe(
      'custom_fields: must be at most 10000 bytes in all',
    );
  });
});
