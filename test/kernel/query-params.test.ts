import { expect, it } from 'vitest';
import { body } from '../support/harness.js';
import { dataOf, expectError, newPlant } from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

/**
 * Query strings as clients in several languages write them: booleans spelled
 * True/FALSE/1/0, and parameters an operation does not take (cache-busters such as
 * jQuery's `_=1732…`), which are dropped before anything reads the query.
 */
describeOnDatabases('Query parameters', (target) => {
  const { owner } = labSuite(target);

  it('reads true/false, True/False, TRUE/FALSE and 1/0 as booleans; anything else is 422', async () => {
    const signal = { genus: 'Monstera', demand_score: 12, source: 'store' };
    dataOf(await owner.post('/api/v1/tasks/demand', signal), 201);
    const current = dataOf(
      await owner.get('/api/v1/tasks/demand?genus=Monstera&current=true'),
      200,
    );
    for (const spelled of ['True', 'TRUE', '1']) {
      expect(
        dataOf(await owner.get(`/api/v1/tasks/demand?genus=Monstera&current=${spelled}`), 200),
      ).toEqual(current);
    }
    const task = dataOf(await owner.post('/api/v1/tasks', { title: 'Subculture' }), 201);
    for (const [open, expected] of [
      ['true', [task.id]],
      ['True', [task.id]],
      ['1', [task.id]],
      ['false', []],
      ['False', []],
      ['FALSE', []],
      ['0', []],
    ] as const) {
      const ids = dataOf(await owner.get(`/api/v1/tasks?open=${open}`), 200).map(
        (t: { id: string }) => t.id,
      );
      expect(ids, open).toEqual(expected);
    }
    for (const wrong of ['yes', 'truthy', '2']) {
      expectError(
        await owner.get(`/api/v1/tasks?open=${wrong}`),
        422,
        'VALIDATION_ERROR',
        /^open:/,
      );
    }
  });

  it('ignores parameters an operation does not take, and a cursor still pages past them', async () => {
    for (let i = 0; i < 3; i++) await newPlant(owner, { species: `Ficus ${i}` });
    const first = await owner.get('/api/v1/plants?limit=2&_=1732791200000');
    expect(dataOf(first, 200)).toHaveLength(2);
    const cursor = encodeURIComponent(body(first).meta.next_cursor as string);
    // Another cache-buster on the next page: the same list, the same filters.
    const next = await owner.get(`/api/v1/plants?limit=2&cursor=${cursor}&_=1732791200999`);
    expect(dataOf(next, 200)).toHaveLength(1);
    // A record read ignores them too; a misspelt body field is still refused.
    const plant = dataOf(first, 200)[0];
    expect(dataOf(await owner.get(`/api/v1/plants/${plant.id}?_=1`), 200)).toEqual(plant);
    expectError(
      await owner.post('/api/v1/plants', { species: 'Ficus', specie: 'typo' }),
      422,
      'VALIDATION_ERROR',
      /unknown field "specie"/,
    );
  });
});
