import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { IDEMPOTENCY_LEASE_MS } from '../../src/kernel/idempotency.js';
import type { Trx } from '../../src/db/database.js';
import { recordLookup } from '../../src/kernel/record-lookup.js';
import { recordSources } from '../../src/modules/index.js';
import { plants } from '../../src/modules/plants/plants.repository.js';
import { advanceStage } from '../../src/modules/stages/stages.service.js';
import { body, ownerPrincipal } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  dataOf,
  defineCustomFields,
  eventsOf,
  GENEROUS_LIMITS,
  listAll,
  newExplant,
  newPlant,
  stagesOf,
} from '../support/helpers.js';

type Stage = { id: string; status: string; entered_on: string; completed_at: string | null };

const statusesOf = (responses: LightMyRequestResponse[]) =>
  responses
    .map((r) =>
      `${r.statusCode} ${r.statusCode === 201 || r.statusCode === 200 ? '' : body(r).code}`.trim(),
    )
    .sort();

/** Exactly one active stage, the newest, and every earlier one closed when the next began. */
function expectConsistentChain(stages: Stage[]): void {
  const oldestFirst = [...stages].reverse();
  expect(oldestFirst.filter((s) => s.status === 'active')).toHaveLength(1);
  expect(oldestFirst.at(-1)).toMatchObject({ status: 'active', completed_at: null });
  for (let i = 0; i < oldestFirst.length - 1; i++) {
    expect(oldestFirst[i]).toMatchObject({
      status: 'completed',
      completed_at: oldestFirst[i + 1]!.entered_on,
    });
  }
}

