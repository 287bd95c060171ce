import { it } from 'vitest';
import { expectSameAnswer, randomId } from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

/** A malformed id in a path names no record: the answer is the same 404 as for an unknown id. */
describeOnDatabases('Malformed path ids', (target) => {
  const { owner } = labSuite(target, {}, { shared: true });

  it.each(['plants', 'explants'])('GET and PATCH /%s/{id}', async (kind) => {
    for (const bad of [
      'not-a-uuid',
      '123',
      'x'.repeat(40),
      '00000000-0000-0000-0000-00000000000g',
    ]) {
      expectSameAnswer(
        await owner.get(`/api/v1/${kind}/${bad}`),
        await owner.get(`/api/v1/${kind}/${randomId()}`),
        404,
        'NOT_FOUND',
      );
      expectSameAnswer(
        await owner.patch(`/api/v1/${kind}/${bad}`, { notes: 'x' }),
        await owner.patch(`/api/v1/${kind}/${randomId()}`, { notes: 'x' }),
        404,
        'NOT_FOUND',
      );
    }
  });
});
