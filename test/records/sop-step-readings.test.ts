import { beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { checkMeasurement } from '../../src/modules/sop-runs/sop-runs.service.js';
import { body, createLab } from '../support/harness.js';
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

describe('checkMeasurement', () => {
  const declared = [
    { metric: 'pH', unit: 'pH', min: 5.6, max: 5.8 },
    { metric: 'Agar mass', unit: 'g', min: 0, max: null },
  ];
  const clean = { problem: null, warning: null };
  it('takes the bounds themselves and metrics the step does not declare', () => {
    expect(checkMeasurement(declared, { metric: 'ph', value: 5.6, unit: 'pH' })).toEqual(clean);
    expect(checkMeasurement(declared, { metric: ' PH ', value: 5.8, unit: 'pH' })).toEqual(clean);
    expect(checkMeasurement(declared, { metric: 'agar mass', value: 1e6, unit: 'g' })).toEqual(
      clean,
    );
    expect(checkMeasurement(declared, { metric: 'EC', value: -4, unit: 'mS' })).toEqual(clean);
  });
  it('warns of a value out of range and refuses another unit, naming the range or unit, never the field', () => {
    expect(checkMeasurement(declared, { metric: 'pH', value: 5.81, unit: 'pH' })).toEqual({
      problem: null,
      warning:
        'pH 5.81 pH is out of range: this step accepts from 5.6 to 5.8 pH; recorded as measured',
    });
    expect(checkMeasurement(declared, { metric: 'agar mass', value: -1, unit: 'g' })).toEqual({
      problem: null,
      warning:
        'Agar mass -1 g is out of range: this step accepts at least 0 g; recorded as measured',
    });
    expect(checkMeasurement(declared, { metric: 'pH', value: 5.7, unit: 'units' })).toEqual({
      problem: 'pH must be measured in pH for this step, not units',
      warning: null,
    });
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

  it('records a declared reading out of range with a warning, as the spec takes any number; refuses another unit', async () => {
    const run = await startRun(owner, { sop_id: ids.sop });
    expectError(
      await measure(run.id, { metric: 'pH', value: 5.7, unit: 'mV' }),
      422,
      'VALIDATION_ERROR',
      /must be measured in pH/,
    );
    expect((await runRows(t.database, lab.workspaceId)).events).toEqual([]);
    for (const [fields, words] of [
      [
        { metric: 'pH', value: 9.1, unit: 'pH' },
        /^pH 9\.1 pH is out of range: .*5\.6 to 5\.8 pH; recorded/,
      ],
      [{ metric: 'PH', value: 5.59, unit: 'pH', notes: 'Buffer ran out' }, /out of range/],
      [{ metric: 'agar mass', value: -0.5, unit: 'g' }, /at least 0 g/],
    ] as const) {
      const answer = body(await measure(run.id, fields));
      expect(answer.ok).toBe(true);
      expect(answer.data.payload).toEqual(fields);
      expect(answer.meta.warning).toMatch(words);
    }
    const inRange = body(await measure(run.id, { metric: 'pH', value: 5.8, unit: 'pH' }));
    expect(inRange.data.payload).toEqual({ metric: 'pH', value: 5.8, unit: 'pH' });
    // In range, the answer is exactly the spec's: no meta.
    expect(Object.keys(inRange).sort()).toEqual(['data', 'ok']);
    // A metric the step does not declare stays free words, as before.
    dataOf(await measure(run.id, { metric: 'Room temperature', value: -40, unit: '°C' }), 201);
    const trail = await listAll(owner, `/api/v1/sop-runs/${run.id}/events`);
    expect(trail.map((e: { payload: { value: number } }) => e.payload.value)).toEqual([
      9.1, 5.59, -0.5, 5.8, -40,
    ]);
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
