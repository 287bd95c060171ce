import { beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { measurementProblem } from '../../src/modules/sop-runs/sop-runs.service.js';
import { createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  client,
  dataOf,
  expectError,
  GENEROUS_LIMITS,
  listAll,
  newExplant,
  newPlant,
  randomId,
} from '../support/helpers.js';
import { importSops, runRows, startRun } from './sop-helpers.js';

/** An SOP whose step-2 asks for a pH reading (5.6 to 5.8) and a mass with only a floor. */
function mediaSop() {
  const ids = { sop: newId(), version: newId() };
  const sop = {
    id: ids.sop,
    title: 'Media prep',
    versions: [
      {
        id: ids.version,
        version: 1,
        lifecycle_status: 'effective',
        steps: [
          { id: 'step-1', instruction: 'Weigh the salts' },
          {
            id: 'step-2',
            instruction: 'Adjust the pH',
            measurements: [
              { metric: 'pH', unit: 'pH', min: 5.6, max: 5.8 },
              { metric: 'Agar mass', unit: 'g', min: 0 },
            ],
          },
        ],
      },
    ],
  };
  return { ids, sop };
}

describe('measurementProblem', () => {
  const declared = [
    { metric: 'pH', unit: 'pH', min: 5.6, max: 5.8 },
    { metric: 'Agar mass', unit: 'g', min: 0, max: null },
  ];
  it('accepts the bounds themselves and metrics the step does not declare', () => {
    expect(measurementProblem(declared, { metric: 'ph', value: 5.6, unit: 'pH' })).toBeNull();
    expect(measurementProblem(declared, { metric: ' PH ', value: 5.8, unit: 'pH' })).toBeNull();
    expect(measurementProblem(declared, { metric: 'agar mass', value: 1e6, unit: 'g' })).toBeNull();
    expect(measurementProblem(declared, { metric: 'EC', value: -4, unit: 'mS' })).toBeNull();
  });
  it('names the range or the unit the step asks for, never the field', () => {
    expect(measurementProblem(declared, { metric: 'pH', value: 5.81, unit: 'pH' })).toBe(
      'pH 5.81 pH is out of range: this step accepts from 5.6 to 5.8 pH',
    );
    expect(measurementProblem(declared, { metric: 'agar mass', value: -1, unit: 'g' })).toBe(
      'Agar mass -1 g is out of range: this step accepts at least 0 g',
    );
    expect(measurementProblem(declared, { metric: 'pH', value: 5.7, unit: 'units' })).toBe(
      'pH must be measured in pH for this step, not units',
    );
  });
});

describeOnDatabases('SOP step readings and explant runs', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });
  let ids: ReturnType<typeof mediaSop>['ids'];
  beforeEach(async () => {
    const made = mediaSop();
    ids = made.ids;
    await importSops(t.database, lab.workspaceId, [made.sop]);
  });
  const measure = (runId: string, fields: Record<string, unknown>) =>
    owner.post(`/api/v1/sop-runs/${runId}/steps/step-2/measurements`, fields);

  it('shows the readings a step asks for, and an empty list for a step that asks for none', async () => {
    const sop = dataOf(await owner.get(`/api/v1/sops/${ids.sop}`), 200);
    expect(sop.version.steps.map((s: { measurements: unknown }) => s.measurements)).toEqual([
      [],
      [
        { metric: 'pH', unit: 'pH', min: 5.6, max: 5.8 },
        { metric: 'Agar mass', unit: 'g', min: 0, max: null },
      ],
    ]);
  });

  it('refuses a declared reading out of range or in another unit with 422, recording nothing', async () => {
    const run = await startRun(owner, { sop_id: ids.sop });
    for (const [fields, words] of [
      [{ metric: 'pH', value: 9.1, unit: 'pH' }, /^pH 9\.1 pH is out of range: .*5\.6 to 5\.8/],
      [{ metric: 'PH', value: 5.59, unit: 'pH' }, /out of range/],
      [{ metric: 'agar mass', value: -0.5, unit: 'g' }, /at least 0 g/],
      [{ metric: 'pH', value: 5.7, unit: 'mV' }, /must be measured in pH/],
    ] as const) {
      expectError(await measure(run.id, fields), 422, 'VALIDATION_ERROR', words);
    }
    expect((await runRows(t.database, lab.workspaceId)).events).toEqual([]);
    const inRange = dataOf(await measure(run.id, { metric: 'pH', value: 5.8, unit: 'pH' }), 201);
    expect(inRange.payload).toEqual({ metric: 'pH', value: 5.8, unit: 'pH' });
    // A metric the step does not declare stays free words, as before.
    dataOf(await measure(run.id, { metric: 'Room temperature', value: -40, unit: '°C' }), 201);
    expect(await listAll(owner, `/api/v1/sop-runs/${run.id}/events`)).toHaveLength(2);
  });

  it('refuses an import whose reading has min above max or names a metric twice', async () => {
    const bad = mediaSop();
    const step = bad.sop.versions[0]!.steps[1]!;
    step.measurements = [{ metric: 'pH', unit: 'pH', min: 6, max: 5 }];
    await expect(importSops(t.database, lab.workspaceId, [bad.sop])).rejects.toThrow(
      'sops[0].versions[0].steps[1].measurements[0].min: must not be greater than max',
    );
    step.measurements = [
      { metric: 'pH', unit: 'pH', min: 5, max: 6 },
      { metric: ' ph', unit: 'pH', min: 5, max: 6 },
    ];
    await expect(importSops(t.database, lab.workspaceId, [bad.sop])).rejects.toThrow(
      'sops[0].versions[0].steps[1].measurements[1].metric: duplicates',
    );
  });

  it('starts a run for an explant, lists runs by explant, and refuses both records or a foreign one', async () => {
    const explant = await newExplant(owner);
    const plant = await newPlant(owner);
    const run = await startRun(owner, { sop_id: ids.sop, explant_id: explant.id });
    expect(run).toMatchObject({ explantId: explant.id, plantId: null });
    await startRun(owner, { sop_id: ids.sop, plant_id: plant.id });
    const listed = dataOf(await owner.get(`/api/v1/sop-runs?explant_id=${explant.id}`), 200);
    expect(listed.map((r: { id: string }) => r.id)).toEqual([run.id]);
    expect(dataOf(await owner.get(`/api/v1/sop-runs/${run.id}`), 200).explantId).toBe(explant.id);

    const before = await runRows(t.database, lab.workspaceId);
    expectError(
      await owner.post('/api/v1/sop-runs', {
        sop_id: ids.sop,
        plant_id: plant.id,
        explant_id: explant.id,
      }),
      422,
      'VALIDATION_ERROR',
      /^explant_id: /,
    );
    const theirs = await createLab(t.database, { name: 'Theirs' });
    const theirExplant = await newExplant(client(t, theirs.owner));
    for (const id of [theirExplant.id, randomId()]) {
      expectError(
        await owner.post('/api/v1/sop-runs', { sop_id: ids.sop, explant_id: id }),
        404,
        'NOT_FOUND',
      );
      expectError(await owner.get(`/api/v1/sop-runs?explant_id=${id}`), 404, 'NOT_FOUND');
    }
    expect(await runRows(t.database, lab.workspaceId)).toEqual(before);
  });
});
