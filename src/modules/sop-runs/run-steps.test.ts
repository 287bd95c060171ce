import { describe, expect, it } from 'vitest';
import type { StepEvidence } from './sop-runs.repository.js';
import { runSteps } from './run-steps.js';

const evidence = (entries: Record<string, { types: string[]; skip?: object }>) =>
  new Map<string, StepEvidence>(
    Object.entries(entries).map(([id, e]) => [
      id,
      {
        types: new Set(e.types),
        skipPayload: e.skip === undefined ? null : JSON.stringify(e.skip),
      },
    ]),
  );

describe('runSteps', () => {
  const steps = ['s1', 's2', 's3', 's4'];

  it('says how many steps a completed run ended without, and names them', () => {
    const result = runSteps('completed', steps, evidence({ s2: { types: ['confirmed'] } }));
    expect(result).toEqual({
      worked: ['s2'],
      incomplete: ['s1', 's3', 's4'],
      skipped: [],
      detail: 'completed with 3 of 4 steps not done',
    });
  });

  it('tells skipped steps from done ones, with the reason from the payload', () => {
    const result = runSteps(
      'completed',
      steps,
      evidence({
        s1: { types: ['measured'] },
        s2: { types: ['skipped', 'note'], skip: { reason: ' no agar ' } },
        s3: { types: ['skipped', 'confirmed'], skip: { reason: 'later done' } },
        s4: { types: ['skipped'], skip: { notes: 'n/a' } },
      }),
    );
    expect(result.skipped).toEqual([
      { id: 's2', reason: 'no agar' },
      { id: 's4', reason: 'n/a' },
    ]);
    expect(result.detail).toBe('completed with 2 of 4 steps skipped');
    expect(
      runSteps('completed', steps, evidence({ s1: { types: ['skipped'], skip: [1] } })).detail,
    ).toBe('completed with 3 of 4 steps not done, 1 skipped');
  });

  it('words every status and the singular', () => {
    const all = evidence(Object.fromEntries(steps.map((s) => [s, { types: ['confirmed'] }])));
    expect(runSteps('completed', steps, all).detail).toBe('completed, all 4 steps done');
    expect(runSteps('in_progress', ['s1'], new Map()).detail).toBe('in progress, 0 of 1 step done');
    expect(runSteps('failed', steps, evidence({ s1: { types: ['note'] } })).detail).toBe(
      'failed, 1 of 4 steps done',
    );
    expect(runSteps('completed', [], new Map()).detail).toBe('completed');
  });
});
