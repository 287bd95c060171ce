import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { createPlant } from '../../src/modules/plants/plants.service.js';
import { body, createLab } from '../support/harness.js';
import {
  client,
  dataOf,
  expectError,
  listAll,
  newExplant,
  newPlant,
  ownerPrincipal,
  type Client,
} from '../support/helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

/** GET /search across the lab's records, kept with every write; on both databases. */
describeOnDatabases('Search', (target) => {
  const { t, lab, owner } = labSuite(target);

  const found = async (c: Client, query: string) =>
    (await listAll(c, `/api/v1/search?${query}`, 100)).map((r) => `${r.kind}:${r.title}`);

  it('finds plants, explants, tasks, SOPs, rooms and contaminations by the start of their words', async () => {
    const monstera = await newPlant(owner, {
      species: 'Monstera deliciosa',
      cultivar: 'Thai Constellation',
      external_id: 'MON-0042',
    });
    await newPlant(owner, { species: 'Ficus lyrata' });
    await newExplant(owner, { label: 'Jar 7', batch_number: 'B-12', plant_id: monstera.id });
    await newExplant(owner, { label: 'Jar 8' });
    dataOf(
      await owner.post('/api/v1/tasks', { title: 'Reorder agar', notes: 'for Monstera media' }),
      201,
    );
    dataOf(await owner.post('/api/v1/sops', { title: 'Subculture', tags: ['monstera'] }), 201);
    dataOf(await owner.post('/api/v1/rooms', { name: 'Growth room A' }), 201);
    dataOf(
      await owner.post('/api/v1/contaminations', {
        plant_id: monstera.id,
        type: 'bacteria',
        issue: 'Cloudy agar',
      }),
      201,
    );

    const monsteras = await found(owner, 'q=Monstera');
    // The plant itself first; then what names it (its explant through the plant's name).
    expect(monsteras[0]).toBe('plant:Monstera deliciosa');
    expect([...monsteras].sort()).toEqual(
      ['explant:Jar 7', 'plant:Monstera deliciosa', 'sop:Subculture', 'task:Reorder agar'].sort(),
    );
    expect(await found(owner, 'q=mon%20thai')).toEqual(['plant:Monstera deliciosa']);
    expect(await found(owner, 'q=mon-0042')).toEqual(['plant:Monstera deliciosa']);
    // An explant is found by its plant's names, not by the plant's other fields.
    expect(await found(owner, 'q=thai')).toEqual(['plant:Monstera deliciosa']);
    expect(await found(owner, 'q=jar')).toHaveLength(2);
    expect(await found(owner, 'q=b-12')).toEqual(['explant:Jar 7']);
    expect(await found(owner, 'q=growth')).toEqual(['room:Growth room A']);
    expect((await found(owner, 'q=agar')).sort()).toEqual([
      'contamination:Cloudy agar',
      'task:Reorder agar',
    ]);
    expect(await found(owner, 'q=agar&kind=task')).toEqual(['task:Reorder agar']);
    expect(await found(owner, 'q=stera')).toEqual([]);
    // A word of one character is a whole word: "b 12" is B-12, not every word starting with b.
    expect(await found(owner, 'q=b%2012')).toEqual(['explant:Jar 7']);
    expect(await found(owner, 'q=j')).toEqual([]);
    const [hit] = await listAll(owner, '/api/v1/search?q=jar%207');
    expect(hit).toEqual({
      kind: 'explant',
      id: expect.any(String),
      title: 'Jar 7',
      subtitle: 'B-12',
      parent_id: monstera.id,
    });
  });

  it('ignores letter case and accents, and finds names changed since', async () => {
    const plant = await newPlant(owner, { species: 'Begonia', common_name: 'Müller’s Béatrice' });
    const explant = await newExplant(owner, { label: 'Tube 1', plant_id: plant.id });
    expect(await found(owner, 'q=MULLER')).toEqual(['plant:Müller’s Béatrice', 'explant:Tube 1']);
    expect(await found(owner, 'q=beatrice')).toHaveLength(2);
    dataOf(await owner.patch(`/api/v1/plants/${plant.id}`, { common_name: 'Rex' }), 200);
    expect(await found(owner, 'q=muller')).toEqual([]);
    expect(await found(owner, 'q=rex')).toEqual(['plant:Rex', 'explant:Tube 1']);
    dataOf(await owner.patch(`/api/v1/explants/${explant.id}`, { label: 'Flask 9' }), 200);
    expect(await found(owner, 'q=flask')).toEqual(['explant:Flask 9']);
    expect(await found(owner, 'q=tube')).toEqual([]);
    const room = dataOf(await owner.post('/api/v1/rooms', { name: 'Cold room' }), 201);
    dataOf(await owner.patch(`/api/v1/rooms/${room.id}`, { name: 'Warm room' }), 200);
    expect(await found(owner, 'q=room')).toEqual(['room:Warm room']);
  });

  it('leaves out archived records until they come back', async () => {
    const plant = await newPlant(owner, { species: 'Alocasia zebrina' });
    const room = dataOf(await owner.post('/api/v1/rooms', { name: 'Alocasia room' }), 201);
    dataOf(await owner.post(`/api/v1/plants/${plant.id}/archive`, {}), 200);
    dataOf(await owner.patch(`/api/v1/rooms/${room.id}`, { archived: true }), 200);
    expect(await found(owner, 'q=alocasia')).toEqual([]);
    dataOf(await owner.post(`/api/v1/plants/${plant.id}/unarchive`, {}), 200);
    expect(await found(owner, 'q=alocasia')).toEqual(['plant:Alocasia zebrina']);
  });

  it('answers only the kinds the key may read, and only its own lab', async () => {
    await newPlant(owner, { species: 'Philodendron gloriosum' });
    dataOf(await owner.post('/api/v1/tasks', { title: 'Philodendron split' }), 201);
    const tasksOnly = client(
      t,
      await lab.actor('member', { scopes: ['read:workspace', 'read:tasks'] }),
    );
    expect(await found(tasksOnly, 'q=philodendron')).toEqual(['task:Philodendron split']);
    expectError(
      await tasksOnly.get('/api/v1/search?q=philodendron&kind=plant'),
      403,
      'FORBIDDEN',
      /read:plants/,
    );
    const other = await createLab(t.database);
    expect(await found(client(t, other.owner), 'q=philodendron')).toEqual([]);
    // Another lab's better matches, many of them, do not hide this lab's one.
    const theirs = ['Species', ...Array.from({ length: 120 }, () => 'Philodendron')].join('\n');
    const imported = await t.request({
      method: 'POST',
      url: '/api/v1/imports?kind=plants',
      headers: { ...other.owner.headers, 'content-type': 'text/csv' },
      payload: theirs,
    });
    expect(imported.statusCode).toBe(200);
    expect(await found(owner, 'q=philodendron&kind=plant')).toEqual([
      'plant:Philodendron gloriosum',
    ]);
    expect(await found(client(t, other.owner), 'q=philodendron')).toHaveLength(120);
    expectError(await owner.get('/api/v1/search'), 422, 'VALIDATION_ERROR', /q/);
    expectError(await owner.get('/api/v1/search?q=x&kind=device'), 422, 'VALIDATION_ERROR');
    // Words of nothing but punctuation find nothing.
    expect(await found(owner, 'q=%2D%2D')).toEqual([]);
  });

  it('pages by cursor through every match, each once', async () => {
    for (let i = 1; i <= 5; i += 1) await newPlant(owner, { species: `Hoya ${i}` });
    const first = await owner.get('/api/v1/search?q=hoya&limit=2');
    expect(dataOf(first, 200)).toHaveLength(2);
    expect(body(first).meta.next_cursor).toEqual(expect.any(String));
    const all = await listAll(owner, '/api/v1/search?q=hoya', 2);
    expect(all.map((r) => r.title).sort()).toEqual([
      'Hoya 1',
      'Hoya 2',
      'Hoya 3',
      'Hoya 4',
      'Hoya 5',
    ]);
    expectError(
      await owner.get(`/api/v1/search?q=other&cursor=${body(first).meta.next_cursor}`),
      422,
      'INVALID_CURSOR',
    );
  });

  it('writes a document in the transaction of its record: a write undone leaves none', async () => {
    await expect(
      inTransaction(t.database.db, async (trx) => {
        await createPlant(
          trx,
          ownerPrincipal(lab),
          { species: 'Anthurium warocqueanum' },
          new Date().toISOString(),
        );
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect(await found(owner, 'q=anthurium')).toEqual([]);
  });
  it('finds a record changed before the index took it in as it is now, and keeps the index whole', async () => {
    // SQLite takes new documents into its index in batches (before each search and
    // every second): a document changed or removed while it waits needs nothing of
    // the index, one already in it is taken out and put back.
    const db = t.database.db;
    const pending = async () =>
      target.name === 'sqlite'
        ? Number(
            (await sql<{ n: number }>`select count(*) as n from search_pending`.execute(db))
              .rows[0]!.n,
          )
        : 0;
    const plant = await newPlant(owner, { species: 'Calathea orbifolia' });
    const gone = await newPlant(owner, { species: 'Calathea zebrina' });
    if (target.name === 'sqlite') expect(await pending()).toBeGreaterThanOrEqual(2);
    dataOf(await owner.patch(`/api/v1/plants/${plant.id}`, { species: 'Maranta leuconeura' }), 200);
    await sql`delete from search_documents where record_id = ${gone.id}`.execute(db);
    const explant = await newExplant(owner, { label: 'Vial 3', plant_id: plant.id });
    expect(await found(owner, 'q=calathea')).toEqual([]);
    expect(await found(owner, 'q=maranta')).toEqual(['plant:Maranta leuconeura', 'explant:Vial 3']);
    expect(await pending()).toBe(0);
    // Taken in: a change now goes through the index at once.
    dataOf(await owner.patch(`/api/v1/explants/${explant.id}`, { label: 'Vial 4' }), 200);
    dataOf(await owner.patch(`/api/v1/plants/${plant.id}`, { species: 'Stromanthe' }), 200);
    expect(await found(owner, 'q=maranta')).toEqual([]);
    expect(await found(owner, 'q=vial')).toEqual(['explant:Vial 4']);
    expect(await found(owner, 'q=stromanthe')).toEqual(['plant:Stromanthe', 'explant:Vial 4']);
    await sql`delete from search_documents where record_id = ${explant.id}`.execute(db);
    expect(await found(owner, 'q=vial')).toEqual([]);
    if (target.name === 'sqlite') {
      // FTS5 checks its index against the documents: a wrong removal would fail it.
      await sql`insert into search_fts(search_fts, rank) values ('integrity-check', 1)`.execute(db);
    }
  });

  it('takes new documents into the index by itself, with no search asking', async () => {
    if (target.name !== 'sqlite') return;
    await newPlant(owner, { species: 'Peperomia prostrata' });
    const waiting = async () =>
      Number(
        (await sql<{ n: number }>`select count(*) as n from search_pending`.execute(t.database.db))
          .rows[0]!.n,
      );
    expect(await waiting()).toBeGreaterThan(0);
    const deadline = Date.now() + 10_000;
    while ((await waiting()) > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await waiting()).toBe(0);
    expect(await found(owner, 'q=peperomia')).toEqual(['plant:Peperomia prostrata']);
  });
});
