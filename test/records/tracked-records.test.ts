import { describe, expect, it } from 'vitest';
import { body } from '../support/harness.js';
import {
  dataOf,
  expectError,
  ISO_MS,
  keysOf,
  markDeleted,
  newExplant,
  newPlant,
  randomId,
  type Client,
  type Json,
} from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

const PLANT_KEYS = [
  'archived_at',
  'archived_by',
  'common_name',
  'created_at',
  'created_by',
  'cultivar',
  'current_stage',
  'custom_fields',
  'external_id',
  'family',
  'genus',
  'id',
  'name',
  'notes',
  'source',
  'species',
  'status',
  'updated_at',
  'workspace_id',
];

const EXPLANT_KEYS = [
  'archived_at',
  'archived_by',
  'batch_number',
  'created_at',
  'created_by',
  'current_count',
  'current_stage',
  'custom_fields',
  'external_id',
  'id',
  'initial_count',
  'label',
  'notes',
  'parent_explant_ids',
  'plant_id',
  'plantlet_count',
  'status',
  'subcultured_at',
  'transfer_due_at',
  'updated_at',
  'workspace_id',
];

/** What differs between the two kinds of tracked record in the tests they share. */
interface Kind {
  kind: 'plant' | 'explant';
  url: string;
  table: 'plants' | 'explants';
  keys: string[];
  make(c: Client, fields?: Record<string, unknown>): Promise<Json>;
  /** The one field a create needs, as named in the length checks. */
  required: string;
  /** A create of the fewest fields, and the defaults it reads back with. */
  create: Record<string, unknown>;
  defaults: Record<string, unknown>;
  /** Every field create and update accept, what the record shows of them, and an edit. */
  sent: Record<string, unknown>;
  shown: Record<string, unknown>;
  edits: Record<string, unknown>;
  /** [field, longest, shortest] of each text field. */
  lengths: [string, number, number][];
  statuses: string[];
  /** A status of the other kind, refused on create; a status to PATCH to. */
  otherStatus: string;
  changedStatus: string;
  /** A PATCH of the required field, and a stage name for POST /stages. */
  rename: Record<string, unknown>;
  stage: string;
}

const KINDS: Kind[] = [
  {
    kind: 'plant',
    url: '/api/v1/plants',
    table: 'plants',
    keys: PLANT_KEYS,
    make: newPlant,
    required: 'species',
    create: { species: 'Ficus lyrata' },
    defaults: {
      name: 'Ficus lyrata',
      species: 'Ficus lyrata',
      status: 'active',
      external_id: null,
      custom_fields: {},
    },
    sent: {
      species: 'Monstera deliciosa',
      common_name: 'Swiss cheese plant',
      genus: 'Monstera',
      family: 'Araceae',
      cultivar: 'Thai Constellation',
      source: 'Tissue culture lab B',
      notes: 'Variegated sport',
    },
    shown: { name: 'Swiss cheese plant' },
    edits: { cultivar: null, source: 'Mother stock 7', notes: 'Rooted' },
    lengths: [
      ['species', 200, 1],
      ['common_name', 200, 0],
      ['genus', 100, 0],
      ['family', 100, 0],
      ['cultivar', 200, 0],
      ['source', 200, 0],
      ['notes', 5000, 0],
      ['external_id', 100, 1],
    ],
    statuses: [
      'active',
      'dormant',
      'harvested',
      'contaminated',
      'failed',
      'in_culture',
      'ready_for_transfer',
      'quarantined',
      'archived',
    ],
    otherStatus: 'Active',
    changedStatus: 'dormant',
    rename: { species: 'x' },
    stage: 'field',
  },
  {
    kind: 'explant',
    url: '/api/v1/explants',
    table: 'explants',
    keys: EXPLANT_KEYS,
    make: newExplant,
    required: 'label',
    create: { label: 'FL-7' },
    defaults: {
      label: 'FL-7',
      external_id: 'FL-7',
      status: 'active',
      plant_id: null,
      initial_count: null,
      current_count: null,
      plantlet_count: null,
      custom_fields: {},
    },
    sent: {
      label: 'MON-B07',
      batch_number: 'B2026-101',
      notes: 'Third subculture',
      status: 'growing',
      initial_count: 12,
      current_count: 10,
      plantlet_count: 48,
    },
    shown: {},
    edits: {
      batch_number: null,
      notes: 'Split into two',
      current_count: 14,
      plantlet_count: 60,
    },
    lengths: [
      ['label', 200, 1],
      ['batch_number', 100, 0],
      ['notes', 5000, 0],
      ['external_id', 100, 1],
    ],
    statuses: [
      'active',
      'establishing',
      'growing',
      'needs_subculture',
      'quarantined',
      'senescing',
      'discarded',
      'retired',
      'lost',
    ],
    otherStatus: 'dormant',
    changedStatus: 'growing',
    rename: { label: 'x' },
    stage: 'multiplication',
  },
];

/** What plants and explants share, each test once per kind; `plants.test.ts` and
 * `explants.test.ts` hold what only one kind does. */
