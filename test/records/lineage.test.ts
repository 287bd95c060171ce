import { expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { describeOnDatabases, labSuite, otherLab } from '../support/suite.js';
import {
  addRoom,
  client,
  dataOf,
  eventsOf,
  expectError,
  GENEROUS_LIMITS,
  type Client,
  type Json,
  listAll,
  markDeleted,
  newExplant,
  newPlant,
  randomId,
} from '../support/helpers.js';

/** What the change history, the edges and the explants hold of a workspace: a write leaves it as it was, or not. */
async function snapshot(database: Database, workspaceId: string): Promise<unknown> {
  const db = database.db;
  const [explants, edges, events, transfers] = await Promise.all([
    db
      .selectFrom('explants')
      .select(['id', 'status', 'current_count', 'plantlet_count', 'parent_explant_ids'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('explant_parents')
      .select(['parent_id', 'child_id'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('child_id')
      .execute(),
    db
      .selectFrom('events')
      .select(['id'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('transfers')
      .select(['id'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('id')
      .execute(),
  ]);
  return { explants, edges, events, transfers };
}

const split = (c: Client, id: string, body: unknown) =>
  c.post(`/api/v1/explants/${id}/split`, body);

const lineageOf = async (c: Client, id: string, query = '') =>
  dataOf(await c.get(`/api/v1/explants/${id}/lineage${query}`), 200);

describeOnDatabases('Explant lineage', (target) => {
  const { t, lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });
  const their = otherLab(t);

  it('splits an explant: the parent loses what left, each daughter is made with its parent', async () => {
    const room = await addRoom(t.database, lab.workspaceId);
    const plant = await newPlant(owner);
    const parent = await newExplant(owner, {
      label: 'MX-7',
      plant_id: plant.id,
      initial_count: 8,
      plantlet_count: 40,
      initial_stage: 'multiplication',
      room_id: room,
    });
    expect(parent.parent_explant_ids).toEqual([]);
    const res = await split(owner, parent.id, {
      daughters: [
        { vessel_count: 3, plantlet_count: 12 },
        { vessel_count: 2, label: 'MX-7 rooting', notes: 'for rooting' },
      ],
      notes: 'Cycle 4',
    });
    const data = dataOf(res, 201);
    expect(data.parent).toMatchObject({ id: parent.id, current_count: 3, plantlet_count: 28 });
    expect(data.daughters).toHaveLength(2);
    const [first, second] = data.daughters as Json[];
    expect(first).toMatchObject({
      label: 'MX-7.1',
      plant_id: plant.id,
      initial_count: 3,
      current_count: 3,
      plantlet_count: 12,
      parent_explant_ids: [parent.id],
      current_stage: { stage: 'multiplication', room_id: room },
    });
    expect(second).toMatchObject({
      label: 'MX-7 rooting',
      current_count: 2,
      plantlet_count: null,
      notes: 'for rooting',
      parent_explant_ids: [parent.id],
    });
    // A read answers the parents too.
    expect(dataOf(await owner.get(`/api/v1/explants/${first.id}`), 200).parent_explant_ids).toEqual(
      [parent.id],
    );

    // The parent's transfer, as POST /transfers records one.
    const [transfer] = await listAll(owner, `/api/v1/transfers?explant_id=${parent.id}`);
    expect(transfer).toMatchObject({ vessel_count: 3, plantlet_count: 28, notes: 'Cycle 4' });

    // A later split numbers its daughters after the children the parent has.
    const again = dataOf(await split(owner, parent.id, { daughters: [{ vessel_count: 1 }] }), 201);
    expect(again.daughters[0].label).toBe('MX-7.3');
    expect(again.parent.current_count).toBe(2);

    const events = await eventsOf(owner, 'explant');
    const ofParent = events.filter((e) => e.entity_id === parent.id).map((e) => e.event_type);
    expect(ofParent).toEqual([
      'created',
      'transfer',
      'updated',
      'split',
      'transfer',
      'updated',
      'split',
    ]);
    const splitEvent = events.find((e) => e.event_type === 'split')!;
    expect(splitEvent.payload).toMatchObject({
      transfer_id: transfer.id,
      daughters: [
        { id: first.id, label: 'MX-7.1', vessel_count: 3, plantlet_count: 12 },
        { id: second.id, label: 'MX-7 rooting', vessel_count: 2, plantlet_count: null },
      ],
    });
    expect(events.filter((e) => e.entity_id === first.id).map((e) => e.event_type)).toEqual([
      'created',
    ]);
  });

  it('refuses a split that takes more than the parent has, and writes nothing', async () => {
    const parent = await newExplant(owner, { label: 'P', initial_count: 4, plantlet_count: 10 });
    const before = await snapshot(t.database, lab.workspaceId);
    expectError(
      await split(owner, parent.id, { daughters: [{ vessel_count: 3 }, { vessel_count: 2 }] }),
      422,
      'VALIDATION_ERROR',
      /5 vessels would leave the explant, which has 4/,
    );
    expectError(
      await split(owner, parent.id, { daughters: [{ vessel_count: 1, plantlet_count: 11 }] }),
      422,
      'VALIDATION_ERROR',
      /11 plantlets would leave the explant, which has 10/,
    );
    // A daughter refused after the first was made: the whole split is undone.
    expectError(
      await split(owner, parent.id, {
        daughters: [{ vessel_count: 1 }, { vessel_count: 1, room_id: randomId() }],
      }),
      422,
      'VALIDATION_ERROR',
      /^daughters\[1\]\.room_id/,
    );
    expect(await snapshot(t.database, lab.workspaceId)).toEqual(before);
    const uncounted = await newExplant(owner, { label: 'Q' });
    const beforeUncounted = await snapshot(t.database, lab.workspaceId);
    expectError(
      await split(owner, uncounted.id, { daughters: [{ vessel_count: 1 }] }),
      422,
      'VALIDATION_ERROR',
      /no vessel count/,
    );
    expect(await snapshot(t.database, lab.workspaceId)).toEqual(beforeUncounted);
    expectError(
      await split(owner, randomId(), { daughters: [{ vessel_count: 1 }] }),
      404,
      'NOT_FOUND',
    );
    // Another lab's explant is not found.
    const theirs = await newExplant(their.owner, { label: 'T', initial_count: 5 });
    expectError(
      await split(owner, theirs.id, { daughters: [{ vessel_count: 1 }] }),
      404,
      'NOT_FOUND',
    );
    const archived = await newExplant(owner, { label: 'A', initial_count: 5 });
    dataOf(await owner.post(`/api/v1/explants/${archived.id}/archive`, {}), 200);
    expectError(
      await split(owner, archived.id, { daughters: [{ vessel_count: 1 }] }),
      422,
      'VALIDATION_ERROR',
      /archived/,
    );
  });

  it('two splits of one parent at once: the second sees what the first left; a deleted parent is not found', async () => {
    const parent = await newExplant(owner, { label: 'C', initial_count: 10 });
    const answers = await Promise.all([
      split(owner, parent.id, { daughters: [{ vessel_count: 6 }] }),
      split(owner, parent.id, { daughters: [{ vessel_count: 6 }] }),
    ]);
    const made = answers.filter((answer) => answer.statusCode === 201);
    const refused = answers.filter((answer) => answer.statusCode !== 201);
    expect(made).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expectError(
      refused[0]!,
      422,
      'VALIDATION_ERROR',
      /6 vessels would leave the explant, which has 4/,
    );
    expect(dataOf(await owner.get(`/api/v1/explants/${parent.id}`), 200).current_count).toBe(4);
    const gone = await newExplant(owner, { label: 'G', initial_count: 5 });
    await markDeleted(t.database, 'explants', gone.id);
    expectError(
      await split(owner, gone.id, { daughters: [{ vessel_count: 1 }] }),
      404,
      'NOT_FOUND',
    );
  });

  it('two splits of one parent at once both made: the second numbers its daughter after the first', async () => {
    const parent = await newExplant(owner, { label: 'N', initial_count: 10 });
    const answers = await Promise.all([
      split(owner, parent.id, { daughters: [{ vessel_count: 3 }] }),
      split(owner, parent.id, { daughters: [{ vessel_count: 3 }] }),
    ]);
    const labels = answers.map((answer) => dataOf(answer, 201).daughters[0].label).sort();
    expect(labels).toEqual(['N.1', 'N.2']);
    expect(dataOf(await owner.get(`/api/v1/explants/${parent.id}`), 200).current_count).toBe(4);
  });

  it('merges explants into a new one and into one that exists, and refuses a loop', async () => {
    const a = await newExplant(owner, { label: 'A', initial_count: 3, plantlet_count: 9 });
    const b = await newExplant(owner, { label: 'B', initial_count: 2 });
    const merged = dataOf(
      await owner.post('/api/v1/explants/merge', { explant_ids: [a.id, b.id], label: 'AB' }),
      201,
    );
    expect(merged.child).toMatchObject({
      label: 'AB',
      current_count: 5,
      plantlet_count: 9,
      parent_explant_ids: [a.id, b.id],
    });
    expect(merged.parents.map((p: Json) => [p.id, p.current_count])).toEqual([
      [a.id, 0],
      [b.id, 0],
    ]);
    expect(merged.parents[0].plantlet_count).toBe(0);
    expect(merged.parents[1].plantlet_count).toBeNull();

    // Pooled into one that exists: it gains parents and vessels.
    const c = await newExplant(owner, { label: 'C', initial_count: 4 });
    const d = await newExplant(owner, { label: 'D', initial_count: 1 });
    const into = dataOf(
      await owner.post('/api/v1/explants/merge', { explant_ids: [d.id], into_explant_id: c.id }),
      201,
    );
    expect(into.child).toMatchObject({ id: c.id, current_count: 5, parent_explant_ids: [d.id] });

    // AB descends from A: pooling A's descendant into A would loop.
    const daughter = dataOf(
      await split(owner, merged.child.id, { daughters: [{ vessel_count: 1 }] }),
      201,
    ).daughters[0];
    const a2 = dataOf(
      await owner.post('/api/v1/transfers', { explant_id: a.id, vessel_count: 2 }),
      201,
    );
    void a2;
    const before = await snapshot(t.database, lab.workspaceId);
    expectError(
      await owner.post('/api/v1/explants/merge', {
        explant_ids: [daughter.id],
        into_explant_id: a.id,
      }),
      422,
      'VALIDATION_ERROR',
      /descends from into_explant_id/,
    );
    expectError(
      await owner.post('/api/v1/explants/merge', { explant_ids: [a.id], into_explant_id: a.id }),
      422,
      'VALIDATION_ERROR',
      /its own parent/,
    );
    expectError(
      await owner.post('/api/v1/explants/merge', { explant_ids: [a.id, a.id], label: 'AA' }),
      422,
      'VALIDATION_ERROR',
    );
    // The same id in another case is the same explant.
    expectError(
      await owner.post('/api/v1/explants/merge', {
        explant_ids: [a.id, a.id.toUpperCase()],
        label: 'AA',
      }),
      422,
      'VALIDATION_ERROR',
    );
    expectError(
      await owner.post('/api/v1/explants/merge', { explant_ids: [a.id, randomId()], label: 'X' }),
      422,
      'VALIDATION_ERROR',
      /explant_ids\[1\]: no explant/,
    );
    expectError(
      await owner.post('/api/v1/explants/merge', { explant_ids: [a.id, b.id] }),
      422,
      'VALIDATION_ERROR',
      /send one of them/,
    );
    expect(await snapshot(t.database, lab.workspaceId)).toEqual(before);

    const events = await eventsOf(owner, 'explant');
    const mergedEvent = events.find(
      (e) => e.event_type === 'merged' && e.entity_id === merged.child.id,
    );
    expect(mergedEvent.payload).toMatchObject({
      parent_explant_ids: [a.id, b.id],
      new_explant: true,
    });
  });

  it('answers descendants and ancestors generation by generation, with each edge', async () => {
    const room = await addRoom(t.database, lab.workspaceId);
    const plant = await newPlant(owner);
    const root = await newExplant(owner, { label: 'R', plant_id: plant.id, initial_count: 10 });
    const gen1 = dataOf(
      await split(owner, root.id, {
        daughters: [
          { vessel_count: 4, initial_stage: 'multiplication', room_id: room },
          { vessel_count: 4 },
        ],
      }),
      201,
    ).daughters as Json[];
    const gen2 = dataOf(await split(owner, gen1[0].id, { daughters: [{ vessel_count: 2 }] }), 201)
      .daughters as Json[];
    const pooled = dataOf(
      await owner.post('/api/v1/explants/merge', {
        explant_ids: [gen2[0].id, gen1[1].id],
        label: 'Pool',
      }),
      201,
    ).child;

    const down = await lineageOf(owner, root.id);
    expect(down.nodes.map((n: Json) => [n.label, n.generation])).toEqual([
      ['R', 0],
      ['R.1', 1],
      ['R.2', 1],
      ['R.1.1', 2],
      ['Pool', 2],
    ]);
    expect(down.nodes[1]).toMatchObject({
      id: gen1[0].id,
      stage: 'multiplication',
      status: 'active',
      plant_id: plant.id,
      current_count: 2,
    });
    expect(down.edges).toHaveLength(5);
    const [transfer] = await listAll(owner, `/api/v1/transfers?explant_id=${root.id}`);
    expect(down.edges.find((e: Json) => e.child_id === gen1[0].id)).toEqual({
      parent_id: root.id,
      child_id: gen1[0].id,
      kind: 'split',
      transfer_id: transfer.id,
      occurred_at: transfer.transfer_date,
      recorded_by: lab.owner.memberId,
      room_id: room,
      media_batch_id: null,
    });
    expect(
      down.edges.filter((e: Json) => e.child_id === pooled.id).map((e: Json) => e.kind),
    ).toEqual(['merge', 'merge']);

    // One generation deep: the root and its children, and the edges to them only.
    const shallow = await lineageOf(owner, root.id, '?depth=1');
    expect(shallow.nodes.map((n: Json) => n.label)).toEqual(['R', 'R.1', 'R.2']);
    expect(shallow.edges).toHaveLength(2);

    const up = await lineageOf(owner, pooled.id, '?direction=ancestors');
    // Each generation oldest first: R reached through R.2 is as near as R.1.
    expect(up.nodes.map((n: Json) => [n.label, n.generation])).toEqual([
      ['Pool', 0],
      ['R.2', 1],
      ['R.1.1', 1],
      ['R', 2],
      ['R.1', 2],
    ]);
    expect(up.edges).toHaveLength(5);

    const fromPlant = dataOf(await owner.get(`/api/v1/plants/${plant.id}/lineage`), 200);
    expect(fromPlant.nodes.map((n: Json) => [n.label, n.generation])).toEqual([
      ['R', 1],
      ['R.1', 2],
      ['R.2', 2],
      ['R.1.1', 3],
      ['Pool', 3],
    ]);
    expectError(await owner.get(`/api/v1/explants/${randomId()}/lineage`), 404, 'NOT_FOUND');
    expectError(await their.owner.get(`/api/v1/explants/${root.id}/lineage`), 404, 'NOT_FOUND');
    expectError(
      await owner.get(`/api/v1/explants/${root.id}/lineage?depth=51`),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('recalls descendants after a dry run, each change in the history, managers only', async () => {
    const plant = await newPlant(owner);
    const root = await newExplant(owner, { label: 'R', plant_id: plant.id, initial_count: 9 });
    const kids = dataOf(
      await split(owner, root.id, { daughters: [{ vessel_count: 3 }, { vessel_count: 3 }] }),
      201,
    ).daughters as Json[];
    const grand = dataOf(await split(owner, kids[0].id, { daughters: [{ vessel_count: 1 }] }), 201)
      .daughters[0];
    // Ended and already quarantined cultures are left alone.
    dataOf(await owner.patch(`/api/v1/explants/${kids[1].id}`, { status: 'discarded' }), 200);
    const unrelated = await newExplant(owner, { label: 'U', initial_count: 1 });

    const member = client(t, await lab.actor('member'));
    expectError(
      await member.post(`/api/v1/explants/${root.id}/recall`, { reason: 'virus', dry_run: true }),
      403,
      'FORBIDDEN',
    );
    const before = await snapshot(t.database, lab.workspaceId);
    const dry = dataOf(
      await owner.post(`/api/v1/explants/${root.id}/recall`, {
        status: 'quarantined',
        reason: 'CMV positive',
        dry_run: true,
      }),
      200,
    );
    const expected = [root.id, kids[0].id, grand.id].sort();
    expect(dry).toEqual({ count: 3, explant_ids: expected, dry_run: true });
    expect(await snapshot(t.database, lab.workspaceId)).toEqual(before);

    const oneGeneration = dataOf(
      await owner.post(`/api/v1/explants/${root.id}/recall`, {
        reason: 'x',
        generation: 2,
        dry_run: true,
      }),
      200,
    );
    expect(oneGeneration.explant_ids).toEqual([grand.id]);

    const done = dataOf(
      await owner.post(`/api/v1/explants/${root.id}/recall`, { reason: 'CMV positive' }),
      200,
    );
    expect(done).toEqual({ count: 3, explant_ids: expected, dry_run: false });
    for (const id of expected) {
      expect(dataOf(await owner.get(`/api/v1/explants/${id}`), 200).status).toBe('quarantined');
    }
    expect(dataOf(await owner.get(`/api/v1/explants/${kids[1].id}`), 200).status).toBe('discarded');
    expect(dataOf(await owner.get(`/api/v1/explants/${unrelated.id}`), 200).status).toBe('active');
    const events = await eventsOf(owner, 'explant');
    const updates = events.filter(
      (e) => e.event_type === 'updated' && e.payload.recall !== undefined,
    );
    expect(updates.map((e) => e.entity_id).sort()).toEqual(expected);
    expect(updates[0].payload).toMatchObject({
      changes: { status: { from: 'active', to: 'quarantined' } },
      recall: { reason: 'CMV positive', of: { entity_type: 'explant', entity_id: root.id } },
    });
    const recalled = events.find((e) => e.event_type === 'recalled');
    expect(recalled).toMatchObject({
      entity_id: root.id,
      payload: { status: 'quarantined', count: 3, explant_ids: expected },
    });
    // Again: nothing left to change.
    expect(
      dataOf(await owner.post(`/api/v1/explants/${root.id}/recall`, { reason: 'again' }), 200)
        .count,
    ).toBe(0);

    // From the plant: its explants and theirs, into another status.
    const fromPlant = dataOf(
      await owner.post(`/api/v1/plants/${plant.id}/recall`, {
        status: 'senescing',
        reason: 'old line',
      }),
      200,
    );
    expect(fromPlant.explant_ids).toEqual(expected);
    const plantEvents = await eventsOf(owner, 'plant');
    expect(plantEvents.at(-1)).toMatchObject({ entity_id: plant.id, event_type: 'recalled' });
    expectError(
      await owner.post(`/api/v1/plants/${plant.id}/recall`, { reason: 'x', generation: 0 }),
      422,
      'VALIDATION_ERROR',
    );
    expectError(
      await owner.post(`/api/v1/plants/${randomId()}/recall`, { reason: 'x' }),
      404,
      'NOT_FOUND',
    );
  });
});
