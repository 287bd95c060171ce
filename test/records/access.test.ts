import { beforeEach, describe, expect, it } from 'vitest';
import type { Role } from '../../src/kernel/access.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  client,
  dataOf,
  eventsOf,
  expectError,
  newExplant,
  newPlant,
  stagesOf,
  type Client,
} from '../support/helpers.js';

describeOnDatabases('Ownership and roles', (target) => {
  const { t, lab, owner } = labSuite(target);
  let creator: Client;
  let creatorId: string;
  beforeEach(async () => {
    const member = await lab.actor('member');
    creator = client(t, member);
    creatorId = member.memberId;
  });

  const as = async (role: Role) => client(t, await lab.actor(role));

  describe("another member's plant", () => {
    it('refuses a member PATCH with 403 PLANT_WRITE_FORBIDDEN and changes nothing', async () => {
      const plant = await newPlant(creator, { species: 'Ficus', external_id: 'P-1' });
      const res = await (
        await as('member')
      ).patch(`/api/v1/plants/${plant.id}`, { species: 'Changed', status: 'failed' });
      expectError(res, 403, 'PLANT_WRITE_FORBIDDEN');
      expect(dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200)).toEqual(plant);
      expect((await eventsOf(owner, 'plant')).map((e) => e.event_type)).toEqual(['created']);
    });

    it('refuses a member stage move with 403 STAGE_WRITE_FORBIDDEN and changes nothing', async () => {
      const plant = await newPlant(creator);
      const before = await stagesOf(owner, 'plant', plant.id);
      const res = await (
        await as('member')
      ).post('/api/v1/stages', { plant_id: plant.id, stage: 'production' });
      expectError(res, 403, 'STAGE_WRITE_FORBIDDEN');
      expect(await stagesOf(owner, 'plant', plant.id)).toEqual(before);
      expect((await eventsOf(owner, 'plant')).map((e) => e.event_type)).toEqual(['created']);
    });

    it.each(['manager', 'admin', 'owner'] as const)('lets a %s edit and move it', async (role) => {
      const plant = await newPlant(creator);
      const other = role === 'owner' ? owner : await as(role);
      expect(
        dataOf(await other.patch(`/api/v1/plants/${plant.id}`, { status: 'dormant' }), 200).status,
      ).toBe('dormant');
      expect(
        (await other.post('/api/v1/stages', { plant_id: plant.id, stage: 'production' }))
          .statusCode,
      ).toBe(201);
    });

    it('lets the creator edit and move it, recorded as the creator', async () => {
      const plant = await newPlant(creator);
      expect(
        (await creator.patch(`/api/v1/plants/${plant.id}`, { notes: 'mine' })).statusCode,
      ).toBe(200);
      expect(
        (await creator.post('/api/v1/stages', { plant_id: plant.id, stage: 'production' }))
          .statusCode,
      ).toBe(201);
      const events = await eventsOf(owner, 'plant');
      expect(events.map((e) => [e.event_type, e.recorded_by])).toEqual([
        ['created', creatorId],
        ['updated', creatorId],
        ['stage_change', creatorId],
      ]);
    });
  });

  describe("another member's explant", () => {
    it('refuses a member PATCH (403 EXPLANT_WRITE_FORBIDDEN) and a member move (403 STAGE_WRITE_FORBIDDEN)', async () => {
      const explant = await newExplant(creator, { initial_count: 5 });
      await creator.post('/api/v1/stages', { explant_id: explant.id, stage: 'initiation' });
      // As moved (its current stage is on the record).
      const moved = dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200);
      const before = await stagesOf(owner, 'explant', explant.id);
      const other = await as('member');
      expectError(
        await other.patch(`/api/v1/explants/${explant.id}`, { current_count: 1 }),
        403,
        'EXPLANT_WRITE_FORBIDDEN',
      );
      expectError(
        await other.post('/api/v1/stages', { explant_id: explant.id, stage: 'establishment' }),
        403,
        'STAGE_WRITE_FORBIDDEN',
      );
      expect(dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200)).toEqual(moved);
      expect(await stagesOf(owner, 'explant', explant.id)).toEqual(before);
      expect((await eventsOf(owner, 'explant')).map((e) => e.event_type)).toEqual([
        'created',
        'stage_change',
      ]);
    });

    it('lets a manager edit and move it', async () => {
      const explant = await newExplant(creator);
      const manager = await as('manager');
      expect(
        dataOf(await manager.patch(`/api/v1/explants/${explant.id}`, { plantlet_count: 9 }), 200)
          .plantlet_count,
      ).toBe(9);
      expect(
        (await manager.post('/api/v1/stages', { explant_id: explant.id, stage: 'initiation' }))
          .statusCode,
      ).toBe(201);
    });
  });

  describe('roles', () => {
    it.each(['viewer', 'guest'] as const)(
      'refuses every write of a %s with 403 FORBIDDEN naming the role',
      async (role) => {
        const plant = await newPlant(owner);
        const explant = await newExplant(owner);
        const reader = await as(role);
        const writes = [
          () => reader.post('/api/v1/plants', { species: 'Ficus' }),
          () => reader.patch(`/api/v1/plants/${plant.id}`, { species: 'Changed' }),
          () => reader.post('/api/v1/explants', { label: 'L' }),
          () => reader.patch(`/api/v1/explants/${explant.id}`, { label: 'Changed' }),
          () => reader.post('/api/v1/stages', { plant_id: plant.id, stage: 'production' }),
          () => reader.post('/api/v1/stages', { explant_id: explant.id, stage: 'initiation' }),
        ];
        for (const write of writes) {
          const res = await write();
          expectError(res, 403, 'FORBIDDEN', /member role/);
          expect(res.json().error).toContain(role);
        }
        expect(dataOf(await owner.get('/api/v1/plants'), 200)).toEqual([plant]);
        expect(dataOf(await owner.get('/api/v1/explants'), 200)).toEqual([explant]);
        expect(await stagesOf(owner, 'plant', plant.id)).toHaveLength(1);
        expect(await stagesOf(owner, 'explant', explant.id)).toEqual([]);
        expect(await eventsOf(owner, 'plant')).toHaveLength(1);
      },
    );

    it('lets a viewer read everything', async () => {
      const plant = await newPlant(owner);
      const explant = await newExplant(owner);
      const viewer = await as('viewer');
      for (const url of [
        '/api/v1/plants',
        `/api/v1/plants/${plant.id}`,
        '/api/v1/explants',
        `/api/v1/explants/${explant.id}`,
        `/api/v1/stages?plant_id=${plant.id}`,
        '/api/v1/events?entity=plant',
      ]) {
        expect((await viewer.get(url)).statusCode, url).toBe(200);
      }
    });

    it('refuses a key without the scope with 403 FORBIDDEN naming the scope', async () => {
      const plant = await newPlant(owner);
      const readOnly = client(
        t,
        await lab.actor('owner', { scopes: ['read:plants', 'write:plants'] }),
      );
      const cases: [() => ReturnType<Client['get']>, string][] = [
        [
          () => readOnly.post('/api/v1/stages', { plant_id: plant.id, stage: 'production' }),
          'write:transfers',
        ],
        [() => readOnly.get(`/api/v1/stages?plant_id=${plant.id}`), 'read:transfers'],
        [() => readOnly.post('/api/v1/explants', { label: 'L' }), 'write:explants'],
        [() => readOnly.get('/api/v1/explants'), 'read:explants'],
        [() => readOnly.get('/api/v1/events?entity=plant'), 'read:events'],
      ];
      for (const [call, scope] of cases)
        expectError(await call(), 403, 'FORBIDDEN', new RegExp(scope));
      expect((await readOnly.patch(`/api/v1/plants/${plant.id}`, { notes: 'ok' })).statusCode).toBe(
        200,
      );
      expect(await stagesOf(owner, 'plant', plant.id)).toHaveLength(1);
      expect(dataOf(await owner.get('/api/v1/explants'), 200)).toEqual([]);
    });
  });
});
