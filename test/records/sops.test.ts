import { expect, it } from 'vitest';
import { newId } from '../../src/kernel/ids.js';
import { body, createLab } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  client,
  dataOf,
  expectError,
  expectSameAnswer,
  keysOf,
  listAll,
  randomId,
} from '../support/helpers.js';
import { importSops, SOP_SUMMARY_KEYS, subcultureSop } from './sop-helpers.js';

describeOnDatabases('SOPs', (target) => {
  const { t, lab, owner } = labSuite(target);

  it('gets an SOP in camelCase with only the version in force and its steps', async () => {
    const { ids, sop } = subcultureSop();
    await importSops(t.database, lab.workspaceId, [sop], '2026-07-01T10:00:00.000Z');
    const got = dataOf(await owner.get(`/api/v1/sops/${ids.sop}`), 200);
    expect(keysOf(got)).toEqual([...SOP_SUMMARY_KEYS, 'version'].sort());
    expect(got).toEqual({
      id: ids.sop,
      title: 'Subculture',
      description: 'Dividing shoot clusters',
      category: 'tissue-culture',
      status: 'active',
      level: 'intermediate',
      tags: ['aseptic', 'subculture'],
      equipment: ['laminar flow hood'],
      estimatedTimeMinutes: 45,
      durationHours: null,
      currentVersion: 2,
      updatedAt: '2026-07-01T10:00:00.000Z',
      createdAt: '2026-07-01T10:00:00.000Z',
      version: {
        id: ids.v2,
        version: 2,
        lifecycleStatus: 'effective',
        effectiveAt: '2026-06-01T06:00:00.000Z',
        approvedAt: null,
        title: 'Subculture v2',
        description: 'Adds step 3',
        steps: [
          {
            id: 'step-1',
            instruction: 'Instruction 1',
            notes: null,
            safetyWarning: 'Ethanol is flammable',
            estimatedMinutes: 15,
            measurements: [],
          },
          {
            id: 'step-2',
            instruction: 'Instruction 2',
            notes: 'Cool the tools first',
            safetyWarning: null,
            estimatedMinutes: null,
            measurements: [],
          },
          {
            id: 'step-3',
            instruction: 'Instruction 3',
            notes: null,
            safetyWarning: null,
            estimatedMinutes: null,
            measurements: [],
          },
        ],
      },
    });
  });

  it('answers version null without a version in force; currentVersion is then the highest stored, else 0', async () => {
    const draftOnly = {
      id: newId(),
      title: 'Acclimatization',
      status: 'draft',
      versions: [
        { id: newId(), version: 1, lifecycle_status: 'superseded', steps: [] },
        { id: newId(), version: 2, lifecycle_status: 'draft', steps: [] },
      ],
    };
    const bare = { id: newId(), title: 'No versions yet', status: 'archived' };
    await importSops(t.database, lab.workspaceId, [draftOnly, bare]);
    expect(dataOf(await owner.get(`/api/v1/sops/${draftOnly.id}`), 200)).toMatchObject({
      status: 'draft',
      currentVersion: 2,
      version: null,
    });
    expect(dataOf(await owner.get(`/api/v1/sops/${bare.id}`), 200)).toMatchObject({
      status: 'archived',
      currentVersion: 0,
      version: null,
      tags: [],
      equipment: [],
      level: null,
      estimatedTimeMinutes: null,
    });
  });

  it('lists summaries most recently updated first, drafts and archived included, paged with a stable tiebreak', async () => {
    const older = subcultureSop('Older');
    await importSops(t.database, lab.workspaceId, [older.sop], '2026-07-01T10:00:00.000Z');
    const same = [
      { id: newId(), title: 'Draft', status: 'draft' },
      { id: newId(), title: 'Archived', status: 'archived' },
      { id: newId(), title: 'Active', status: 'active' },
    ];
    await importSops(t.database, lab.workspaceId, same, '2026-07-02T10:00:00.000Z');

    const all = await listAll(owner, '/api/v1/sops', 1);
    const tied = same.map((s) => s.id).sort((a, b) => (a < b ? 1 : -1));
    expect(all.map((s) => s.id)).toEqual([...tied, older.ids.sop]);
    for (const summary of all) expect(keysOf(summary)).toEqual(SOP_SUMMARY_KEYS);
    expect(all.map((s) => s.status)).toEqual(expect.arrayContaining(['draft', 'archived']));
    expect(all.at(-1)).toMatchObject({ currentVersion: 2, tags: ['aseptic', 'subculture'] });
    expect(all[0]).toMatchObject({ currentVersion: 0 });

    const first = await owner.get('/api/v1/sops?limit=2');
    expect(dataOf(first, 200)).toHaveLength(2);
    expect(body(first).meta.next_cursor).toEqual(expect.any(String));
    expect(dataOf(await owner.get('/api/v1/sops?offset=3'), 200)).toHaveLength(1);
    expectError(
      await owner.get(
        `/api/v1/sops?cursor=${encodeURIComponent(body(first).meta.next_cursor)}&offset=1`,
      ),
      422,
      'VALIDATION_ERROR',
    );
    expectError(await owner.get('/api/v1/sops?cursor=nonsense'), 422, 'INVALID_CURSOR');
    expect(body(await owner.get('/api/v1/sops')).meta).toEqual({ next_cursor: null });
  });

  it('shows a version that takes force through a later import, and moves the SOP to the top', async () => {
    const { ids, sop } = subcultureSop();
    const other = { id: newId(), title: 'Other' };
    await importSops(t.database, lab.workspaceId, [sop], '2026-07-01T10:00:00.000Z');
    await importSops(t.database, lab.workspaceId, [other], '2026-07-02T10:00:00.000Z');
    sop.versions[1]!.lifecycle_status = 'superseded';
    sop.versions[2]!.lifecycle_status = 'effective';
    await importSops(t.database, lab.workspaceId, [sop], '2026-07-03T10:00:00.000Z');
    const got = dataOf(await owner.get(`/api/v1/sops/${ids.sop}`), 200);
    expect(got).toMatchObject({ currentVersion: 3, updatedAt: '2026-07-03T10:00:00.000Z' });
    expect(got.version).toMatchObject({ id: ids.v3, version: 3, lifecycleStatus: 'effective' });
    expect(got.version.steps.map((s: { id: string }) => s.id)).toEqual([
      'step-1',
      'step-2',
      'step-4',
    ]);
    expect((await listAll(owner, '/api/v1/sops')).map((s) => s.id)).toEqual([ids.sop, other.id]);
  });

  it('answers an unknown, malformed or foreign id with the same 404', async () => {
    const theirs = await createLab(t.database, { name: 'Theirs' });
    const { ids, sop } = subcultureSop();
    await importSops(t.database, theirs.workspaceId, [sop]);
    const reference = await owner.get(`/api/v1/sops/${randomId()}`);
    for (const id of [ids.sop, 'not-a-uuid', '123']) {
      expectSameAnswer(await owner.get(`/api/v1/sops/${id}`), reference, 404, 'NOT_FOUND');
    }
    expect(dataOf(await owner.get('/api/v1/sops'), 200)).toEqual([]);
    expect(dataOf(await client(t, theirs.owner).get(`/api/v1/sops/${ids.sop}`), 200).id).toBe(
      ids.sop,
    );
  });

  it('lets any member read, and wants read:sops', async () => {
    const { ids, sop } = subcultureSop();
    await importSops(t.database, lab.workspaceId, [sop]);
    const guest = client(t, await lab.actor('guest'));
    expect(dataOf(await guest.get(`/api/v1/sops/${ids.sop}`), 200).id).toBe(ids.sop);
    expect(dataOf(await guest.get('/api/v1/sops'), 200)).toHaveLength(1);
    const narrow = client(t, await lab.actor('owner', { scopes: ['read:sop_runs'] }));
    expectError(await narrow.get('/api/v1/sops'), 403, 'FORBIDDEN', /read:sops/);
    expectError(await narrow.get(`/api/v1/sops/${ids.sop}`), 403, 'FORBIDDEN', /read:sops/);
    const device = await lab.deviceToken();
    expectError(await client(t, device).get('/api/v1/sops'), 403, 'DEVICE_TOKEN_NOT_ACCEPTED');
  });
});
