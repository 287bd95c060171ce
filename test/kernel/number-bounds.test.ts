import { expect, it } from 'vitest';
import { body } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { dataOf, defineCustomFields, expectError, newExplant } from '../support/helpers.js';

/** The largest value of an INTEGER column on PostgreSQL (32-bit signed). */
const INT32_MAX = 2_147_483_647;

const COUNTS = ['initial_count', 'current_count', 'plantlet_count'] as const;

/** Numbers as JSON text: `1e400` cannot be written with JSON.stringify (it becomes null). */
const EXTREMES = ['1e400', '-1e400', String(2 ** 31), String(2 ** 53), '9223372036854775807'];

describeOnDatabases('number bounds', (target) => {
  const { t, lab, owner } = labSuite(target);

  const send = (method: 'POST' | 'PATCH', url: string, json: string) =>
    t.request({
      method,
      url,
      headers: { ...lab.owner.headers, 'content-type': 'application/json' },
      payload: json,
    });

  it('refuses counts that are not finite or beyond 32 bits with 422 naming the field, storing nothing', async () => {
    const existing = await newExplant(owner, { label: 'keep', initial_count: 3 });
    for (const field of COUNTS) {
      for (const number of EXTREMES) {
        const created = await send(
          'POST',
          '/api/v1/explants',
          `{"label":"x","${field}":${number}}`,
        );
        expectError(created, 422, 'VALIDATION_ERROR', new RegExp(`^${field}: `));
        if (field === 'initial_count') continue;
        const patched = await send(
          'PATCH',
          `/api/v1/explants/${existing.id}`,
          `{"${field}":${number}}`,
        );
        expectError(patched, 422, 'VALIDATION_ERROR', new RegExp(`^${field}: `));
      }
    }
    // Nothing stored, and every read still answers.
    expect(dataOf(await owner.get('/api/v1/explants'), 200)).toEqual([existing]);
    expect(dataOf(await owner.get(`/api/v1/explants/${existing.id}`), 200)).toEqual(existing);
  });

  it('accepts the whole 32-bit range of counts on both databases', async () => {
    const res = await send(
      'POST',
      '/api/v1/explants',
      `{"label":"big","initial_count":${INT32_MAX},"current_count":0,"plantlet_count":${INT32_MAX}}`,
    );
    const created = dataOf(res, 201);
    expect(created).toMatchObject({
      initial_count: INT32_MAX,
      current_count: 0,
      plantlet_count: INT32_MAX,
    });
    expect(dataOf(await owner.get(`/api/v1/explants/${created.id}`), 200)).toEqual(created);
    expectError(
      await send('POST', '/api/v1/explants', '{"label":"neg","plantlet_count":-1}'),
      422,
      'VALIDATION_ERROR',
      /^plantlet_count: must be at least 0/,
    );
  });

  it('refuses a non-finite custom number and keeps finite ones exactly', async () => {
    await defineCustomFields(t.database, lab.workspaceId, [
      { entity: 'plant', key: 'height_cm', type: 'number' },
    ]);
    for (const number of ['1e400', '-1e400']) {
      const res = await send(
        'POST',
        '/api/v1/plants',
        `{"species":"x","custom_fields":{"height_cm":${number}}}`,
      );
      expect(res.statusCode, number).toBe(422);
      expect(body(res).code).toBe('VALIDATION_ERROR');
    }
    const res = await send(
      'POST',
      '/api/v1/plants',
      '{"species":"x","custom_fields":{"height_cm":1.7976931348623157e308}}',
    );
    expect(dataOf(res, 201).custom_fields).toEqual({ height_cm: Number.MAX_VALUE });
    expect(dataOf(await owner.get('/api/v1/plants'), 200)).toHaveLength(1);
  });
});