describeOnDatabases('Plants and explants', (target) => {
  const { t, lab, owner } = labSuite(target);

  describe.each(KINDS)('$kind', (kind) => {
    const { url } = kind;

    it('creates a record with the documented fields and defaults, and reads it back', async () => {
      const res = await owner.post(url, kind.create);
      expect(res.statusCode).toBe(201);
      expect(res.headers['idempotent-replay']).toBe('false');
      const record = body(res).data;
      expect(keysOf(record)).toEqual(kind.keys);
      expect(record).toMatchObject({
        ...kind.defaults,
        workspace_id: lab.workspaceId,
        // Who created it: they (and managers) may move, edit and archive it.
        created_by: lab.owner.memberId,
      });
      expect(record.created_at).toMatch(ISO_MS);
      expect(body(res).meta).toBeUndefined();

      expect(dataOf(await owner.get(`${url}/${record.id}`), 200)).toEqual(record);
      expect(dataOf(await owner.get(url), 200)).toEqual([record]);
    });

    it('reads back every field create and update accept, with updated_at', async () => {
      const record = await kind.make(owner, kind.sent);
      expect(record).toMatchObject({ ...kind.sent, ...kind.shown });
      expect(record.updated_at).toBe(record.created_at);
      expect(dataOf(await owner.get(`${url}/${record.id}`), 200)).toEqual(record);

      await new Promise((resolve) => setTimeout(resolve, 5));
      const edited = dataOf(await owner.patch(`${url}/${record.id}`, kind.edits), 200);
      expect(edited).toMatchObject(kind.edits);
      expect(edited.updated_at > record.updated_at).toBe(true);
      expect(dataOf(await owner.get(`${url}/${record.id}`), 200)).toEqual(edited);
      expect(dataOf(await owner.get(url), 200)).toEqual([edited]);
    });

    it.each(kind.lengths)(
      'enforces the length of %s (%i max, %i min) on create and PATCH',
      async (field, max, min) => {
        const base = field === kind.required ? {} : kind.create;
        const longest = await owner.post(url, { ...base, [field]: 'x'.repeat(max) });
        expect(longest.statusCode).toBe(201);
        const tooLong = await owner.post(url, { ...base, [field]: 'y'.repeat(max + 1) });
        expectError(tooLong, 422, 'VALIDATION_ERROR', new RegExp(`^${field}:`));
        const shortest = await owner.post(url, { ...base, [field]: 'z'.repeat(min) });
        expect(shortest.statusCode).toBe(201);
        if (min > 0) {
          const empty = await owner.post(url, { ...base, [field]: '' });
          expectError(empty, 422, 'VALIDATION_ERROR', new RegExp(`^${field}:`));
        }
        const id = body(longest).data.id;
        const patch = await owner.patch(`${url}/${id}`, { [field]: 'w'.repeat(max + 1) });
        expectError(patch, 422, 'VALIDATION_ERROR', new RegExp(`^${field}:`));
        expect(dataOf(await owner.get(url), 200)).toHaveLength(2);
      },
    );

    it('accepts every documented status and refuses others', async () => {
      for (const status of kind.statuses) {
        expect((await kind.make(owner, { status })).status).toBe(status);
      }
      expectError(
        await owner.post(url, { ...kind.create, status: kind.otherStatus }),
        422,
        'VALIDATION_ERROR',
        /^status:/,
      );
      const record = await kind.make(owner);
      expectError(
        await owner.patch(`${url}/${record.id}`, { status: 'sold' }),
        422,
        'VALIDATION_ERROR',
        /^status:/,
      );
      expect(
        dataOf(await owner.patch(`${url}/${record.id}`, { status: kind.changedStatus }), 200)
          .status,
      ).toBe(kind.changedStatus);
    });

    it('external_id stays taken by a deleted record, which no read returns', async () => {
      const gone = await kind.make(owner, { external_id: 'DEL-1' });
      await markDeleted(t.database, kind.table, gone.id);
      expectError(
        await owner.post(url, { ...kind.create, external_id: 'del-1' }),
        409,
        'DUPLICATE_ENTRY',
      );
      const other = await kind.make(owner);
      expectError(
        await owner.patch(`${url}/${other.id}`, { external_id: 'Del-1' }),
        409,
        'DUPLICATE_ENTRY',
      );
      expectError(await owner.get(`${url}/${gone.id}`), 404, 'NOT_FOUND');
      expectError(await owner.patch(`${url}/${gone.id}`, kind.rename), 404, 'NOT_FOUND');
      expect(dataOf(await owner.get(`${url}?externalId=DEL-1`), 200)).toEqual([]);
      const named = `${kind.kind}_id`;
      expectError(
        await owner.post('/api/v1/stages', { [named]: gone.id, stage: kind.stage }),
        404,
        'NOT_FOUND',
      );
      expectError(await owner.get(`/api/v1/stages?${named}=${gone.id}`), 404, 'NOT_FOUND');
      expect(dataOf(await owner.get(url), 200).map((r: { id: string }) => r.id)).toEqual([
        other.id,
      ]);
    });

    it('answers 404 for an unknown record', async () => {
      for (const id of [randomId(), '0190b0a4-0000-7000-8000-000000000000']) {
        expectError(await owner.get(`${url}/${id}`), 404, 'NOT_FOUND');
        expectError(await owner.patch(`${url}/${id}`, kind.rename), 404, 'NOT_FOUND');
      }
    });
  });
});