describeOnDatabases('Concurrent writes', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });

  it('10 concurrent moves of a plant leave one active stage and a consistent completed_at chain', async () => {
    // Several plants at once, so moves really queue on each plant's lock.
    const plants = await Promise.all(Array.from({ length: 4 }, () => newPlant(owner)));
    const initials = await Promise.all(
      plants.map(async (p) => (await stagesOf(owner, 'plant', p.id))[0]),
    );
    const responses = await Promise.all(
      plants.map((plant) =>
        Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            owner.post('/api/v1/stages', {
              plant_id: plant.id,
              stage: i % 2 ? 'production' : 'greenhouse',
            }),
          ),
        ),
      ),
    );
    for (const [n, plant] of plants.entries()) {
      const moves = responses[n]!;
      expect(statusesOf(moves)).toEqual(Array(10).fill('201'));
      // A move without entered_on is never dated before another: each closed the stage before it.
      const metas = moves.map((r) => body(r).meta);
      for (const meta of metas) expect(meta).toEqual({ previous_stage_id: expect.any(String) });
      const stages = (await stagesOf(owner, 'plant', plant.id)) as Stage[];
      expect(stages).toHaveLength(11);
      expectConsistentChain(stages);
      expect(metas.map((m) => m.previous_stage_id as string).sort()).toEqual(
        stages
          .slice(1)
          .map((s) => s.id)
          .sort(),
      );
      expect(stages.at(-1)!.id).toBe(initials[n].id);
    }
    const events = (await eventsOf(owner, 'plant')).filter((e) => e.event_type === 'stage_change');
    expect(events).toHaveLength(40);
  });

  it('dates a move without entered_on after the move it queued behind', async () => {
    const plant = await newPlant(owner);
    let overtaking: { id: string; entered_on: string } | null = null;
    // The record lookup stands for the wait on the record's lock: another move commits meanwhile.
    const records = recordLookup({
      ...recordSources(),
      plant: {
        find: (...args: Parameters<typeof plants.find>) => plants.find(...args),
        lock: async (...args: Parameters<typeof plants.lock>) => {
          overtaking = dataOf(
            await owner.post('/api/v1/stages', { plant_id: plant.id, stage: 'greenhouse' }),
            201,
          );
          return plants.lock(...args);
        },
      },
    });
    const principal = ownerPrincipal(lab);
    // The request began before the overtaking move did.
    const startedAt = new Date(Date.now() - 1000).toISOString();
    // Not in a transaction of its own: the lookup's request would wait on it (SQLite has one connection).
    const { stage, meta } = await advanceStage(
      t.database.db as unknown as Trx,
      principal,
      { plant_id: plant.id, stage: 'production' },
      records,
      startedAt,
    );
    expect(meta).toEqual({ previous_stage_id: overtaking!.id });
    expect(stage).toMatchObject({ status: 'active', completed_at: null });
    expect(stage.entered_on! >= overtaking!.entered_on).toBe(true);
    expectConsistentChain((await stagesOf(owner, 'plant', plant.id)) as Stage[]);
  });

  it('10 concurrent moves of one explant do the same', async () => {
    const explant = await newExplant(owner);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        owner.post('/api/v1/stages', { explant_id: explant.id, stage: 'multiplication' }),
      ),
    );
    expect(statusesOf(responses)).toEqual(Array(10).fill('201'));
    expect(responses.filter((r) => body(r).meta.previous_stage_id === null)).toHaveLength(1);
    const stages = (await stagesOf(owner, 'explant', explant.id)) as Stage[];
    expect(stages).toHaveLength(10);
    expectConsistentChain(stages);
  });

  it('10 concurrent moves with one Idempotency-Key make exactly one move', async () => {
    const plant = await newPlant(owner);
    const headers = { 'idempotency-key': 'same-move-0001' };
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        owner.post('/api/v1/stages', { plant_id: plant.id, stage: 'production' }, headers),
      ),
    );
    const created = responses.filter((r) => r.statusCode === 201);
    for (const r of responses.filter((r) => r.statusCode !== 201)) {
      expect(r.statusCode).toBe(409);
      expect(body(r).code).toBe('IDEMPOTENCY_IN_FLIGHT');
      // When the winner's lease ends, in whole seconds.
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(IDEMPOTENCY_LEASE_MS / 1000);
    }
    expect(created.filter((r) => r.headers['idempotent-replay'] === 'false')).toHaveLength(1);
    expect(new Set(created.map((r) => body(r).data.id)).size).toBe(1);
    expect(await stagesOf(owner, 'plant', plant.id)).toHaveLength(2);
    expect(
      (await eventsOf(owner, 'plant')).filter((e) => e.event_type === 'stage_change'),
    ).toHaveLength(1);
  });

  it('20 concurrent plant creates with one external_id: exactly one 201, the rest 409', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        owner.post('/api/v1/plants', {
          species: `Race ${i}`,
          external_id: i % 2 ? 'RACE-1' : 'race-1',
        }),
      ),
    );
    expect(statusesOf(responses)).toEqual(['201', ...Array(19).fill('409 DUPLICATE_ENTRY')]);
    const winner = body(responses.find((r) => r.statusCode === 201)!).data;
    expect(await listAll(owner, '/api/v1/plants')).toEqual([winner]);
    expect(dataOf(await owner.get('/api/v1/plants?externalId=Race-1'), 200)).toEqual([winner]);
    expect((await eventsOf(owner, 'plant')).map((e) => e.entity_id)).toEqual([winner.id]);
    expect(await stagesOf(owner, 'plant', winner.id)).toHaveLength(1);
  });

  it('20 concurrent explant creates with one external_id: exactly one 201, the rest 409', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        owner.post('/api/v1/explants', { label: `Race ${i}`, external_id: 'EX-RACE' }),
      ),
    );
    expect(statusesOf(responses)).toEqual(['201', ...Array(19).fill('409 DUPLICATE_ENTRY')]);
    expect(await listAll(owner, '/api/v1/explants')).toHaveLength(1);
    expect(await eventsOf(owner, 'explant')).toHaveLength(1);
  });

  it('10 plants patched concurrently to one external_id: exactly one 200, the rest 409', async () => {
    const plants = [];
    for (let i = 0; i < 10; i++) plants.push(await newPlant(owner, { species: `P${i}` }));
    const responses = await Promise.all(
      plants.map((p) =>
        owner.patch(`/api/v1/plants/${p.id}`, { external_id: 'TAKEN', notes: 'raced' }),
      ),
    );
    expect(statusesOf(responses)).toEqual(['200', ...Array(9).fill('409 DUPLICATE_ENTRY')]);
    const all = await listAll(owner, '/api/v1/plants');
    expect(all.filter((p) => p.external_id === 'TAKEN')).toHaveLength(1);
    expect((await eventsOf(owner, 'plant')).filter((e) => e.event_type === 'updated')).toHaveLength(
      1,
    );
  });

  it('10 concurrent PATCHes of one plant lose no custom field', async () => {
    const keys = Array.from({ length: 10 }, (_, i) => `field_${i}`);
    await defineCustomFields(
      t.database,
      lab.workspaceId,
      keys.map((key) => ({ entity: 'plant', key, type: 'number' })),
    );
    const plant = await newPlant(owner);
    const responses = await Promise.all(
      keys.map((key, i) =>
        owner.patch(`/api/v1/plants/${plant.id}`, { custom_fields: { [key]: i } }),
      ),
    );
    expect(statusesOf(responses)).toEqual(Array(10).fill('200'));
    const final = dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200);
    expect(final.custom_fields).toEqual(Object.fromEntries(keys.map((key, i) => [key, i])));
    expect((await eventsOf(owner, 'plant')).filter((e) => e.event_type === 'updated')).toHaveLength(
      10,
    );
  });
});
