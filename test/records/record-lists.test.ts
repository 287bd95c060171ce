import { beforeEach, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { importLabData } from '../../src/modules/import/import.service.js';
import { createRecordLookup } from '../../src/modules/index.js';
import { body, createLab } from '../support/harness.js';
import {
  addRoom,
  client,
  dataOf,
  expectError,
  listAll,
  newExplant,
  newPlant,
  stagesOf,
} from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

/**
 * What the console's lists of plants and explants need: the current stage on the
 * record, filters by stage, room, status and a search, explants by plant and by due
 * transfer, cursors bound to the filters; each on both databases.
 */
describeOnDatabases('Plant and explant lists', (target) => {
  const { t, lab, owner } = labSuite(target);
  let roomA: string;
  let roomB: string;
  beforeEach(async () => {
    roomA = await addRoom(t.database, lab.workspaceId, 'Growth room A');
    roomB = await addRoom(t.database, lab.workspaceId, 'Growth room B');
  });

  const ids = (items: { id: string }[]) => items.map((item) => item.id).sort();
  const move = async (fields: Record<string, unknown>) =>
    dataOf(await owner.post('/api/v1/stages', fields), 201);

  describe('current stage on the record', () => {
    it('shows the first stage of a new plant and of a new explant, with its room when sent', async () => {
      const plant = await newPlant(owner, { initial_stage: 'Propagation', room_id: roomA });
      expect(plant.current_stage).toEqual({
        id: expect.any(String),
        stage: 'propagation',
        name: 'Propagation',
        entered_on: plant.created_at,
        room_id: roomA,
      });
      // The spec's explant has no stage until one is posted; Vitro's initial_stage makes one.
      const bare = await newExplant(owner, { plant_id: plant.id });
      expect(bare.current_stage).toBeNull();
      expect(await stagesOf(owner, 'explant', bare.id)).toEqual([]);
      const explant = await newExplant(owner, { plant_id: plant.id, initial_stage: 'initiation' });
      expect(explant.current_stage).toMatchObject({
        stage: 'initiation',
        name: 'Initiation',
        entered_on: explant.created_at,
        room_id: null,
      });
      // The same stage record GET /stages lists, and the created event names it.
      const [stage] = await stagesOf(owner, 'explant', explant.id);
      expect(stage).toMatchObject({ id: explant.current_stage.id, status: 'active' });
      const created = (await listAll(owner, '/api/v1/events?entity=explant')).find(
        (e) => e.entity_id === explant.id,
      );
      expect(created).toMatchObject({
        event_type: 'created',
        stage_id: stage.id,
        payload: { initial_stage: 'initiation' },
      });
      const chosen = await newExplant(owner, { initial_stage: 'Multiplication', room_id: roomB });
      expect(chosen.current_stage).toMatchObject({ stage: 'multiplication', room_id: roomB });
    });

    it('follows every stage move, keeps the current one for a back-dated move, and reads back', async () => {
      const plant = await newPlant(owner);
      const moved = await move({ plant_id: plant.id, stage: 'Greenhouse', room_id: roomB });
      const read = dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200);
      expect(read.current_stage).toEqual({
        id: moved.id,
        stage: 'greenhouse',
        name: 'Greenhouse',
        entered_on: moved.entered_on,
        room_id: roomB,
      });
      await move({ plant_id: plant.id, stage: 'field', entered_on: '2020-01-01' });
      expect(dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200).current_stage).toEqual(
        read.current_stage,
      );
      const explant = await newExplant(owner);
      const next = await move({ explant_id: explant.id, stage: 'elongation', room_id: roomA });
      expect(
        dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200).current_stage,
      ).toMatchObject({ id: next.id, stage: 'elongation', room_id: roomA });
    });

    it('renames the stage shown on records when an import renames it in the lab list', async () => {
      const plant = await newPlant(owner, { initial_stage: 'Greenhouse' });
      await inTransaction(t.database.db, (trx) =>
        importLabData(
          trx,
          lab.workspaceId,
          {
            stages: {
              plant: [
                { key: 'mother_block', name: 'Mother Block' },
                { key: 'greenhouse', name: 'Glasshouse' },
              ],
            },
          },
          createRecordLookup(),
        ),
      );
      const read = dataOf(await owner.get(`/api/v1/plants/${plant.id}`), 200);
      expect(read.current_stage).toMatchObject({ stage: 'greenhouse', name: 'Glasshouse' });
    });

    it('refuses an initial_stage outside the list and a room of no workspace, creating nothing', async () => {
      expectError(
        await owner.post('/api/v1/explants', { label: 'X', initial_stage: 'Field' }),
        422,
        'VALIDATION_ERROR',
        /^initial_stage: "Field" is not in this lab's explant stage list/,
      );
      const theirs = await createLab(t.database);
      const theirRoom = await addRoom(t.database, theirs.workspaceId);
      for (const [url, fields] of [
        ['/api/v1/plants', { species: 'Ficus', room_id: theirRoom }],
        ['/api/v1/explants', { label: 'X', initial_stage: 'initiation', room_id: theirRoom }],
      ] as const) {
        expectError(await owner.post(url, fields), 422, 'VALIDATION_ERROR', /^room_id: no room/);
      }
      // A room is the first stage's: without initial_stage there is no stage to put in it.
      expectError(
        await owner.post('/api/v1/explants', { label: 'X', room_id: roomA }),
        422,
        'VALIDATION_ERROR',
        /^room_id: .*initial_stage/,
      );
      expect(dataOf(await owner.get('/api/v1/plants'), 200)).toEqual([]);
      expect(dataOf(await owner.get('/api/v1/explants'), 200)).toEqual([]);
    });
  });

  describe('filters', () => {
    it('filters plants by stage (key or name), room, status and a search, alone and together', async () => {
      const ficus = await newPlant(owner, { species: 'Ficus lyrata', common_name: 'Fiddle-leaf' });
      const alocasia = await newPlant(owner, { species: 'Alocasia zebrina', status: 'dormant' });
      const monstera = await newPlant(owner, {
        species: 'Monstera deliciosa',
        cultivar: 'Thai Constellation',
        external_id: 'MON-007',
      });
      await move({ plant_id: alocasia.id, stage: 'production', room_id: roomA });
      await move({ plant_id: monstera.id, stage: 'production', room_id: roomB });
      const list = async (query: string) => dataOf(await owner.get(`/api/v1/plants?${query}`), 200);

      expect(ids(await list('stage=production'))).toEqual(ids([alocasia, monstera]));
      expect(ids(await list('stage=Production'))).toEqual(ids([alocasia, monstera]));
      expect(ids(await list('stage=mother_block'))).toEqual([ficus.id]);
      expect(ids(await list(`room_id=${roomA}`))).toEqual([alocasia.id]);
      expect(ids(await list('status=dormant'))).toEqual([alocasia.id]);
      expect(ids(await list('q=ZEBRINA'))).toEqual([alocasia.id]);
      expect(ids(await list('q=fiddle'))).toEqual([ficus.id]);
      expect(ids(await list('q=constellation'))).toEqual([monstera.id]);
      expect(ids(await list('q=mon-007'))).toEqual([monstera.id]);
      expect(ids(await list(`stage=production&room_id=${roomB}`))).toEqual([monstera.id]);
      expect(await list('stage=production&status=active&q=alocasia')).toEqual([]);
      // An edit keeps the search up to date.
      dataOf(await owner.patch(`/api/v1/plants/${ficus.id}`, { common_name: 'Banjo fig' }), 200);
      expect(ids(await list('q=banjo'))).toEqual([ficus.id]);
      expect(await list('q=fiddle')).toEqual([]);
    });

    it('searches text as text: wildcards match only themselves, case and accents fold as written', async () => {
      const percent = await newPlant(owner, { species: 'Rosa 100% hybrid' });
      const underscore = await newPlant(owner, { species: 'Rosa a_b' });
      await newPlant(owner, { species: 'Rosa axb' });
      const umlaut = await newPlant(owner, { species: 'Ärtenbaum' });
      const list = async (q: string) =>
        ids(dataOf(await owner.get(`/api/v1/plants?q=${encodeURIComponent(q)}`), 200));
      expect(await list('%')).toEqual([percent.id]);
      expect(await list('a_b')).toEqual([underscore.id]);
      expect(await list('ärten')).toEqual([umlaut.id]);
      expect(await list('ÄRTEN')).toEqual([umlaut.id]);
      expect(await list('\\')).toEqual([]);
    });

    it('filters explants by stage, room, status, search and plant', async () => {
      const plant = await newPlant(owner);
      const a = await newExplant(owner, {
        label: 'MON-B01',
        plant_id: plant.id,
        initial_stage: 'initiation',
      });
      const b = await newExplant(owner, {
        label: 'FIC-B02',
        batch_number: 'B2026-14',
        status: 'growing',
      });
      await move({ explant_id: b.id, stage: 'Root Induction', room_id: roomA });
      const list = async (query: string) =>
        ids(dataOf(await owner.get(`/api/v1/explants?${query}`), 200));
      expect(await list('stage=initiation')).toEqual([a.id]);
      expect(await list('stage=root_induction')).toEqual([b.id]);
      expect(await list(`room_id=${roomA}`)).toEqual([b.id]);
      expect(await list('status=growing')).toEqual([b.id]);
      expect(await list('q=b2026')).toEqual([b.id]);
      expect(await list('q=mon')).toEqual([a.id]);
      expect(await list(`plant_id=${plant.id}`)).toEqual([a.id]);
    });

    it('lists cultures due for transfer: last subculture plus the lab interval, ended ones left out', async () => {
      const old = await newExplant(owner, { label: 'OLD' });
      const ended = await newExplant(owner, { label: 'ENDED', status: 'discarded' });
      const fresh = await newExplant(owner, { label: 'FRESH' });
      for (const explant of [old, ended]) {
        await t.database.db
          .updateTable('explants')
          .set({ subcultured_at: '2026-01-01T00:00:00.000Z' })
          .where('id', '=', explant.id)
          .execute();
      }
      const due = async (before: string) =>
        ids(
          dataOf(
            await owner.get(`/api/v1/explants?transfer_due_before=${encodeURIComponent(before)}`),
            200,
          ),
        );
      const read = dataOf(await owner.get(`/api/v1/explants/${old.id}`), 200);
      expect(read).toMatchObject({
        subcultured_at: '2026-01-01T00:00:00.000Z',
        transfer_due_at: '2026-01-29T00:00:00.000Z',
      });
      expect(await due('2026-01-28')).toEqual([]);
      expect(await due('2026-01-29')).toEqual([old.id]);
      expect(await due('2026-01-29T00:00:00+00:00')).toEqual([old.id]);
      // A transfer starts the next subculture.
      dataOf(
        await owner.post('/api/v1/transfers', {
          explant_id: old.id,
          transfer_date: '2026-02-10',
        }),
        201,
      );
      expect(await due('2026-03-01')).toEqual([]);
      expect(await due('2026-03-10')).toEqual([old.id]);
      // A pending transfer is no subculture yet.
      dataOf(
        await owner.post('/api/v1/transfers', {
          explant_id: old.id,
          transfer_date: '2026-03-01',
          status: 'pending',
        }),
        201,
      );
      expect(await due('2026-03-10')).toEqual([old.id]);
      // The lab's own interval, from an import.
      await inTransaction(t.database.db, (trx) =>
        importLabData(
          trx,
          lab.workspaceId,
          { workspace: { subculture_interval_days: 14 } },
          createRecordLookup(),
        ),
      );
      expect(dataOf(await owner.get(`/api/v1/explants/${old.id}`), 200).transfer_due_at).toBe(
        '2026-02-24T00:00:00.000Z',
      );
      expect(await due('2026-02-25')).toEqual([old.id]);
      const far = new Date(Date.now() + 400 * 86_400_000).toISOString();
      expect(await due(far)).toEqual(ids([old, fresh]));
    });

    it('pages a filtered list by cursor without losing or repeating a row; a cursor stays with its filters', async () => {
      const made = [];
      for (let i = 0; i < 7; i += 1) {
        const plant = await newPlant(owner, { species: `Ficus ${i}` });
        if (i % 2 === 0) await move({ plant_id: plant.id, stage: 'production' });
        made.push(plant);
      }
      const wanted = made.filter((_, i) => i % 2 === 0);
      const paged = await listAll(owner, '/api/v1/plants?stage=production', 2);
      expect(paged.map((p) => p.id)).toEqual(wanted.map((p) => p.id).reverse());
      const first = await owner.get('/api/v1/plants?stage=production&limit=2');
      const cursor = encodeURIComponent(body(first).meta.next_cursor);
      for (const other of ['stage=greenhouse', 'stage=Production', 'q=ficus', 'archived=include']) {
        expectError(
          await owner.get(`/api/v1/plants?${other}&cursor=${cursor}`),
          422,
          'INVALID_CURSOR',
        );
      }
      dataOf(await owner.get(`/api/v1/plants?stage=production&cursor=${cursor}`), 200);
    });

    it('refuses bad filters with 422 naming the parameter', async () => {
      const theirs = await createLab(t.database);
      const theirRoom = await addRoom(t.database, theirs.workspaceId);
      const theirPlant = await newPlant(client(t, theirs.owner));
      const cases: [string, RegExp][] = [
        ['/api/v1/plants?stage=initiation', /^stage: "initiation" is not in this lab's plant/],
        ['/api/v1/explants?stage=field', /^stage: /],
        [`/api/v1/plants?room_id=${theirRoom}`, /^room_id: no room/],
        ['/api/v1/plants?room_id=nope', /^room_id: /],
        ['/api/v1/plants?status=growing', /^status: /],
        ['/api/v1/explants?status=dormant', /^status: /],
        ['/api/v1/plants?q=', /^q: /],
        [`/api/v1/plants?q=${'x'.repeat(101)}`, /^q: /],
        ['/api/v1/plants?archived=yes', /^archived: /],
        [`/api/v1/explants?plant_id=${theirPlant.id}`, /^plant_id: no plant/],
        ['/api/v1/explants?transfer_due_before=soon', /^transfer_due_before: /],
        ['/api/v1/plants?externalId=X&stage=production', /^externalId: /],
        ['/api/v1/explants?externalId=X&q=a', /^externalId: /],
      ];
      for (const [url, error] of cases) {
        expectError(await owner.get(url), 422, 'VALIDATION_ERROR', error);
      }
    });

    it("never lists another workspace's records, whatever the filter", async () => {
      const theirs = await createLab(t.database);
      const other = client(t, theirs.owner);
      await newPlant(other, { species: 'Ficus lyrata' });
      await newExplant(other, { label: 'FL-1' });
      const mine = await newPlant(owner, { species: 'Ficus lyrata' });
      expect(ids(dataOf(await owner.get('/api/v1/plants?q=ficus'), 200))).toEqual([mine.id]);
      expect(dataOf(await owner.get('/api/v1/explants?stage=initiation'), 200)).toEqual([]);
      expect(
        dataOf(await owner.get('/api/v1/plants?stage=mother_block&archived=include'), 200),
      ).toHaveLength(1);
    });
  });
});
