import { beforeAll, expect, it } from 'vitest';
import { body } from '../support/harness.js';
import { dataOf, expectError, newExplant, newPlant } from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

/** The documented largest `offset` (both databases handle it; larger is 422). */
const OFFSET_MAX = 1_000_000;

describeOnDatabases('paging bounds', (target) => {
  const { t, owner } = labSuite(target, {}, { shared: true });
  let lists: string[];
  beforeAll(async () => {
    const plant = await newPlant(owner);
    await newExplant(owner, { plant_id: plant.id });
    lists = [
      '/api/v1/plants?',
      '/api/v1/explants?',
      `/api/v1/stages?plant_id=${plant.id}&`,
      '/api/v1/events?entity=plant&',
    ];
  });

  it('refuses an offset beyond the documented maximum with 422, never 500', async () => {
    for (const list of lists) {
      for (const offset of [
        '1e20',
        '9223372036854775807',
        '9223372036854775808',
        'Infinity',
        '-Infinity',
        '1e400',
        String(OFFSET_MAX + 1),
        '-1',
      ]) {
        const res = await owner.get(`${list}offset=${offset}`);
        expectError(res, 422, 'VALIDATION_ERROR', /^offset: must be/);
      }
      const last = await owner.get(`${list}offset=${OFFSET_MAX}`);
      expect(dataOf(last, 200)).toEqual([]);
      expect(body(last).meta.next_cursor).toBeNull();
    }
  });

  it('refuses a limit that is not a 32-bit integer, and still caps large ones', async () => {
    for (const list of lists) {
      for (const limit of ['1e400', 'Infinity', '2147483648', '9223372036854775807', '0']) {
        const res = await owner.get(`${list}limit=${limit}`);
        expectError(res, 422, 'VALIDATION_ERROR', /^limit: must be/);
      }
      expect((await owner.get(`${list}limit=2147483647`)).statusCode).toBe(200);
    }
  });

  it('documents the bounds in the OpenAPI document', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const parameters: { name: string; schema: Record<string, unknown>; description?: string }[] =
      doc.paths['/api/v1/plants'].get.parameters;
    const offset = parameters.find((p) => p.name === 'offset')!;
    expect(offset.schema).toMatchObject({ type: 'integer', minimum: 0, maximum: OFFSET_MAX });
    expect(offset.description).toContain('1,000,000');
    const limit = parameters.find((p) => p.name === 'limit')!;
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 2147483647 });
  });
});
