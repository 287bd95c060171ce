import { expect, it } from 'vitest';
import { body } from '../support/harness.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';
import {
  dataOf,
  eventsOf,
  expectError,
  GENEROUS_LIMITS,
  ISO_MS,
  keysOf,
  listAll,
  newExplant,
  newPlant,
} from '../support/helpers.js';

const EVENT_KEYS = [
  'created_at',
  'entity_id',
  'entity_type',
  'event_time',
  'event_type',
  'id',
  'payload',
  'recorded_by',
  'stage_id',
];

type Event = { id: string; created_at: string; entity_type: string; event_type: string };

describeOnDatabases('Change history', (target) => {
  const { lab, owner } = labSuite(target, { env: GENEROUS_LIMITS });

  it('lists events oldest first with the documented fields, per entity', async () => {
    const plant = await newPlant(owner);
    const explant = await newExplant(owner);
    await owner.patch(`/api/v1/plants/${plant.id}`, { notes: 'n' });
    const moved = body(
      await owner.post('/api/v1/stages', { plant_id: plant.id, stage: 'production' }),
    );
    await owner.post('/api/v1/stages', { explant_id: explant.id, stage: 'initiation' });

    const res = await owner.get('/api/v1/events?entity=plant');
    expect(body(res).meta).toEqual({ next_cursor: null });
    const events = dataOf(res, 200);
    expect(events.map((e: Event) => e.event_type)).toEqual(['created', 'updated', 'stage_change']);
    for (const event of events) {
      expect(keysOf(event)).toEqual(EVENT_KEYS);
      expect(event).toMatchObject({
        entity_type: 'plant',
        entity_id: plant.id,
        recorded_by: lab.owner.memberId,
      });
      expect(event.created_at).toMatch(ISO_MS);
      expect(event.event_time).toMatch(ISO_MS);
    }
    expect(events[2].stage_id).toBe(moved.data.id);
    const created = events.map((e: Event) => e.created_at);
    expect([...created].sort()).toEqual(created);

    const explantEvents = await eventsOf(owner, 'explant');
    expect(explantEvents.map((e) => [e.entity_type, e.event_type])).toEqual([
      ['explant', 'created'],
      ['explant', 'stage_change'],
    ]);
  });

  it('requires entity and validates since', async () => {
    expectError(await owner.get('/api/v1/events'), 422, 'VALIDATION_ERROR', /entity/);
    expectError(await owner.get('/api/v1/events?entity=task'), 422, 'VALIDATION_ERROR', /entity/);
    expectError(
      await owner.get('/api/v1/events?entity=plant&since=yesterday'),
      422,
      'VALIDATION_ERROR',
      /^since:/,
    );
    expectError(
      await owner.get('/api/v1/events?entity=plant&since=2026-01-01T10:00:00'),
      422,
      'VALIDATION_ERROR',
      /^since:/,
    );
  });

  it('treats since as exclusive', async () => {
    for (let i = 0; i < 4; i++) await newPlant(owner, { species: `P${i}` });
    const all = await eventsOf(owner, 'plant');
    expect(all).toHaveLength(4);
    const since = (at: string) =>
      listAll(owner, `/api/v1/events?entity=plant&since=${encodeURIComponent(at)}`);
    expect((await since(all[1].created_at)).map((e) => e.id)).toEqual([all[2].id, all[3].id]);
    expect(await since(all[3].created_at)).toEqual([]);
    expect((await since('2000-01-01')).map((e) => e.id)).toEqual(all.map((e) => e.id));
    const offset = all[0].created_at.replace('Z', '+00:00');
    expect((await since(offset)).map((e) => e.id)).toEqual(all.slice(1).map((e) => e.id));
  });

  it('keeps a fixed order across pages for events with the same event time', async () => {
    const plant = await newPlant(owner);
    for (let i = 0; i < 6; i++) {
      await owner.post('/api/v1/stages', {
        plant_id: plant.id,
        stage: i % 2 ? 'production' : 'greenhouse',
        entered_on: '2099-01-01',
      });
    }
    const oneGo = await eventsOf(owner, 'plant');
    const moves = oneGo.filter((e) => e.event_type === 'stage_change');
    expect(new Set(moves.map((e) => e.event_time))).toEqual(new Set(['2099-01-01T00:00:00.000Z']));
    for (const limit of [1, 2, 4]) {
      const paged = await listAll(owner, '/api/v1/events?entity=plant', limit);
      expect(paged.map((e) => e.id)).toEqual(oneGo.map((e) => e.id));
    }
    expect(moves.map((e) => e.payload.previous_stage_id)).toEqual([
      oneGo[0].stage_id,
      ...moves.slice(0, -1).map((e) => e.stage_id),
    ]);
  });

  it('lets a syncing client see every event exactly once while writes happen concurrently', async () => {
    const seed = await newPlant(owner, { species: 'Seed' });
    const seedExplant = await newExplant(owner, { label: 'Seed' });
    let writing = true;
    let roundsWithNewsWhileWriting = 0;
    let cursorRoundsWhileWriting = 0;

    const writer = async (w: number) => {
      for (let i = 0; i < 12; i++) {
        const plant = await newPlant(owner, { species: `W${w}-${i}` });
        await owner.patch(`/api/v1/plants/${plant.id}`, { notes: `note ${i}` });
        await owner.post('/api/v1/stages', {
          plant_id: i % 2 ? plant.id : seed.id,
          stage: 'production',
        });
        // Some explants reference the seed plant while other writers move it.
        const explant = await newExplant(owner, {
          label: `W${w}-${i}`,
          plant_id: i % 2 ? plant.id : seed.id,
        });
        await owner.post('/api/v1/stages', {
          explant_id: i % 3 ? explant.id : seedExplant.id,
          stage: 'initiation',
        });
      }
    };

    /** The client: pages with a fixed `since` until next_cursor is null, then moves `since` on. */
    const reader = async (entity: 'plant' | 'explant') => {
      const seen: string[] = [];
      let since: string | null = null;
      let cursor: string | null = null;
      let drainedAfterWrites = false;
      while (!drainedAfterWrites) {
        const finalRound = !writing;
        const seenBefore = seen.length;
        let cursorsFollowed = 0;
        for (;;) {
          const query: string = [
            `entity=${entity}`,
            'limit=1',
            since === null ? '' : `since=${encodeURIComponent(since)}`,
            cursor === null ? '' : `cursor=${encodeURIComponent(cursor)}`,
          ]
            .filter((p) => p !== '')
            .join('&');
          const res = await owner.get(`/api/v1/events?${query}`);
          const page = dataOf(res, 200) as Event[];
          seen.push(...page.map((e) => e.id));
          if (page.length > 0) expect(page.every((e) => e.entity_type === entity)).toBe(true);
          cursor = body(res).meta.next_cursor;
          if (cursor === null) {
            if (page.length > 0) since = page[page.length - 1]!.created_at;
            break;
          }
          cursorsFollowed++;
        }
        if (!finalRound && seen.length > seenBefore) roundsWithNewsWhileWriting++;
        if (!finalRound && cursorsFollowed > 0) cursorRoundsWhileWriting++;
        drainedAfterWrites = finalRound;
        // A short pause lets a few events pile up, so a round often spans several pages.
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return seen;
    };

    const readers = Promise.all([reader('plant'), reader('explant')]);
    await Promise.all([0, 1, 2, 3].map(writer));
    writing = false;
    const [plantSeen, explantSeen] = await readers;
    // The readers really ran alongside the writers: `since` moved on several times, and
    // cursors were followed, while writes went on.
    expect(roundsWithNewsWhileWriting).toBeGreaterThanOrEqual(4);
    expect(cursorRoundsWhileWriting).toBeGreaterThanOrEqual(4);

    for (const [entity, seen] of [
      ['plant', plantSeen],
      ['explant', explantSeen],
    ] as const) {
      const events = await eventsOf(owner, entity);
      // An exclusive `since` can only be safe if no two events share a timestamp.
      for (let i = 1; i < events.length; i++) {
        expect(events[i].created_at > events[i - 1].created_at).toBe(true);
      }
      const all = events.map((e) => e.id);
      expect(all.length).toBe(entity === 'plant' ? 1 + 4 * 12 * 3 : 1 + 4 * 12 * 2);
      expect(seen.length).toBe(new Set(seen).size);
      expect([...seen].sort()).toEqual([...all].sort());
    }
  });
});
