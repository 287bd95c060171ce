import { beforeEach, describe, expect, it } from 'vitest';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  dataOf,
  defineCustomFields,
  eventsOf,
  expectError,
  newExplant,
  newPlant,
  type FieldDefinition,
} from '../support/helpers.js';

const FIELDS: FieldDefinition[] = [
  { entity: 'plant', key: 'clone', type: 'text' },
  { entity: 'plant', key: 'lineage', type: 'text' },
  { entity: 'plant', key: 'height_cm', type: 'number' },
  { entity: 'plant', key: 'rooted', type: 'boolean' },
  { entity: 'plant', key: 'sown_on', type: 'date' },
  { entity: 'plant', key: 'grade', type: 'select', options: ['A', 'B', 'C'] },
  { entity: 'explant', key: 'vessel', type: 'select', options: ['jar', 'tube'] },
  { entity: 'explant', key: 'note', type: 'text' },
  { entity: 'transfer', key: 'medium', type: 'text' },
];

describeOnDatabases('Custom fields', (target) => {
  const { t, lab, owner } = labSuite(target);

  it('are {} when the lab defines none, and any key is refused then', async () => {
    expect((await newPlant(owner)).custom_fields).toEqual({});
    expect((await newExplant(owner)).custom_fields).toEqual({});
    expect((await newPlant(owner, { custom_fields: {} })).custom_fields).toEqual({});
    expectError(
      await owner.post('/api/v1/plants', { species: 'F', custom_fields: { clone: 'x' } }),
      422,
      'VALIDATION_ERROR',
      /^custom_fields\.clone:/,
    );
  });

  describe('with fields defined', () => {
    beforeEach(async () => {
      await defineCustomFields(t.database, lab.workspaceId, FIELDS);
    });

    it('stores values of every type and returns them on create, get and list', async () => {
      const values = {
        clone: 'FL-A',
        height_cm: 12.5,
        rooted: false,
        sown_on: '2026-03-01',
        grade: 'B',
      };
      const plant = await newPlant(owner, { custom_fields: values });
      expect(plant.custom_fields).toEqual(values);
      expect(dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200).custom_fields).toEqual(
        values,
      );
      expect(dataOf(await owner.get('/api/v1/plants'), 200)[0].custom_fields).toEqual(values);
      const explant = await newExplant(owner, { custom_fields: { vessel: 'jar', note: 'fresh' } });
      expect(explant.custom_fields).toEqual({ vessel: 'jar', note: 'fresh' });
    });

    it.each([
      ['plant', { unknown: 'x' }, 'unknown'],
      ['plant', { vessel: 'jar' }, 'vessel'],
      ['plant', { medium: 'MS' }, 'medium'],
      ['plant', { clone: 3 }, 'clone'],
      ['plant', { height_cm: '12' }, 'height_cm'],
      ['plant', { rooted: 'yes' }, 'rooted'],
      ['plant', { rooted: 1 }, 'rooted'],
      ['plant', { sown_on: '2026-02-31' }, 'sown_on'],
      ['plant', { sown_on: '2026-03-01T00:00:00Z' }, 'sown_on'],
      ['plant', { grade: 'D' }, 'grade'],
      ['plant', { grade: 'a' }, 'grade'],
      ['explant', { clone: 'x' }, 'clone'],
      ['explant', { vessel: 'bag' }, 'vessel'],
    ] as const)(
      'refuses on a %s %j with 422 naming the key, creating nothing',
      async (kind, values, key) => {
        const url = kind === 'plant' ? '/api/v1/plants' : '/api/v1/explants';
        const base = kind === 'plant' ? { species: 'F' } : { label: 'L' };
        // A valid key beside the bad one: the bad one is still found and named.
        const valid = kind === 'plant' ? { grade: 'A' } : { note: 'n' };
        const res = await owner.post(url, { ...base, custom_fields: { ...valid, ...values } });
        expectError(res, 422, 'VALIDATION_ERROR', new RegExp(`^custom_fields\\.${key}:`));
        expect(dataOf(await owner.get(url), 200)).toEqual([]);
      },
    );

    it('refuses values that are not text, number, boolean or null', async () => {
      for (const value of [['A'], { v: 1 }]) {
        const res = await owner.post('/api/v1/plants', {
          species: 'F',
          custom_fields: { clone: value },
        });
        expectError(res, 422, 'VALIDATION_ERROR', /^custom_fields/);
      }
    });

    it('allows at most 10,000 bytes in all, counted in bytes', async () => {
      // {"clone":"…"} is 12 bytes around the value.
      const fits = await owner.post('/api/v1/plants', {
        species: 'F',
        custom_fields: { clone: 'x'.repeat(9988) },
      });
      expect(fits.statusCode).toBe(201);
      const over = await owner.post('/api/v1/plants', {
        species: 'F',
        custom_fields: { clone: 'x'.repeat(9989) },
      });
      expectError(over, 422, 'VALIDATION_ERROR', /^custom_fields:.*10,?000 bytes/);
      // 5,000 characters but 10,000 bytes of UTF-8.
      const wide = await owner.post('/api/v1/plants', {
        species: 'F',
        custom_fields: { clone: 'é'.repeat(5000) },
      });
      expectError(wide, 422, 'VALIDATION_ERROR', /^custom_fields:/);
      expect(dataOf(await owner.get('/api/v1/plants'), 200)).toHaveLength(1);
    });

    it('counts the merged result of a PATCH against the limit', async () => {
      const plant = await newPlant(owner, { custom_fields: { clone: 'x'.repeat(6000) } });
      const lineage = 'y'.repeat(4500);
      const over = await owner.patch(`/api/v1/plants/${plant.id}`, {
        species: 'Changed',
        custom_fields: { lineage },
      });
      expectError(over, 422, 'VALIDATION_ERROR', /^custom_fields:/);
      expect(dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200)).toEqual(plant);
      const swapped = await owner.patch(`/api/v1/plants/${plant.id}`, {
        custom_fields: { clone: null, lineage },
      });
      expect(dataOf(swapped, 200).custom_fields).toEqual({ lineage });
    });

    it('merges a PATCH per key, null clears one key, and records the change', async () => {
      const plant = await newPlant(owner, { custom_fields: { clone: 'FL-A', grade: 'A' } });
      const merged = dataOf(
        await owner.patch(`/api/v1/plants/${plant.id}`, { custom_fields: { height_cm: 30 } }),
        200,
      );
      expect(merged.custom_fields).toEqual({ clone: 'FL-A', grade: 'A', height_cm: 30 });
      const cleared = dataOf(
        await owner.patch(`/api/v1/plants/${plant.id}`, {
          custom_fields: { clone: null, grade: 'C' },
        }),
        200,
      );
      expect(cleared.custom_fields).toEqual({ grade: 'C', height_cm: 30 });
      expect(dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200).custom_fields).toEqual({
        grade: 'C',
        height_cm: 30,
      });

      const events = await eventsOf(owner, 'plant');
      expect(events.map((e) => e.event_type)).toEqual(['created', 'updated', 'updated']);
      expect(events[2].payload.changes).toEqual({
        custom_fields: {
          from: { clone: 'FL-A', grade: 'A', height_cm: 30 },
          to: { grade: 'C', height_cm: 30 },
        },
      });
    });

    it('writes no event when a PATCH leaves the custom fields as they were', async () => {
      const plant = await newPlant(owner, { custom_fields: { grade: 'A' } });
      for (const custom_fields of [{}, { grade: 'A' }, { clone: null }]) {
        expect(
          dataOf(await owner.patch(`/api/v1/plants/${plant.id}`, { custom_fields }), 200),
        ).toEqual(plant);
      }
      expect((await eventsOf(owner, 'plant')).map((e) => e.event_type)).toEqual(['created']);
    });

    it('refuses a bad key on PATCH and changes nothing else of that PATCH', async () => {
      const plant = await newPlant(owner, { custom_fields: { grade: 'A' } });
      const res = await owner.patch(`/api/v1/plants/${plant.id}`, {
        species: 'Changed',
        custom_fields: { grade: 'B', rooted: 'no' },
      });
      expectError(res, 422, 'VALIDATION_ERROR', /^custom_fields\.rooted:/);
      expect(dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200)).toEqual(plant);
      expect(await eventsOf(owner, 'plant')).toHaveLength(1);
    });

    it('merges explant custom fields per key as well', async () => {
      const explant = await newExplant(owner, { custom_fields: { vessel: 'jar' } });
      const merged = dataOf(
        await owner.patch(`/api/v1/explants/${explant.id}`, { custom_fields: { note: 'ok' } }),
        200,
      );
      expect(merged.custom_fields).toEqual({ vessel: 'jar', note: 'ok' });
      const cleared = dataOf(
        await owner.patch(`/api/v1/explants/${explant.id}`, { custom_fields: { vessel: null } }),
        200,
      );
      expect(cleared.custom_fields).toEqual({ note: 'ok' });
      expectError(
        await owner.patch(`/api/v1/explants/${explant.id}`, { custom_fields: { grade: 'A' } }),
        422,
        'VALIDATION_ERROR',
        /^custom_fields\.grade:/,
      );
    });
  });
});
