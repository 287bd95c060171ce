import { beforeEach, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { dataOf, expectError } from '../support/helpers.js';
import { importSops, postEvent, runRows, startRun, subcultureSop } from '../records/sop-helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { countRows, snapshot } from './fixtures.js';

/** SOPs with several versions imported, re-imported and changed while runs follow them. */
describeOnDatabases('SOP import with runs', (target) => {
  const { t, lab, owner } = labSuite(target);
  let made: ReturnType<typeof subcultureSop>;
  beforeEach(async () => {
    made = subcultureSop();
  });

  const media = () => ({
    id: newId(),
    title: 'MS medium',
    versions: [
      {
        id: newId(),
        version: 1,
        lifecycle_status: 'effective',
        steps: [
          { id: 'weigh', instruction: 'Weigh the salts' },
          { id: 'ph', instruction: 'Adjust pH' },
        ],
      },
    ],
  });
  const run = (id: string) => owner.get(`/api/v1/sop-runs/${id}`);
  const stepUrl = (runId: string, stepId: string) =>
    `/api/v1/sop-runs/${runId}/steps/${stepId}/events`;

  it('loads draft, effective and superseded versions and loads them again without duplicates, runs present', async () => {
    const second = media();
    const counts = await importSops(t.database, lab.workspaceId, [made.sop, second]);
    expect(counts).toMatchObject({ sops: 2, sop_versions: 4 });
    const versions = await t.database.db
      .selectFrom('sop_versions')
      .select(['version', 'lifecycle_status'])
      .where('sop_id', '=', made.ids.sop)
      .orderBy('version')
      .execute();
    expect(versions).toEqual([
      { version: 1, lifecycle_status: 'superseded' },
      { version: 2, lifecycle_status: 'effective' },
      { version: 3, lifecycle_status: 'draft' },
    ]);

    const first = await startRun(owner, { sop_id: made.ids.sop });
    await postEvent(owner, first.id, 'step-1');
    const other = await startRun(owner, { sop_id: second.id });
    dataOf(
      await owner.post(`/api/v1/sop-runs/${other.id}/steps/ph/measurements`, {
        metric: 'ph',
        value: 5.8,
        unit: 'pH',
      }),
      201,
    );
    dataOf(
      // Only the pH step has evidence: completing says so explicitly.
      await owner.post(`/api/v1/sop-runs/${other.id}/complete`, {
        outcome: 'completed',
        allow_incomplete_steps: true,
      }),
      200,
    );
    const tables = await snapshot(t.database.db, lab.workspaceId);
    const runs = await runRows(t.database, lab.workspaceId);
    const details = [dataOf(await run(first.id), 200), dataOf(await run(other.id), 200)];

    await importSops(t.database, lab.workspaceId, [
      structuredClone(made.sop),
      structuredClone(second),
    ]);
    // The same file without ids matches the stored SOPs and versions on title and number.
    const withoutIds = JSON.parse(
      JSON.stringify([made.sop, second], function (this: object, key, value: unknown) {
        return key === 'id' && !('instruction' in this) ? undefined : value;
      }),
    ) as unknown[];
    await importSops(t.database, lab.workspaceId, withoutIds);

    expect(await snapshot(t.database.db, lab.workspaceId)).toEqual(tables);
    expect(await countRows(t.database.db, lab.workspaceId)).toMatchObject({
      sops: 2,
      sop_versions: 4,
    });
    expect(await runRows(t.database, lab.workspaceId)).toEqual(runs);
    expect([dataOf(await run(first.id), 200), dataOf(await run(other.id), 200)]).toEqual(details);
  });

  it('keeps a started run on its version when an import makes another version effective', async () => {
    await importSops(t.database, lab.workspaceId, [made.sop]);
    const pinned = await startRun(owner, { sop_id: made.ids.sop, batch_code: 'B-1' });
    await postEvent(owner, pinned.id, 'step-3');
    const before = dataOf(await run(pinned.id), 200);
    expect(before).toMatchObject({ version: 2, versionId: made.ids.v2, progress: 33.33 });

    made.sop.versions[1]!.lifecycle_status = 'superseded';
    made.sop.versions[2]!.lifecycle_status = 'effective';
    await importSops(t.database, lab.workspaceId, [made.sop]);
    expect(dataOf(await owner.get(`/api/v1/sops/${made.ids.sop}`), 200).version.id).toBe(
      made.ids.v3,
    );

    expect(dataOf(await run(pinned.id), 200)).toEqual(before);
    // Its steps are still those of version 2: step-3 is one, step-4 (version 3 only) is not.
    await postEvent(owner, pinned.id, 'step-3', { event_type: 'note' });
    expectError(
      await owner.post(stepUrl(pinned.id, 'step-4'), { event_type: 'confirmed' }),
      404,
      'NOT_FOUND',
    );
    expect(dataOf(await run(pinned.id), 200)).toMatchObject({ version: 2, progress: 33.33 });

    const fresh = await startRun(owner, { sop_id: made.ids.sop });
    expect(fresh).toMatchObject({ version: 3, versionId: made.ids.v3 });
    await postEvent(owner, fresh.id, 'step-4');
    expectError(
      await owner.post(stepUrl(fresh.id, 'step-3'), { event_type: 'confirmed' }),
      404,
      'NOT_FOUND',
    );
  });

  it('keeps the steps a run started with when an import rewrites its version in place', async () => {
    await importSops(t.database, lab.workspaceId, [made.sop]);
    const pinned = await startRun(owner, { sop_id: made.ids.sop });
    made.sop.versions[1]!.steps = [{ id: 'step-1', instruction: 'Only step now' }];
    await importSops(t.database, lab.workspaceId, [made.sop]);

    await postEvent(owner, pinned.id, 'step-3');
    expect(dataOf(await run(pinned.id), 200)).toMatchObject({
      version: 2,
      progress: 33.33,
      steps: [{ id: 'step-3', completed: true }],
    });
    const fresh = await startRun(owner, { sop_id: made.ids.sop });
    expect(fresh.version).toBe(2);
    expectError(
      await owner.post(stepUrl(fresh.id, 'step-3'), { event_type: 'confirmed' }),
      404,
      'NOT_FOUND',
    );
    await postEvent(owner, fresh.id, 'step-1');
    expect(dataOf(await run(fresh.id), 200).progress).toBe(100);
  });

  it('refuses to start a run once an import leaves no version in force', async () => {
    await importSops(t.database, lab.workspaceId, [made.sop]);
    const pinned = await startRun(owner, { sop_id: made.ids.sop });
    made.sop.versions[1]!.lifecycle_status = 'superseded';
    await importSops(t.database, lab.workspaceId, [made.sop]);
    expectError(
      await owner.post('/api/v1/sop-runs', { sop_id: made.ids.sop }),
      409,
      'SOP_RUN_NOT_EFFECTIVE',
    );
    // The run already started goes on.
    await postEvent(owner, pinned.id, 'step-2');
    expect(dataOf(await run(pinned.id), 200).steps).toEqual([{ id: 'step-2', completed: true }]);
  });
});
