import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  createLab,
  databaseTargets,
  startTestApp,
  type Lab,
  type TestApp,
} from '../support/harness.js';
import { client, expectSameAnswer, randomId, type Client } from '../support/helpers.js';

/** A malformed id in a path names no record: the answer is the same 404 as for an unknown id. */
describe.each(databaseTargets())('Malformed path ids on $name', (target) => {
  let t: TestApp;
  let lab: Lab;
  let owner: Client;
  beforeAll(async () => {
    t = await startTestApp(target);
    lab = await createLab(t.database);
    owner = client(t, lab.owner);
  });
  afterAll(() => t.close());

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
