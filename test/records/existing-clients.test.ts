import { expect, it } from 'vitest';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { body } from '../support/harness.js';
import { dataOf, expectError, newExplant, newPlant, stagesOf } from '../support/helpers.js';
import { importSops, postEvent, startRun, subcultureSop } from './sop-helpers.js';

/**
 * The answers existing clients of the wire format rely on, pinned: Vitro's additions
 * are opt-in, so a request these clients send answers as the API says it does.
 */
describeOnDatabases('Existing clients', (target) => {
  const { t, lab, owner } = labSuite(target);

  it("an explant's first stage move closes nothing: previous_stage_id is null", async () => {
    const explant = await newExplant(owner, { label: 'E-1' });
    expect(explant.current_stage).toBeNull();
    expect(body(await owner.get(`/api/v1/stages?explant_id=${explant.id}`))).toEqual({
      ok: true,
      data: [],
      meta: { next_cursor: null },
    });
    const first = await owner.post('/api/v1/stages', {
      explant_id: explant.id,
      stage: 'multiplication',
    });
    expect(first.statusCode).toBe(201);
    expect(body(first).meta).toEqual({ previous_stage_id: null });
    expect(await stagesOf(owner, 'explant', explant.id)).toHaveLength(1);
  });

  it('completing an SOP run with steps left answers 200 and ends it', async () => {
    const sop = subcultureSop('Subculture');
    await importSops(t.database, lab.workspaceId, [sop.sop]);
    const run = await startRun(owner, { sop_id: sop.ids.sop });
    await postEvent(owner, run.id, 'step-1');
    const res = await owner.post(`/api/v1/sop-runs/${run.id}/complete`, { outcome: 'completed' });
    expect(res.statusCode).toBe(200);
    expect(dataOf(res, 200)).toMatchObject({ id: run.id, status: 'completed', progress: 33.33 });
    expect(dataOf(res, 200).completedAt).not.toBeNull();
  });

  it('a PATCH may send back the record it read; a field it does not know is still 422', async () => {
    const plant = await newPlant(owner, { species: 'Ficus lyrata', external_id: 'F-1' });
    const read = dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200);
    const changed = dataOf(
      await owner.patch(`/api/v1/plants/${plant.id}`, { ...read, notes: 'repotted' }),
      200,
    );
    expect(changed).toMatchObject({ id: plant.id, notes: 'repotted', species: 'Ficus lyrata' });
    const explant = await newExplant(owner, { label: 'E-2', initial_count: 4 });
    const back = dataOf(
      await owner.patch(`/api/v1/explants/${explant.id}`, { ...explant, current_count: 3 }),
      200,
    );
    expect(back).toMatchObject({
      id: explant.id,
      current_count: 3,
      created_at: explant.created_at,
    });
    expectError(
      await owner.patch(`/api/v1/plants/${plant.id}`, { ...read, nots: 'typo' }),
      422,
      'VALIDATION_ERROR',
      /unknown field "nots"/,
    );
    expect(dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200).notes).toBe('repotted');
  });
});
