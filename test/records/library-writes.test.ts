import { expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { importLabData } from '../../src/modules/import/import.service.js';
import { createRecordLookup } from '../../src/modules/index.js';
import { body, createLab } from '../support/harness.js';
import { client, dataOf, expectError, listAll } from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import { importRefusal as refuseImport } from '../support/helpers.js';

const step = (n: number, extra: Record<string, unknown> = {}) => ({
  id: `step-${n}`,
  instruction: `Instruction ${n}`,
  ...extra,
});

/**
 * The equipment library and SOPs written through the API (managers and up), with
 * the import file's fields and rules; SOP versions from draft to in force, runs
 * pinned to theirs. On both databases.
 */
describeOnDatabases('Equipment and SOP writes', (target) => {
  const { t, lab, owner } = labSuite(target);

  const importRefusal = (file: unknown) => refuseImport(t.database, lab.workspaceId, file);

  it('adds, edits and retires equipment; a name other equipment has is 409', async () => {
    const hood = dataOf(
      await owner.post('/api/v1/equipment', {
        name: 'Hood 1',
        category: 'laminar_flow_hood',
        manufacturer: 'Esco',
        purchase_date: '2025-03-01',
        vendor_url: 'https://example.org/hood',
      }),
      201,
    );
    expect(hood).toMatchObject({
      name: 'Hood 1',
      category: 'laminar_flow_hood',
      status: 'active',
      manufacturer: 'Esco',
      model: null,
      purchase_date: '2025-03-01',
      last_calibrated_at: null,
    });
    const edited = dataOf(
      await owner.patch(`/api/v1/equipment/${hood.id}`, { model: 'AC2', manufacturer: null }),
      200,
    );
    expect(edited).toMatchObject({ model: 'AC2', manufacturer: null, name: 'Hood 1' });
    expect(edited.updated_at >= hood.updated_at).toBe(true);
    const retired = dataOf(
      await owner.patch(`/api/v1/equipment/${hood.id}`, { status: 'archived' }),
      200,
    );
    expect(retired.status).toBe('archived');
    expect((await listAll(owner, '/api/v1/equipment?status=archived')).map((e) => e.id)).toEqual([
      hood.id,
    ]);
    expect(dataOf(await owner.get(`/api/v1/equipment/${hood.id}`), 200)).toEqual(retired);

    const scale = dataOf(
      await owner.post('/api/v1/equipment', { name: 'Scale', category: 'balance_scale' }),
      201,
    );
    expectError(
      await owner.post('/api/v1/equipment', { name: 'Hood 1', category: 'other' }),
      409,
      'DUPLICATE_ENTRY',
      /name: the lab already has equipment named "Hood 1"/,
    );
    expectError(
      await owner.patch(`/api/v1/equipment/${scale.id}`, { name: 'Hood 1' }),
      409,
      'DUPLICATE_ENTRY',
    );
    // An import matches the API's equipment on its name, updating it.
    await inTransaction(t.database.db, (trx) =>
      importLabData(
        trx,
        lab.workspaceId,
        { equipment: [{ name: 'Scale', category: 'balance_scale', model: 'XS' }] },
        createRecordLookup(),
      ),
    );
    expect(dataOf(await owner.get(`/api/v1/equipment/${scale.id}`), 200).model).toBe('XS');
    expect(await listAll(owner, '/api/v1/equipment')).toHaveLength(2);
  });

  it('refuses equipment the import would refuse, with the same problem; 404 for another lab', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: 'x', category: 'toaster' }, /category: /],
      [{ name: '', category: 'other' }, /name: /],
      [{ name: 'x', category: 'other', vendor_url: 'ftp://x' }, /vendor_url: /],
      [{ name: 'x', category: 'other', purchase_date: '2025-13-01' }, /purchase_date: /],
      [{ name: 'x', category: 'other', colour: 'red' }, /colour/],
    ];
    for (const [item, problem] of cases) {
      expectError(await owner.post('/api/v1/equipment', item), 422, 'VALIDATION_ERROR', problem);
      expect(await importRefusal({ equipment: [item] })).toMatch(problem);
    }
    expect(await listAll(owner, '/api/v1/equipment')).toEqual([]);
    const other = await createLab(t.database);
    const theirs = dataOf(
      await client(t, other.owner).post('/api/v1/equipment', { name: 'x', category: 'other' }),
      201,
    );
    expectError(
      await owner.patch(`/api/v1/equipment/${theirs.id}`, { model: 'y' }),
      404,
      'NOT_FOUND',
    );
  });

  it('needs a manager with write:equipment or write:sops; members and guests read', async () => {
    const member = client(t, await lab.actor('member'));
    expectError(
      await member.post('/api/v1/equipment', { name: 'x', category: 'other' }),
      403,
      'FORBIDDEN',
      /manager/,
    );
    expectError(await member.post('/api/v1/sops', { title: 'x' }), 403, 'FORBIDDEN', /manager/);
    const narrow = client(t, await lab.actor('admin', { scopes: ['write:equipment'] }));
    expectError(await narrow.post('/api/v1/sops', { title: 'x' }), 403, 'FORBIDDEN', /write:sops/);
    dataOf(await narrow.post('/api/v1/equipment', { name: 'x', category: 'other' }), 201);
    const manager = client(t, await lab.actor('manager'));
    const sop = dataOf(await manager.post('/api/v1/sops', { title: 'Subculture' }), 201);
    const guest = client(t, await lab.actor('guest'));
    expect(dataOf(await guest.get(`/api/v1/sops/${sop.id}`), 200).title).toBe('Subculture');
    expect(await listAll(guest, `/api/v1/sops/${sop.id}/versions`)).toEqual([]);
  });

  it('takes an SOP from draft to new version to effective; runs stay pinned to theirs', async () => {
    const created = dataOf(
      await owner.post('/api/v1/sops', {
        title: 'Subculture',
        category: 'tissue-culture',
        tags: ['bench'],
        steps: [
          step(1, { safety_warning: 'Flame the tools', estimated_minutes: 5 }),
          step(2, { measurements: [{ metric: 'pH', unit: 'pH', min: 5.6, max: 5.9 }] }),
        ],
      }),
      201,
    );
    expect(created).toMatchObject({
      title: 'Subculture',
      status: 'active',
      tags: ['bench'],
      currentVersion: 1,
      version: null,
    });
    const [draft] = await listAll(owner, `/api/v1/sops/${created.id}/versions`);
    expect(draft).toMatchObject({ version: 1, lifecycleStatus: 'draft', effectiveAt: null });
    expect(draft.steps[0]).toEqual({
      id: 'step-1',
      instruction: 'Instruction 1',
      notes: null,
      safetyWarning: 'Flame the tools',
      estimatedMinutes: 5,
      measurements: [],
    });
    // No version in force: no run yet.
    expectError(
      await owner.post('/api/v1/sop-runs', { sop_id: created.id }),
      409,
      'SOP_RUN_NOT_EFFECTIVE',
    );
    // A draft is edited in place.
    const edited = dataOf(
      await owner.patch(`/api/v1/sops/${created.id}/versions/${draft.id}`, {
        title: 'First cut',
        steps: [step(1), step(2), step(3)],
      }),
      200,
    );
    expect(edited.steps.map((s: { id: string }) => s.id)).toEqual(['step-1', 'step-2', 'step-3']);
    const v1 = dataOf(
      await owner.post(`/api/v1/sops/${created.id}/versions/${draft.id}/make-effective`, {}),
      200,
    );
    expect(v1).toMatchObject({ version: 1, lifecycleStatus: 'effective', title: 'First cut' });
    expect(v1.effectiveAt).toEqual(expect.any(String));
    // In force: no more edits.
    expectError(
      await owner.patch(`/api/v1/sops/${created.id}/versions/${draft.id}`, { title: 'x' }),
      409,
      'CONFLICT',
      /only a draft can be edited/,
    );
    const run = dataOf(await owner.post('/api/v1/sop-runs', { sop_id: created.id }), 201);
    expect(run).toMatchObject({ version: 1, versionId: draft.id, stepCount: 3 });

    const v2 = dataOf(
      await owner.post(`/api/v1/sops/${created.id}/versions`, {
        title: 'Shorter',
        steps: [step(1), step(4)],
      }),
      201,
    );
    expect(v2).toMatchObject({ version: 2, lifecycleStatus: 'draft' });
    // Drafting changes nothing for new runs until it is made effective.
    expect(dataOf(await owner.get(`/api/v1/sops/${created.id}`), 200).version.id).toBe(draft.id);
    dataOf(
      await owner.post(`/api/v1/sops/${created.id}/versions/${v2.id}/make-effective`, {}),
      200,
    );
    const sop = dataOf(await owner.get(`/api/v1/sops/${created.id}`), 200);
    expect(sop).toMatchObject({ currentVersion: 2 });
    expect(sop.version).toMatchObject({ id: v2.id, version: 2, lifecycleStatus: 'effective' });
    const versions = await listAll(owner, `/api/v1/sops/${created.id}/versions`);
    expect(versions.map((v) => [v.version, v.lifecycleStatus])).toEqual([
      [2, 'effective'],
      [1, 'superseded'],
    ]);
    // The first run stays on version 1 and its steps; a new one follows version 2.
    const pinned = dataOf(await owner.get(`/api/v1/sop-runs/${run.id}`), 200);
    expect(pinned).toMatchObject({ version: 1, versionId: draft.id, stepCount: 3 });
    dataOf(
      await owner.post(`/api/v1/sop-runs/${run.id}/steps/step-3/events`, {
        event_type: 'confirmed',
      }),
      201,
    );
    const next = dataOf(await owner.post('/api/v1/sop-runs', { sop_id: created.id }), 201);
    expect(next).toMatchObject({ version: 2, versionId: v2.id, stepCount: 2 });
    // Bringing back a superseded version supersedes the one in force.
    dataOf(
      await owner.post(`/api/v1/sops/${created.id}/versions/${draft.id}/make-effective`, {}),
      200,
    );
    expect(dataOf(await owner.get(`/api/v1/sops/${created.id}`), 200).version.id).toBe(draft.id);
  });

  it('edits an SOP and refuses a taken title (409), an empty version (422) and bad steps as the import does', async () => {
    const a = dataOf(await owner.post('/api/v1/sops', { title: 'Autoclave' }), 201);
    dataOf(await owner.post('/api/v1/sops', { title: 'Media prep' }), 201);
    const edited = dataOf(
      await owner.patch(`/api/v1/sops/${a.id}`, { level: 'expert', status: 'archived' }),
      200,
    );
    expect(edited).toMatchObject({ title: 'Autoclave', level: 'expert', status: 'archived' });
    expectError(
      await owner.patch(`/api/v1/sops/${a.id}`, { title: 'Media prep' }),
      409,
      'DUPLICATE_ENTRY',
      /title: the lab already has an SOP titled "Media prep"/,
    );
    expectError(await owner.post('/api/v1/sops', { title: 'Autoclave' }), 409, 'DUPLICATE_ENTRY');
    const empty = dataOf(await owner.post(`/api/v1/sops/${a.id}/versions`, { steps: [] }), 201);
    expectError(
      await owner.post(`/api/v1/sops/${a.id}/versions/${empty.id}/make-effective`, {}),
      422,
      'VALIDATION_ERROR',
      /has no steps/,
    );
    const cases: [unknown[], RegExp][] = [
      [[step(1), step(1)], /steps\[1\]\.id: duplicates .*steps\[0\]\.id/],
      [
        [step(1, { measurements: [{ metric: 'pH', unit: 'pH', min: 6, max: 5 }] })],
        /steps\[0\]\.measurements\[0\]\.min: must not be greater than max/,
      ],
      [[step(1, { instruction: '' })], /steps\[0\]\.instruction: /],
      [[{ ...step(1), colour: 'red' }], /colour/],
    ];
    for (const [steps, problem] of cases) {
      const res = await owner.post(`/api/v1/sops/${a.id}/versions`, { steps });
      expectError(res, 422, 'VALIDATION_ERROR', problem);
      expect(
        await importRefusal({
          sops: [{ title: 'Other', versions: [{ version: 1, lifecycle_status: 'draft', steps }] }],
        }),
      ).toMatch(problem);
    }
    expect(await listAll(owner, `/api/v1/sops/${a.id}/versions`)).toHaveLength(1);
    // Another SOP's version, or another lab's SOP, answers 404.
    const b = dataOf(await owner.post('/api/v1/sops', { title: 'B', steps: [step(1)] }), 201);
    const [bVersion] = await listAll(owner, `/api/v1/sops/${b.id}/versions`);
    expectError(
      await owner.post(`/api/v1/sops/${a.id}/versions/${bVersion.id}/make-effective`, {}),
      404,
      'NOT_FOUND',
    );
    const other = await createLab(t.database);
    const theirs = dataOf(await client(t, other.owner).post('/api/v1/sops', { title: 'T' }), 201);
    const res = await owner.get(`/api/v1/sops/${theirs.id}/versions`);
    expectError(res, 404, 'NOT_FOUND');
    expect(body(res).error).toBe('SOP not found');
  });
});
