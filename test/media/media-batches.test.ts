import { expect, it } from 'vitest';
import { describeOnDatabases, labSuite, otherLab } from '../support/suite.js';
import { body } from '../support/harness.js';
import {
  client,
  dataOf,
  expectError,
  GENEROUS_LIMITS,
  listAll,
  newExplant,
  randomId,
} from '../support/helpers.js';
import { lotOf, newBatch, newRecipe, newStock, snapshot } from './support.js';

describeOnDatabases('Media batches', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });
  const their = otherLab(t);

  /** An equipment event of a lab (an autoclave run), recorded by its owner. */
  async function autoclaveRun(c = owner): Promise<string> {
    const autoclave = dataOf(
      await c.post('/api/v1/equipment', {
        name: 'Autoclave 1',
        category: 'autoclave_pressure_cooker',
      }),
      201,
    );
    const event = dataOf(
      await c.post(`/api/v1/equipment/${autoclave.id}/events`, {
        kind: 'used',
        subject_type: 'media_batch',
        subject_id: randomId(),
      }),
      201,
    );
    return event.id as string;
  }

  it('makes a batch from a recipe at its current version, prepared by the caller, and reads it back', async () => {
    const recipe = await newRecipe(owner);
    // A change of formulation makes version 2.
    dataOf(await owner.patch(`/api/v1/media-recipes/${recipe.id}`, { notes: 'More agar' }), 200);
    const autoclave = await autoclaveRun();
    const batch = await newBatch(owner, {
      recipe_id: recipe.id,
      volume_ml: 2500,
      ph_measured: 5.755,
      prepared_at: '2026-11-20T09:00:00+01:00',
      autoclave_event_id: autoclave,
      expires_at: '2027-01-20',
      notes: 'Rack 3',
    });
    expect(batch).toEqual({
      id: expect.any(String),
      recipe_id: recipe.id,
      recipe_version: 2,
      volume_ml: 2500,
      ph_measured: 5.76,
      prepared_by: lab.owner.memberId,
      prepared_at: '2026-11-20T08:00:00.000Z',
      autoclave_event_id: autoclave,
      expires_at: '2027-01-20T00:00:00.000Z',
      status: 'ready',
      components: [],
      notes: 'Rack 3',
      created_by: lab.owner.memberId,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(dataOf(await owner.get(`/api/v1/media-batches/${batch.id}`), 200)).toEqual(batch);
    // An older version may be named.
    const older = await newBatch(owner, { recipe_id: recipe.id, recipe_version: 1 });
    expect(older.recipe_version).toBe(1);
  });

  it('lists batches newest first with filters and cursor paging', async () => {
    const first = await newRecipe(owner, { title: 'MS' });
    const second = await newRecipe(owner, { title: 'WPM' });
    const colleague = await lab.actor('member');
    const made = [
      await newBatch(owner, { recipe_id: first.id }),
      await newBatch(owner, { recipe_id: second.id, status: 'used_up' }),
      await newBatch(owner, { recipe_id: first.id, prepared_by: colleague.memberId }),
    ];
    const ids = (items: { id: string }[]) => items.map((b) => b.id);
    expect(ids(await listAll(owner, '/api/v1/media-batches', 1))).toEqual(ids([...made].reverse()));
    expect(ids(await listAll(owner, `/api/v1/media-batches?recipe_id=${first.id}`))).toEqual([
      made[2]!.id,
      made[0]!.id,
    ]);
    expect(ids(await listAll(owner, '/api/v1/media-batches?status=used_up'))).toEqual([
      made[1]!.id,
    ]);
    expect(
      ids(await listAll(owner, `/api/v1/media-batches?prepared_by=${colleague.memberId}`)),
    ).toEqual([made[2]!.id]);
    expectError(await owner.get('/api/v1/media-batches?status=fresh'), 422, 'VALIDATION_ERROR');
  });

  it('refuses a recipe the caller cannot see, a version it never had, a stranger and a foreign autoclave run', async () => {
    const colleague = client(t, await lab.actor('member'));
    const privateRecipe = await newRecipe(colleague);
    const recipe = await newRecipe(owner);
    const theirRecipe = await newRecipe(their.owner);
    const theirRun = await autoclaveRun(their.owner);
    const before = await snapshot(t.database, lab.workspaceId);
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ recipe_id: privateRecipe.id }, /^recipe_id: no media recipe/],
      [{ recipe_id: theirRecipe.id }, /^recipe_id: no media recipe/],
      [{ recipe_id: randomId() }, /^recipe_id: no media recipe/],
      [
        { recipe_id: recipe.id, recipe_version: 2 },
        /^recipe_version: the recipe has versions 1 to 1/,
      ],
      [
        { recipe_id: recipe.id, prepared_by: their.lab.owner.memberId },
        /^prepared_by: no active member/,
      ],
      [
        { recipe_id: recipe.id, autoclave_event_id: theirRun },
        /^autoclave_event_id: no equipment event/,
      ],
      [{ recipe_id: recipe.id, volume_ml: 0 }, /volume_ml/],
      [{ recipe_id: recipe.id, ph_measured: 15 }, /ph_measured/],
    ];
    for (const [fields, error] of refusals) {
      const res = await owner.post('/api/v1/media-batches', { volume_ml: 500, ...fields });
      expectError(res, 422, 'VALIDATION_ERROR', error);
    }
    expect(await snapshot(t.database, lab.workspaceId)).toEqual(before);
    // The colleague may use their own private recipe.
    expect((await newBatch(colleague, { recipe_id: privateRecipe.id })).recipe_id).toBe(
      privateRecipe.id,
    );
  });

  it('updates a batch in part, and answers 404 for one of another lab', async () => {
    const recipe = await newRecipe(owner);
    const batch = await newBatch(owner, { recipe_id: recipe.id });
    const colleague = client(t, await lab.actor('member'));
    const run = await autoclaveRun();
    const updated = dataOf(
      await colleague.patch(`/api/v1/media-batches/${batch.id}`, {
        status: 'used_up',
        ph_measured: 5.8,
        autoclave_event_id: run,
      }),
      200,
    );
    expect(updated).toMatchObject({
      status: 'used_up',
      ph_measured: 5.8,
      autoclave_event_id: run,
      volume_ml: 1000,
      recipe_id: recipe.id,
    });
    expect(dataOf(await owner.get(`/api/v1/media-batches/${batch.id}`), 200)).toEqual(updated);
    // A record read back is accepted as a PATCH; its components may not change.
    expect(dataOf(await owner.patch(`/api/v1/media-batches/${batch.id}`, updated), 200)).toEqual(
      updated,
    );
    expectError(
      await owner.patch(`/api/v1/media-batches/${batch.id}`, {
        components: [{ name: 'Agar', amount: 1, unit: 'g' }],
      }),
      422,
      'VALIDATION_ERROR',
    );
    expectError(
      await owner.patch(`/api/v1/media-batches/${batch.id}`, { status: 'fresh' }),
      422,
      'VALIDATION_ERROR',
    );
    expectError(
      await their.owner.patch(`/api/v1/media-batches/${batch.id}`, { status: 'discarded' }),
      404,
      'NOT_FOUND',
    );
    expectError(await their.owner.get(`/api/v1/media-batches/${batch.id}`), 404, 'NOT_FOUND');
    expect(dataOf(await owner.get(`/api/v1/media-batches/${batch.id}`), 200).status).toBe(
      'used_up',
    );
  });

  it('takes each component from its lot, converting units, and refuses what cannot be taken', async () => {
    const recipe = await newRecipe(owner);
    const { lot: agar } = await newStock(owner);
    const { lot: sucrose } = await newStock(
      owner,
      { name: 'Sucrose', category: 'chemical', unit: 'kg' },
      { lot_number: 'S-9', quantity: 2 },
    );
    const batch = await newBatch(owner, {
      recipe_id: recipe.id,
      components: [
        { name: 'Agar', lot_id: agar.id, amount: 7500, unit: 'mg' },
        { name: 'Agar (top-up)', lot_id: agar.id, amount: 0.5, unit: 'g' },
        { name: 'Sucrose', lot_id: sucrose.id, amount: 30, unit: 'g' },
        { name: 'Water', amount: 1, unit: 'L' },
      ],
    });
    expect(batch.components).toEqual([
      { name: 'Agar', lot_id: agar.id, amount: 7500, unit: 'mg' },
      { name: 'Agar (top-up)', lot_id: agar.id, amount: 0.5, unit: 'g' },
      { name: 'Sucrose', lot_id: sucrose.id, amount: 30, unit: 'g' },
      { name: 'Water', lot_id: null, amount: 1, unit: 'L' },
    ]);
    expect((await lotOf(owner, agar)).quantity).toBe(492);
    expect((await lotOf(owner, sucrose)).quantity).toBe(1.97);

    const { lot: theirLot } = await newStock(their.owner);
    const before = await snapshot(t.database, lab.workspaceId);
    const refusals: [unknown[], RegExp][] = [
      [
        [{ name: 'Agar', lot_id: agar.id, amount: 5, unit: 'mL' }],
        /^components\[0\]\.unit: "mL" cannot be converted to "g"/,
      ],
      [
        [{ name: 'Agar', lot_id: agar.id, amount: 5, unit: 'scoops' }],
        /^components\[0\]\.unit: "scoops" cannot be converted/,
      ],
      [
        [
          { name: 'Agar', lot_id: agar.id, amount: 400, unit: 'g' },
          { name: 'More agar', lot_id: agar.id, amount: 100, unit: 'g' },
        ],
        /^components\[1\]\.amount: lot AG-1 holds 492 g; 500 g would be taken from it/,
      ],
      [
        [{ name: 'Agar', lot_id: theirLot.id, amount: 1, unit: 'g' }],
        /^components\[0\]\.lot_id: no stock lot/,
      ],
      [[{ name: 'Agar', lot_id: agar.id, amount: 0, unit: 'g' }], /amount/],
    ];
    for (const [components, error] of refusals) {
      const res = await owner.post('/api/v1/media-batches', {
        recipe_id: recipe.id,
        volume_ml: 1000,
        components,
      });
      expectError(res, 422, 'VALIDATION_ERROR', error);
    }
    expect(await snapshot(t.database, lab.workspaceId)).toEqual(before);
    expect((await lotOf(their.owner, theirLot)).quantity).toBe(500);
  });

  it('is bench work: a member makes batches, a viewer only reads them', async () => {
    const recipe = await newRecipe(owner, { visibility: 'team' });
    const member = client(t, await lab.actor('member'));
    const viewer = client(t, await lab.actor('viewer'));
    const batch = await newBatch(member, { recipe_id: recipe.id });
    expect(dataOf(await viewer.get(`/api/v1/media-batches/${batch.id}`), 200).id).toBe(batch.id);
    expectError(
      await viewer.post('/api/v1/media-batches', { recipe_id: recipe.id, volume_ml: 10 }),
      403,
      'FORBIDDEN',
    );
    const readOnly = client(t, await lab.actor('member', { scopes: ['read:media_batches'] }));
    expectError(
      await readOnly.post('/api/v1/media-batches', { recipe_id: recipe.id, volume_ml: 10 }),
      403,
      'FORBIDDEN',
    );
  });
});

