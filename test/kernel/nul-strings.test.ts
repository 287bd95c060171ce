import { expect, it } from 'vitest';
import Type from 'typebox';
import { body } from '../support/harness.js';
import {
  dataOf,
  defineCustomFields,
  expectError,
  newExplant,
  newPlant,
} from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

const NUL = '\u0000';
const NUL_PROBLEM = 'must not contain a NUL character';

describeOnDatabases('NUL characters', (target) => {
  const { t, lab, owner } = labSuite(target, {
    extraRoutes: (routes) => {
      routes.write({
        method: 'POST',
        url: '/api/v1/test/measure',
        operationId: 'testMeasure',
        tags: ['SOP runs'],
        summary: 'names no field in a 422, like the measurement endpoint',
        scope: 'write:sop_steps',
        failureCode: 'SOP_STEP_EVENT_CREATE_FAILED',
        hideFieldInErrors: true,
        body: Type.Object(
          { metric: Type.String({ maxLength: 60 }), unit: Type.String({ maxLength: 20 }) },
          { additionalProperties: false },
        ),
        data: Type.Object({ metric: Type.String() }),
        handler: async (req) => ({ data: { metric: req.body.metric } }),
      });
    },
  });

  const countRows = async (table: 'plants' | 'explants' | 'stages') =>
    Number(
      (
        await t.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('workspace_id', '=', lab.workspaceId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses a NUL in any body string with 422 naming the field, storing nothing', async () => {
    await defineCustomFields(t.database, lab.workspaceId, [
      { entity: 'plant', key: 'clone', type: 'text' },
    ]);
    const plant = await newPlant(owner);
    const explant = await newExplant(owner);
    const cases: ['POST' | 'PATCH', string, Record<string, unknown>, string][] = [
      ['POST', '/api/v1/plants', { species: `Ficus${NUL}` }, 'species'],
      ['POST', '/api/v1/plants', { species: 'F', notes: `a${NUL}b` }, 'notes'],
      ['POST', '/api/v1/plants', { species: 'F', external_id: NUL }, 'external_id'],
      [
        'POST',
        '/api/v1/plants',
        { species: 'F', custom_fields: { clone: `x${NUL}` } },
        'custom_fields.clone',
      ],
      ['PATCH', `/api/v1/plants/${plant.id}`, { common_name: `${NUL}` }, 'common_name'],
      ['POST', '/api/v1/explants', { label: `L${NUL}` }, 'label'],
      ['POST', '/api/v1/explants', { label: 'L', batch_number: `B${NUL}` }, 'batch_number'],
      ['PATCH', `/api/v1/explants/${explant.id}`, { notes: `${NUL}${NUL}` }, 'notes'],
      ['POST', '/api/v1/stages', { plant_id: plant.id, stage: 'Rooting', notes: NUL }, 'notes'],
    ];
    for (const [method, url, payload, field] of cases) {
      const res = await t.request({
        method,
        url,
        headers: lab.owner.headers,
        payload,
      });
      expect({ status: res.statusCode, ...body(res) }, `${method} ${url} ${field}`).toEqual({
        status: 422,
        ok: false,
        data: null,
        code: 'VALIDATION_ERROR',
        error: `${field}: ${NUL_PROBLEM}`,
      });
    }
    expect([
      await countRows('plants'),
      await countRows('explants'),
      await countRows('stages'),
    ]).toEqual([1, 1, 1]);
    expect(dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200)).toEqual(plant);
    expect(dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200)).toEqual(explant);
  });

  it('refuses a NUL in a field name, also inside custom fields', async () => {
    const res = await owner.post('/api/v1/plants', {
      species: 'F',
      custom_fields: { [`a${NUL}`]: 'x' },
    });
    expectError(res, 422, 'VALIDATION_ERROR', /^custom_fields: .*NUL/);
    expect(await countRows('plants')).toBe(0);
  });

  it('refuses a NUL in query parameters and path parameters', async () => {
    for (const url of [
      '/api/v1/plants?externalId=%00',
      '/api/v1/explants?externalId=a%00b',
      '/api/v1/events?entity=plant&since=%00',
    ]) {
      const res = await owner.get(url);
      expectError(res, 422, 'VALIDATION_ERROR', /^(externalId|since): must not contain a NUL/);
    }
    const cursor = await owner.get('/api/v1/plants?cursor=%00');
    expectError(cursor, 422, 'VALIDATION_ERROR', /^cursor: must not contain a NUL/);
    const path = await owner.get('/api/v1/plants/%00');
    expectError(path, 422, 'VALIDATION_ERROR', /^id: /);
  });

  it('does not name the field where the route hides field names', async () => {
    const res = await owner.post('/api/v1/test/measure', { metric: `pH${NUL}`, unit: 'pH' });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(body(res).error).toBe(`A value ${NUL_PROBLEM}`);
    expect(body(res).error).not.toContain('metric');
    const ok = await owner.post('/api/v1/test/measure', { metric: 'pH', unit: 'pH' });
    expect(ok.statusCode).toBe(201);
  });
});
