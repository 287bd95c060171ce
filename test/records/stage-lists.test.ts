import { expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { setStageList } from '../../src/modules/lab/index.js';
import { DEFAULT_STAGE_LISTS } from '../../src/modules/records/stage-lists.js';
import { createLab } from '../support/harness.js';
import { client, dataOf, expectError, newExplant, newPlant } from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

/** GET /stage-lists: the stages a plant and an explant can be moved into, on both databases. */
describeOnDatabases('Stage lists', (target) => {
  const { t, lab, owner } = labSuite(target);

  it("answers a new lab's default lists, in order, with keys a move accepts", async () => {
    const lists = dataOf(await owner.get('/api/v1/stage-lists'), 200);
    expect(lists).toEqual({
      plant: DEFAULT_STAGE_LISTS.plant,
      explant: DEFAULT_STAGE_LISTS.explant,
      retired: { plant: [], explant: [] },
    });
    expect(lists.explant[0]).toEqual({ key: 'initiation', name: 'Initiation' });
    // Every key of a list is a stage a record of that kind can be moved into.
    const explant = await newExplant(owner);
    for (const option of lists.explant as { key: string; name: string }[]) {
      const moved = dataOf(
        await owner.post('/api/v1/stages', { explant_id: explant.id, stage: option.key }),
        201,
      );
      expect(moved.stage).toBe(option.key);
    }
    const plant = dataOf(await owner.get(`/api/v1/plants/${(await newPlant(owner)).id}`), 200);
    expect(lists.plant.map((o: { key: string }) => o.key)).toContain(plant.current_stage.stage);
  });

  it("answers the lab's own lists once an import sets them, and only its own", async () => {
    await inTransaction(t.database.db, (trx) =>
      setStageList(trx, lab.workspaceId, 'explant', [
        { key: 'start', name: 'Start' },
        { key: 'bulk_up', name: 'Bulk up' },
      ]),
    );
    const lists = dataOf(await owner.get('/api/v1/stage-lists'), 200);
    expect(lists.explant).toEqual([
      { key: 'start', name: 'Start' },
      { key: 'bulk_up', name: 'Bulk up' },
    ]);
    expect(lists.plant).toEqual(DEFAULT_STAGE_LISTS.plant);
    // Another workspace keeps the defaults.
    const other = await createLab(t.database);
    expect(dataOf(await client(t, other.owner).get('/api/v1/stage-lists'), 200).explant).toEqual(
      DEFAULT_STAGE_LISTS.explant,
    );
  });

  it('is read by any member (a guest too) and by no device token or key without read:workspace', async () => {
    const guest = await lab.actor('guest');
    expect(dataOf(await client(t, guest).get('/api/v1/stage-lists'), 200).plant).toHaveLength(
      DEFAULT_STAGE_LISTS.plant.length,
    );
    const narrow = await lab.actor('member', { scopes: ['read:plants'] });
    expectError(
      await client(t, narrow).get('/api/v1/stage-lists'),
      403,
      'FORBIDDEN',
      /read:workspace/,
    );
    const device = await lab.deviceToken();
    expectError(
      await client(t, device).get('/api/v1/stage-lists'),
      403,
      'DEVICE_TOKEN_NOT_ACCEPTED',
    );
    expectError(
      await t.request({ method: 'GET', url: '/api/v1/stage-lists' }),
      401,
      'UNAUTHORIZED',
    );
  });
});
