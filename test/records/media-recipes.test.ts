import { describe, expect, it } from 'vitest';
import { recordVisibleTo } from '../../src/kernel/record-lookup.js';
import { createRecordLookup } from '../../src/modules/index.js';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  client,
  dataOf,
  expectError,
  expectSameAnswer,
  ISO_MS,
  keysOf,
  listAll,
  randomId,
  tick,
  type Client,
} from '../support/helpers.js';

const RECIPE_KEYS = [
  'components',
  'created_at',
  'created_by',
  'id',
  'is_public',
  'notes',
  'origin',
  'ph_target',
  'status',
  'sterilization_notes',
  'storage_notes',
  'title',
  'updated_at',
  'usage_notes',
  'version',
  'visibility',
];

const MS_SALTS = [
  { name: 'MS basal salts', qty: '4.4', unit: 'g/L' },
  { name: 'Sucrose', qty: '30', unit: 'g/L' },
  { name: 'Agar', qty: '7', unit: 'g/L' },
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describeOnDatabases('Media recipes', (target) => {
  const { t, lab, owner } = labSuite(target);

  const newRecipe = async (c: Client, fields: Record<string, unknown> = {}) =>
    dataOf(
      await c.post('/api/v1/media-recipes', { title: 'MS + BAP', components: MS_SALTS, ...fields }),
      201,
    );
  const member = async (role: 'member' | 'manager' | 'viewer' | 'guest' = 'member') =>
    client(t, await lab.actor(role));
  const versionsOf = (id: string) =>
    t.database.db
      .selectFrom('media_recipe_versions')
      .select([
        'version',
        'title',
        'notes',
        'ph_target_centi',
        'sterilization_notes',
        'storage_notes',
        'usage_notes',
        'components',
        'created_by',
      ])
      .where('recipe_id', '=', id)
      .orderBy('version')
      .execute();
  const recipeCount = async () =>
    (
      await t.database.db
        .selectFrom('media_recipes')
        .select('id')
        .where('workspace_id', '=', lab.workspaceId)
        .execute()
    ).length;

  describe('create', () => {
    it('applies the documented defaults and reads back in GET and the list', async () => {
      const res = await owner.post('/api/v1/media-recipes', {
        title: 'MS basal',
        components: [{ name: 'MS basal salts', qty: '4.4' }],
      });
      expect(res.statusCode).toBe(201);
      expect(res.headers['idempotent-replay']).toBe('false');
      const recipe = body(res).data;
      expect(keysOf(recipe)).toEqual(RECIPE_KEYS);
      expect(recipe).toMatchObject({
        title: 'MS basal',
        status: 'active',
        origin: 'user',
        visibility: 'private',
        is_public: false,
        notes: null,
        ph_target: null,
        sterilization_notes: null,
        storage_notes: null,
        usage_notes: null,
        version: 1,
        created_by: lab.owner.memberId,
      });
      expect(recipe.components).toEqual([
        {
          id: expect.stringMatching(UUID),
          name: 'MS basal salts',
          qty: '4.4',
          unit: null,
          concentration: null,
        },
      ]);
      expect(recipe.created_at).toMatch(ISO_MS);
      expect(recipe.updated_at).toBe(recipe.created_at);
      expect(dataOf(await owner.get(`/api/v1/media-recipes/${recipe.id}`), 200)).toEqual(recipe);
      expect(dataOf(await owner.get('/api/v1/media-recipes'), 200)).toEqual([recipe]);
    });

    it('reads back every field create and PATCH accept, with updated_at', async () => {
      const sent = {
        title: 'Rooting medium',
        components: [
          { id: 'ms-half', name: 'MS basal salts', qty: '2.2', unit: 'g/L', concentration: '0.5x' },
          { name: 'IBA', qty: '1', unit: 'mg/L' },
        ],
        notes: 'For Philodendron',
        status: 'draft',
        visibility: 'team',
        is_public: true,
        origin: 'imported',
        ph_target: 5.8,
        sterilization_notes: 'Autoclave 121 °C, 20 min',
        storage_notes: '4 °C, dark, 4 weeks',
        usage_notes: 'Root induction',
      };
      const recipe = await newRecipe(owner, sent);
      const { components, ...rest } = sent;
      expect(recipe).toMatchObject(rest);
      expect(recipe.components[0]).toEqual(components[0]);
      expect(recipe.components[1]).toEqual({
        ...components[1],
        id: expect.stringMatching(UUID),
        concentration: null,
      });
      expect(dataOf(await owner.get(`/api/v1/media-recipes/${recipe.id}`), 200)).toEqual(recipe);

      await tick();
      const edits = {
        title: 'Rooting medium v2',
        components: [{ id: 'iba', name: 'IBA', qty: '0.5', unit: 'mg/L', concentration: '5 µM' }],
        notes: null,
        status: 'published',
        visibility: 'private',
        is_public: false,
        ph_target: null,
        sterilization_notes: null,
        storage_notes: 'Use within 2 weeks',
        usage_notes: null,
      };
      const edited = dataOf(await owner.patch(`/api/v1/media-recipes/${recipe.id}`, edits), 200);
      expect(edited).toMatchObject({ ...edits, version: 2, origin: 'imported' });
      expect(edited.updated_at > recipe.updated_at).toBe(true);
      expect(edited.created_at).toBe(recipe.created_at);
      expect(dataOf(await owner.get(`/api/v1/media-recipes/${recipe.id}`), 200)).toEqual(edited);
    });

    it('keeps sent component ids and assigns distinct ones to the others', async () => {
      const recipe = await newRecipe(owner, {
        components: [
          { id: 'a', name: 'A', qty: '1' },
          { name: 'B', qty: '2' },
          { name: 'C', qty: '3' },
        ],
      });
      const ids = recipe.components.map((c: { id: string }) => c.id);
      expect(ids[0]).toBe('a');
      expect(ids[1]).toMatch(UUID);
      expect(new Set(ids).size).toBe(3);
      expectError(
        await owner.post('/api/v1/media-recipes', {
          title: 'Twice',
          components: [
            { id: 'x', name: 'A', qty: '1' },
            { id: 'x', name: 'B', qty: '2' },
          ],
        }),
        422,
        'VALIDATION_ERROR',
        /^components\[1\]\.id:/,
      );
      expect(await recipeCount()).toBe(1);
    });

    it('takes 1 to 100 components, each with a name and a qty', async () => {
      const many = Array.from({ length: 100 }, (_, i) => ({ name: `C${i}`, qty: '1' }));
      expect((await newRecipe(owner, { components: many })).components).toHaveLength(100);
      const refusals: [unknown, RegExp][] = [
        [[], /^components: must have at least 1 items/],
        [[...many, { name: 'one more', qty: '1' }], /^components: must have at most 100 items/],
        [[{ qty: '1' }], /^components\[0\]\.name: is required/],
        [[{ name: 'A' }], /^components\[0\]\.qty: is required/],
        [[{ name: '', qty: '1' }], /^components\[0\]\.name:/],
        [[{ name: 'A', qty: '' }], /^components\[0\]\.qty:/],
        [[{ name: 'A', qty: 1 }], /^components\[0\]\.qty: must be string/],
        [[{ name: 'A', qty: '1', grams: 3 }], /unknown field "grams" in components\[0\]/],
        [[{ id: '', name: 'A', qty: '1' }], /^components\[0\]\.id:/],
        ['MS', /^components: must be array/],
      ];
      for (const [components, error] of refusals) {
        expectError(
          await owner.post('/api/v1/media-recipes', { title: 'T', components }),
          422,
          'VALIDATION_ERROR',
          error,
        );
      }
      expectError(
        await owner.post('/api/v1/media-recipes', { title: 'T' }),
        422,
        'VALIDATION_ERROR',
        /^components: is required/,
      );
      expect(await recipeCount()).toBe(1);
    });

    it.each([
      ['title', 200, 1],
      ['notes', 500, 0],
      ['sterilization_notes', 500, 0],
      ['storage_notes', 500, 0],
      ['usage_notes', 500, 0],
    ])(
      'enforces the length of %s (%i max, %i min) on create and PATCH',
      async (field, max, min) => {
        const longest = await newRecipe(owner, { [field]: 'x'.repeat(max) });
        expect(longest[field]).toHaveLength(max);
        expectError(
          await owner.post('/api/v1/media-recipes', {
            title: 'T',
            components: MS_SALTS,
            [field]: 'y'.repeat(max + 1),
          }),
          422,
          'VALIDATION_ERROR',
          new RegExp(`^${field}:`),
        );
        if (min > 0) {
          expectError(
            await owner.post('/api/v1/media-recipes', { components: MS_SALTS, [field]: '' }),
            422,
            'VALIDATION_ERROR',
            new RegExp(`^${field}:`),
          );
        }
        expectError(
          await owner.patch(`/api/v1/media-recipes/${longest.id}`, {
            [field]: 'w'.repeat(max + 1),
          }),
          422,
          'VALIDATION_ERROR',
          new RegExp(`^${field}:`),
        );
        expect(dataOf(await owner.get(`/api/v1/media-recipes/${longest.id}`), 200)).toEqual(
          longest,
        );
      },
    );

    it.each([
      ['id', 64],
      ['name', 200],
      ['qty', 50],
      ['unit', 20],
      ['concentration', 50],
    ])('enforces the length of components[].%s (%i max)', async (field, max) => {
      const component = { name: 'A', qty: '1', [field]: 'c'.repeat(max) };
      expect((await newRecipe(owner, { components: [component] })).components[0][field]).toBe(
        'c'.repeat(max),
      );
      expectError(
        await owner.post('/api/v1/media-recipes', {
          title: 'T',
          components: [{ ...component, [field]: 'c'.repeat(max + 1) }],
        }),
        422,
        'VALIDATION_ERROR',
        new RegExp(`^components\\[0\\]\\.${field}:`),
      );
    });

    it('refuses values outside the enums and a body naming unknown fields', async () => {
      for (const [field, value] of [
        ['status', 'retired'],
        ['visibility', 'public'],
        ['origin', 'app'],
        ['is_public', 'yes'],
        ['version', 3],
        ['created_by', lab.owner.memberId],
      ] as const) {
        expectError(
          await owner.post('/api/v1/media-recipes', {
            title: 'T',
            components: MS_SALTS,
            [field]: value,
          }),
          422,
          'VALIDATION_ERROR',
          new RegExp(field),
        );
      }
      const recipe = await newRecipe(owner);
      expectError(
        await owner.patch(`/api/v1/media-recipes/${recipe.id}`, { origin: 'imported' }),
        422,
        'VALIDATION_ERROR',
        /^origin: cannot be changed here/,
      );
      expect(await recipeCount()).toBe(1);
    });

    it('accepts every documented status', async () => {
      for (const status of ['active', 'archived', 'deprecated', 'draft', 'published']) {
        expect((await newRecipe(owner, { status })).status).toBe(status);
      }
    });
  });

  describe('ph_target', () => {
    it.each([
      [0, 0],
      [14, 14],
      [5.8, 5.8],
      [5.756, 5.76],
      [5.754, 5.75],
      [7.005, 7.01],
      [1.005, 1.01],
      [-0, 0],
      [4.999, 5],
      [0.001, 0],
    ])('stores %d as %d (two decimals)', async (sent, stored) => {
      const recipe = await newRecipe(owner, { ph_target: sent });
      expect(recipe.ph_target).toBe(stored);
      expect(dataOf(await owner.get(`/api/v1/media-recipes/${recipe.id}`), 200).ph_target).toBe(
        stored,
      );
    });

    it('refuses values outside 0..14 and non-numbers on create and PATCH', async () => {
      const recipe = await newRecipe(owner, { ph_target: 5.7 });
      for (const value of [-0.01, 14.01, 100, '5.8', true]) {
        expectError(
          await owner.post('/api/v1/media-recipes', {
            title: 'T',
            components: MS_SALTS,
            ph_target: value,
          }),
          422,
          'VALIDATION_ERROR',
          /^ph_target:/,
        );
        expectError(
          await owner.patch(`/api/v1/media-recipes/${recipe.id}`, { ph_target: value }),
          422,
          'VALIDATION_ERROR',
          /^ph_target:/,
        );
      }
      expect(dataOf(await owner.get(`/api/v1/media-recipes/${recipe.id}`), 200)).toEqual(recipe);
      expect(await recipeCount()).toBe(1);
    });
  });

  describe('versions', () => {
    it.each([
      ['title', 'MS + BAP 2 mg/L'],
      ['notes', 'Adjusted for Alocasia'],
      ['ph_target', 5.6],
      ['sterilization_notes', 'Filter-sterilise BAP'],
      ['storage_notes', 'Dark'],
      ['usage_notes', 'Multiplication'],
      ['components', [{ name: 'MS basal salts', qty: '4.4', unit: 'g/L' }]],
    ])('a change of %s makes the next version and keeps the older one', async (field, value) => {
      const recipe = await newRecipe(owner, { ph_target: 5.8, notes: 'Base' });
      await tick();
      const edited = dataOf(
        await owner.patch(`/api/v1/media-recipes/${recipe.id}`, { [field]: value }),
        200,
      );
      expect(edited.version).toBe(2);
      expect(edited.updated_at > recipe.updated_at).toBe(true);
      const versions = await versionsOf(recipe.id);
      expect(versions.map((v) => v.version)).toEqual([1, 2]);
      expect(versions[0]).toMatchObject({
        title: recipe.title,
        notes: 'Base',
        ph_target_centi: 580,
        components: JSON.stringify(recipe.components),
        created_by: lab.owner.memberId,
      });
      expect(versions[1]).toMatchObject({
        title: edited.title,
        notes: edited.notes,
        ph_target_centi: Math.round(edited.ph_target * 100),
        sterilization_notes: edited.sterilization_notes,
        storage_notes: edited.storage_notes,
        usage_notes: edited.usage_notes,
        components: JSON.stringify(edited.components),
      });
    });

    it.each([
      ['status', 'archived'],
      ['visibility', 'team'],
      ['is_public', true],
    ])('a change of %s keeps the version', async (field, value) => {
      const recipe = await newRecipe(owner);
      await tick();
      const edited = dataOf(
        await owner.patch(`/api/v1/media-recipes/${recipe.id}`, { [field]: value }),
        200,
      );
      expect(edited).toMatchObject({ [field]: value, version: 1 });
      expect(edited.updated_at > recipe.updated_at).toBe(true);
      expect((await versionsOf(recipe.id)).map((v) => v.version)).toEqual([1]);
    });

    it('writes nothing for a PATCH that changes nothing, components sent again without ids included', async () => {
      const recipe = await newRecipe(owner, { ph_target: 5.8, notes: 'N' });
      await tick();
      for (const payload of [
        {},
        { title: recipe.title, notes: 'N', ph_target: 5.8, status: 'active', is_public: false },
        { ph_target: 5.801 },
        { components: MS_SALTS },
        { components: recipe.components },
      ]) {
        expect(
          dataOf(await owner.patch(`/api/v1/media-recipes/${recipe.id}`, payload), 200),
        ).toEqual(recipe);
      }
      expect(dataOf(await owner.get(`/api/v1/media-recipes/${recipe.id}`), 200)).toEqual(recipe);
      expect(await versionsOf(recipe.id)).toHaveLength(1);
    });

    it('replaces the whole component list, keeping sent ids', async () => {
      const recipe = await newRecipe(owner);
      const [salts, sucrose] = recipe.components;
      const edited = dataOf(
        await owner.patch(`/api/v1/media-recipes/${recipe.id}`, {
          components: [
            { ...sucrose, qty: '20' },
            { id: salts.id, name: salts.name, qty: salts.qty, unit: salts.unit },
            { name: 'BAP', qty: '2', unit: 'mg/L' },
          ],
        }),
        200,
      );
      expect(edited.version).toBe(2);
      expect(edited.components).toEqual([
        { ...sucrose, qty: '20' },
        salts,
        {
          id: expect.stringMatching(UUID),
          name: 'BAP',
          qty: '2',
          unit: 'mg/L',
          concentration: null,
        },
      ]);
      expect(edited.components.some((c: { name: string }) => c.name === 'Agar')).toBe(false);
      expectError(
        await owner.patch(`/api/v1/media-recipes/${recipe.id}`, { components: [] }),
        422,
        'VALIDATION_ERROR',
        /^components:/,
      );
      expectError(
        await owner.patch(`/api/v1/media-recipes/${recipe.id}`, {
          components: [
            { name: 'X', qty: '1' },
            { id: salts.id, name: 'Y', qty: '1' },
            { id: salts.id, name: 'Z', qty: '1' },
          ],
        }),
        422,
        'VALIDATION_ERROR',
        /^components\[2\]\.id:/,
      );
      expect(dataOf(await owner.get(`/api/v1/media-recipes/${recipe.id}`), 200)).toEqual(edited);
    });

    it('numbers concurrent edits of one recipe in turn, each version kept', async () => {
      const recipe = await newRecipe(owner);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          owner.patch(`/api/v1/media-recipes/${recipe.id}`, { title: `Edit ${i}` }),
        ),
      );
      const versions = results.map((res) => dataOf(res, 200).version as number);
      expect(versions.sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7]);
      const stored = await versionsOf(recipe.id);
      expect(stored.map((v) => v.version)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      const final = dataOf(await owner.get(`/api/v1/media-recipes/${recipe.id}`), 200);
      expect(final.version).toBe(7);
      expect(final.title).toBe(stored[6]!.title);
    });
  });

  describe('visibility and ownership', () => {
    it("hides another member's private recipe: not listed, 404 on GET and PATCH like a random id", async () => {
      const author = await member();
      const mine = await newRecipe(author, { title: 'Private' });
      for (const reader of [await member(), await member('manager'), owner]) {
        expect(dataOf(await reader.get('/api/v1/media-recipes'), 200)).toEqual([]);
        expectSameAnswer(
          await reader.get(`/api/v1/media-recipes/${mine.id}`),
          await reader.get(`/api/v1/media-recipes/${randomId()}`),
          404,
          'NOT_FOUND',
        );
        expectSameAnswer(
          await reader.patch(`/api/v1/media-recipes/${mine.id}`, { title: 'Taken' }),
          await reader.patch(`/api/v1/media-recipes/${randomId()}`, { title: 'Taken' }),
          404,
          'NOT_FOUND',
        );
      }
      expect(dataOf(await author.get(`/api/v1/media-recipes/${mine.id}`), 200)).toEqual(mine);
      expect(dataOf(await author.get('/api/v1/media-recipes'), 200)).toEqual([mine]);
    });

    it('shows team-shared, public and published recipes to every member', async () => {
      const author = await member();
      const shared = [
        await newRecipe(author, { title: 'Team', visibility: 'team' }),
        await newRecipe(author, { title: 'Public', is_public: true }),
        await newRecipe(author, { title: 'Published', status: 'published' }),
      ];
      await newRecipe(author, { title: 'Private draft', status: 'draft' });
      const reader = await member('viewer');
      expect(dataOf(await reader.get('/api/v1/media-recipes'), 200)).toEqual([...shared].reverse());
      for (const recipe of shared) {
        expect(dataOf(await reader.get(`/api/v1/media-recipes/${recipe.id}`), 200)).toEqual(recipe);
      }
      expect(await listAll(author, '/api/v1/media-recipes')).toHaveLength(4);
    });

    it('follows visibility changes: shared, then private again', async () => {
      const author = await member();
      const reader = await member();
      const recipe = await newRecipe(author);
      expectError(await reader.get(`/api/v1/media-recipes/${recipe.id}`), 404, 'NOT_FOUND');
      const shared = dataOf(
        await author.patch(`/api/v1/media-recipes/${recipe.id}`, { visibility: 'team' }),
        200,
      );
      expect(dataOf(await reader.get(`/api/v1/media-recipes/${recipe.id}`), 200)).toEqual(shared);
      await author.patch(`/api/v1/media-recipes/${recipe.id}`, { visibility: 'private' });
      expectError(await reader.get(`/api/v1/media-recipes/${recipe.id}`), 404, 'NOT_FOUND');
      expect(dataOf(await reader.get('/api/v1/media-recipes'), 200)).toEqual([]);
    });

    it('lets only the creator change a recipe others can see (403 MEDIA_RECIPE_NOT_OWNER), whatever their role', async () => {
      const author = await member();
      const recipe = await newRecipe(author, { visibility: 'team' });
      for (const other of [await member(), await member('manager'), owner]) {
        const res = await other.patch(`/api/v1/media-recipes/${recipe.id}`, {
          title: 'Mine now',
          status: 'archived',
        });
        expectError(res, 403, 'MEDIA_RECIPE_NOT_OWNER');
      }
      expect(dataOf(await author.get(`/api/v1/media-recipes/${recipe.id}`), 200)).toEqual(recipe);
      expect(await versionsOf(recipe.id)).toHaveLength(1);
      expect(
        dataOf(await author.patch(`/api/v1/media-recipes/${recipe.id}`, { title: 'Mine' }), 200)
          .version,
      ).toBe(2);
    });

    it('gives the record lookup a creator-only reference for a private recipe', async () => {
      const author = await lab.actor('member');
      const priv = await newRecipe(client(t, author));
      const team = await newRecipe(client(t, author), { visibility: 'team' });
      const records = createRecordLookup();
      const privateRef = await records.find(
        t.database.db,
        'media_recipe',
        lab.workspaceId,
        priv.id,
      );
      const teamRef = await records.find(t.database.db, 'media_recipe', lab.workspaceId, team.id);
      expect(privateRef).toEqual({
        id: priv.id,
        created_by: author.memberId,
        creatorOnly: true,
        title: 'MS + BAP',
      });
      expect(teamRef).toEqual({
        id: team.id,
        created_by: author.memberId,
        creatorOnly: false,
        title: 'MS + BAP',
      });
      expect(recordVisibleTo(privateRef!, author.memberId)).toBe(true);
      expect(recordVisibleTo(privateRef!, lab.owner.memberId)).toBe(false);
      expect(recordVisibleTo(privateRef!, null)).toBe(false);
      expect(recordVisibleTo(teamRef!, lab.owner.memberId)).toBe(true);
      const other = await createLab(t.database);
      expect(await records.find(t.database.db, 'media_recipe', other.workspaceId, team.id)).toBe(
        undefined,
      );
    });
  });

  describe('list', () => {
    it('lists newest first, filters by status, pages by cursor and offset', async () => {
      const made = [];
      for (let i = 0; i < 7; i++) {
        made.push(
          await newRecipe(owner, { title: `R${i}`, status: i % 2 === 0 ? 'active' : 'draft' }),
        );
      }
      const newest = [...made].reverse();
      expect(await listAll(owner, '/api/v1/media-recipes', 2)).toEqual(newest);
      expect(await listAll(owner, '/api/v1/media-recipes?status=draft', 2)).toEqual(
        newest.filter((r) => r.status === 'draft'),
      );
      expect(await listAll(owner, '/api/v1/media-recipes?status=archived')).toEqual([]);
      const offset = await owner.get('/api/v1/media-recipes?limit=3&offset=2');
      expect(dataOf(offset, 200)).toEqual(newest.slice(2, 5));
      expect(body(offset).meta.next_cursor).toEqual(expect.any(String));
      const last = await owner.get('/api/v1/media-recipes?limit=3&offset=5');
      expect(dataOf(last, 200)).toEqual(newest.slice(5));
      expect(body(last).meta).toEqual({ next_cursor: null });
      expect(dataOf(await owner.get('/api/v1/media-recipes?limit=5000'), 200)).toHaveLength(7);
    });

    it('keeps a fixed order for recipes created at the same moment', async () => {
      const rows = [];
      for (let i = 0; i < 5; i++) rows.push(await newRecipe(owner, { title: `Same ${i}` }));
      const at = '2026-11-01T08:00:00.000Z';
      await t.database.db
        .updateTable('media_recipes')
        .set({ created_at: at })
        .where('workspace_id', '=', lab.workspaceId)
        .execute();
      const ids = (await listAll(owner, '/api/v1/media-recipes', 2)).map((r) => r.id);
      expect(ids).toEqual(
        rows
          .map((r) => r.id as string)
          .sort()
          .reverse(),
      );
    });

    it('refuses a bad status, a cursor of other filters and both cursor and offset', async () => {
      for (let i = 0; i < 3; i++) await newRecipe(owner, { status: 'draft' });
      expectError(
        await owner.get('/api/v1/media-recipes?status=gone'),
        422,
        'VALIDATION_ERROR',
        /status/,
      );
      const cursor = body(await owner.get('/api/v1/media-recipes?status=draft&limit=1')).meta
        .next_cursor as string;
      expectError(
        await owner.get(`/api/v1/media-recipes?cursor=${encodeURIComponent(cursor)}`),
        422,
        'INVALID_CURSOR',
      );
      expectError(
        await owner.get(
          `/api/v1/media-recipes?status=draft&offset=1&cursor=${encodeURIComponent(cursor)}`,
        ),
        422,
        'VALIDATION_ERROR',
      );
      expect(
        dataOf(
          await owner.get(
            `/api/v1/media-recipes?status=draft&limit=5&cursor=${encodeURIComponent(cursor)}`,
          ),
          200,
        ),
      ).toHaveLength(2);
    });
  });

  describe('across workspaces, roles and retries', () => {
    it("answers another workspace's recipe exactly as a random id, and never lists it", async () => {
      const other = await createLab(t.database);
      const foreign = await newRecipe(client(t, other.owner), {
        visibility: 'team',
        status: 'published',
      });
      expectSameAnswer(
        await owner.get(`/api/v1/media-recipes/${foreign.id}`),
        await owner.get(`/api/v1/media-recipes/${randomId()}`),
        404,
        'NOT_FOUND',
      );
      expectSameAnswer(
        await owner.patch(`/api/v1/media-recipes/${foreign.id}`, { title: 'x' }),
        await owner.patch(`/api/v1/media-recipes/${randomId()}`, { title: 'x' }),
        404,
        'NOT_FOUND',
      );
      expect(dataOf(await owner.get('/api/v1/media-recipes'), 200)).toEqual([]);
      expect(
        dataOf(await client(t, other.owner).get(`/api/v1/media-recipes/${foreign.id}`), 200),
      ).toEqual(foreign);
    });

    it('answers a malformed path id with the same 404 as an unknown one', async () => {
      for (const bad of ['not-a-uuid', '123', '00000000-0000-0000-0000-00000000000g']) {
        expectSameAnswer(
          await owner.get(`/api/v1/media-recipes/${bad}`),
          await owner.get(`/api/v1/media-recipes/${randomId()}`),
          404,
          'NOT_FOUND',
        );
        expectSameAnswer(
          await owner.patch(`/api/v1/media-recipes/${bad}`, { title: 'x' }),
          await owner.patch(`/api/v1/media-recipes/${randomId()}`, { title: 'x' }),
          404,
          'NOT_FOUND',
        );
      }
    });

    it.each(['viewer', 'guest'] as const)(
      'refuses writes of a %s with 403 FORBIDDEN and changes nothing, but lets it read',
      async (role) => {
        const recipe = await newRecipe(owner, { visibility: 'team' });
        const reader = await member(role);
        for (const res of [
          await reader.post('/api/v1/media-recipes', { title: 'T', components: MS_SALTS }),
          await reader.patch(`/api/v1/media-recipes/${recipe.id}`, { title: 'Changed' }),
        ]) {
          expectError(res, 403, 'FORBIDDEN', /member role/);
        }
        expect(dataOf(await reader.get('/api/v1/media-recipes'), 200)).toEqual([recipe]);
        expect(dataOf(await owner.get(`/api/v1/media-recipes/${recipe.id}`), 200)).toEqual(recipe);
        expect(await recipeCount()).toBe(1);
      },
    );

    it('refuses a key without the scope, naming it, and a device token', async () => {
      const recipe = await newRecipe(owner);
      const narrow = client(t, await lab.actor('owner', { scopes: ['read:media_recipes'] }));
      expect((await narrow.get('/api/v1/media-recipes')).statusCode).toBe(200);
      expectError(
        await narrow.post('/api/v1/media-recipes', { title: 'T', components: MS_SALTS }),
        403,
        'FORBIDDEN',
        /write:media_recipes/,
      );
      expectError(
        await narrow.patch(`/api/v1/media-recipes/${recipe.id}`, { title: 'T2' }),
        403,
        'FORBIDDEN',
        /write:media_recipes/,
      );
      const blind = client(t, await lab.actor('owner', { scopes: ['write:media_recipes'] }));
      expectError(await blind.get('/api/v1/media-recipes'), 403, 'FORBIDDEN', /read:media_recipes/);
      const device = client(t, await lab.deviceToken());
      expectError(await device.get('/api/v1/media-recipes'), 403, 'DEVICE_TOKEN_NOT_ACCEPTED');
      expect(dataOf(await owner.get(`/api/v1/media-recipes/${recipe.id}`), 200)).toEqual(recipe);
      expect(await recipeCount()).toBe(1);
    });

    it('replays a create and an update sent again with the same Idempotency-Key', async () => {
      const key = { 'idempotency-key': 'recipe-create-0001' };
      const payload = { title: 'MS', components: [{ name: 'MS basal salts', qty: '4.4' }] };
      const first = await owner.post('/api/v1/media-recipes', payload, key);
      const again = await owner.post('/api/v1/media-recipes', payload, key);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replay']).toBe('true');
      expect(body(again)).toEqual(body(first));
      expect(await recipeCount()).toBe(1);
      expectError(
        await owner.post('/api/v1/media-recipes', { ...payload, title: 'Other' }, key),
        422,
        'VALIDATION_ERROR',
      );

      const id = body(first).data.id as string;
      const patchKey = { 'idempotency-key': 'recipe-update-0001' };
      const edit = await owner.patch(`/api/v1/media-recipes/${id}`, { title: 'MS v2' }, patchKey);
      const replay = await owner.patch(`/api/v1/media-recipes/${id}`, { title: 'MS v2' }, patchKey);
      expect(replay.headers['idempotent-replay']).toBe('true');
      expect(body(replay)).toEqual(body(edit));
      expect(body(edit).data.version).toBe(2);
      expect(await versionsOf(id)).toHaveLength(2);
    });
  });
});