describeOnDatabases('Cultures on media batches', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });
  const their = otherLab(t);

  it('a transfer, a split, a merge and a new explant name the batch; the batch lists the cultures on it', async () => {
    const recipe = await newRecipe(owner);
    const batch = await newBatch(owner, { recipe_id: recipe.id });
    const next = await newBatch(owner, { recipe_id: recipe.id });

    const started = await newExplant(owner, {
      label: 'ON-1',
      initial_count: 6,
      media_batch_id: batch.id,
    });
    expect(started.media_batch_id).toBe(batch.id);
    // An explant put on no batch answers as before: no media_batch_id at all.
    const plain = await newExplant(owner, { label: 'ON-2', initial_count: 4 });
    expect('media_batch_id' in plain).toBe(false);

    const transfer = dataOf(
      await owner.post('/api/v1/transfers', { explant_id: plain.id, media_batch_id: batch.id }),
      201,
    );
    expect(transfer.media_batch_id).toBe(batch.id);
    expect(dataOf(await owner.get(`/api/v1/explants/${plain.id}`), 200).media_batch_id).toBe(
      batch.id,
    );
    const [listed] = await listAll(owner, `/api/v1/transfers?explant_id=${plain.id}`);
    expect(listed).toEqual(transfer);
    const unnamed = dataOf(await owner.post('/api/v1/transfers', { explant_id: started.id }), 201);
    expect('media_batch_id' in unnamed).toBe(false);
    // A transfer that names no batch leaves the explant on its batch.
    expect(dataOf(await owner.get(`/api/v1/explants/${started.id}`), 200).media_batch_id).toBe(
      batch.id,
    );

    const split = dataOf(
      await owner.post(`/api/v1/explants/${started.id}/split`, {
        daughters: [{ vessel_count: 2, media_batch_id: next.id }, { vessel_count: 1 }],
      }),
      201,
    );
    const [onNext, unnamedDaughter] = split.daughters;
    expect(onNext.media_batch_id).toBe(next.id);
    expect('media_batch_id' in unnamedDaughter).toBe(false);
    const lineage = dataOf(await owner.get(`/api/v1/explants/${started.id}/lineage`), 200);
    expect(
      lineage.edges.map((e: { child_id: string; media_batch_id: string | null }) => [
        e.child_id,
        e.media_batch_id,
      ]),
    ).toEqual([
      [onNext.id, next.id],
      [unnamedDaughter.id, null],
    ]);

    const pooled = dataOf(
      await owner.post('/api/v1/explants/merge', {
        explant_ids: [unnamedDaughter.id],
        label: 'POOL',
        media_batch_id: next.id,
      }),
      201,
    );
    expect(pooled.child.media_batch_id).toBe(next.id);
    const into = await newExplant(owner, { label: 'INTO', initial_count: 1 });
    const pooledInto = dataOf(
      await owner.post('/api/v1/explants/merge', {
        explant_ids: [pooled.child.id],
        into_explant_id: into.id,
        media_batch_id: batch.id,
      }),
      201,
    );
    expect(pooledInto.child.media_batch_id).toBe(batch.id);
    const merged = dataOf(
      await owner.get(`/api/v1/explants/${into.id}/lineage?direction=ancestors&depth=1`),
      200,
    );
    expect(merged.edges.map((e: { media_batch_id: string | null }) => e.media_batch_id)).toEqual([
      batch.id,
    ]);

    const on = async (id: string) =>
      (await listAll(owner, `/api/v1/media-batches/${id}/explants`, 1)).map((e) => e.id);
    expect(await on(batch.id)).toEqual([into.id, plain.id, started.id]);
    expect(await on(next.id)).toEqual([pooled.child.id, onNext.id]);
    // The list says where each culture is now.
    const item = (await listAll(owner, `/api/v1/media-batches/${next.id}/explants`)).find(
      (e) => e.id === onNext.id,
    );
    expect(item).toMatchObject({ id: onNext.id, label: onNext.label, media_batch_id: next.id });
    expectError(
      await their.owner.get(`/api/v1/media-batches/${batch.id}/explants`),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses an expired, discarded or foreign batch on a transfer, a split, a merge or a new explant, and writes nothing', async () => {
    const recipe = await newRecipe(owner);
    const discarded = await newBatch(owner, { recipe_id: recipe.id, status: 'discarded' });
    const expired = await newBatch(owner, { recipe_id: recipe.id, status: 'expired' });
    const lapsed = await newBatch(owner, { recipe_id: recipe.id, expires_at: '2020-01-01' });
    const theirs = await newBatch(their.owner, {
      recipe_id: (await newRecipe(their.owner)).id,
    });
    const explant = await newExplant(owner, { initial_count: 8 });
    const other = await newExplant(owner, { initial_count: 2 });
    const used = await newBatch(owner, { recipe_id: recipe.id, status: 'used_up' });
    const before = await snapshot(t.database, lab.workspaceId);
    const cases: [string, RegExp][] = [
      [discarded.id, /the media batch is discarded/],
      [expired.id, /the media batch is expired/],
      [lapsed.id, /the media batch expired at 2020-01-01T00:00:00.000Z/],
      [theirs.id, /no media batch with this id in the workspace/],
      [randomId(), /no media batch with this id in the workspace/],
    ];
    for (const [id, error] of cases) {
      const transfer = await owner.post('/api/v1/transfers', {
        explant_id: explant.id,
        vessel_count: 7,
        media_batch_id: id,
      });
      expectError(
        transfer,
        422,
        'VALIDATION_ERROR',
        new RegExp(`^media_batch_id: ${error.source}`),
      );
      const split = await owner.post(`/api/v1/explants/${explant.id}/split`, {
        daughters: [{ vessel_count: 1 }, { vessel_count: 2, media_batch_id: id }],
      });
      expectError(
        split,
        422,
        'VALIDATION_ERROR',
        new RegExp(`^daughters\\[1\\]\\.media_batch_id: ${error.source}`),
      );
      for (const pool of [{ label: 'P' }, { into_explant_id: other.id }]) {
        const merge = await owner.post('/api/v1/explants/merge', {
          explant_ids: [explant.id],
          ...pool,
          media_batch_id: id,
        });
        expectError(merge, 422, 'VALIDATION_ERROR', new RegExp(`^media_batch_id: ${error.source}`));
      }
      const created = await owner.post('/api/v1/explants', { label: 'X', media_batch_id: id });
      expectError(created, 422, 'VALIDATION_ERROR', new RegExp(`^media_batch_id: ${error.source}`));
      expect(body(created).data).toBeNull();
    }
    expect(await snapshot(t.database, lab.workspaceId)).toEqual(before);
    // A used-up batch may still be named (a culture recorded after the batch ran out).
    dataOf(
      await owner.post('/api/v1/transfers', { explant_id: explant.id, media_batch_id: used.id }),
      201,
    );
  });
});
