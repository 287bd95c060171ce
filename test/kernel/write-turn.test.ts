import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { preparedQuery } from '../../src/db/prepared.js';
import { inTransaction } from '../../src/db/transaction.js';
import { PATIENCE_MS, WriteTurn } from '../../src/db/write-turn.js';

/** Settles within `ms`, or says it has not. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> {
  return Promise.race([promise, sleep(ms).then(() => 'pending' as const)]);
}

/**
 * Opens a transaction on `database` that writes `text` and stays open until `release`
 * is called; answers once it has written (it holds the turn and SQLite's lock then).
 */
async function holdTransaction(database: Database, text: string) {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let began = () => {};
  const begun = new Promise<void>((resolve) => (began = resolve));
  const done = inTransaction(database.db, async (trx) => {
    await sql`insert into notes (text) values (${text})`.execute(trx);
    began();
    await held;
  });
  await begun;
  return { release, done };
}

/**
 * Waits `ms` while `writing` waits for its turn, and checks that it waited awake: a
 * 10 ms timer on this thread ticked at least `ticks` times, and `writing` is still
 * pending. In SQLite's busy handler the thread would sleep: no tick, and a holder on
 * this same thread could never commit, until the busy timeout failed the write.
 */
async function expectWaitingAwake(writing: Promise<unknown>, ms: number, ticks: number) {
  let ticked = 0;
  const ticker = setInterval(() => (ticked += 1), 10);
  try {
    await sleep(ms);
  } finally {
    clearInterval(ticker);
  }
  expect(ticked).toBeGreaterThanOrEqual(ticks);
  expect(await within(writing, 0)).toBe('pending');
}

/** The notes' texts, in the order they were written. */
async function notesOf(database: Database): Promise<string[]> {
  const notes = await sql<{ text: string }>`select text from notes order by id`.execute(
    database.db,
  );
  return notes.rows.map((row) => row.text);
}

describe('write turns of two SQLite connections of one process', () => {
  const opened: Database[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((database) => database.close()));
  });

  const pair = async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'vitro-turn-')), 'vitro.db');
    const config = { dialect: 'sqlite' as const, path, url: `sqlite:${path}` };
    const server = openDatabase(config, { backgroundCheckpoints: true });
    opened.push(server);
    await sql`create table notes (id integer primary key, text text not null)`.execute(server.db);
    expect(server.writeTurn).toBeInstanceOf(SharedArrayBuffer);
    const background = openDatabase(config, { writeTurn: server.writeTurn! });
    opened.push(background);
    expect(background.writeTurn).toBeUndefined();
    return { server, background };
  };

  it("keeps the server's thread running while its transaction waits for the background's", async () => {
    const { server, background } = await pair();
    const backgroundWrite = await holdTransaction(background, 'background');
    const started = performance.now();
    const serverWrite = inTransaction(server.db, (trx) =>
      sql`insert into notes (text) values ('server')`.execute(trx),
    );
    // The server's transaction waits for its turn; this thread goes on meanwhile.
    await expectWaitingAwake(serverWrite, 300, 10);
    backgroundWrite.release();
    await backgroundWrite.done;
    await serverWrite;
    expect(performance.now() - started).toBeLessThan(PATIENCE_MS);
    expect(await notesOf(server)).toEqual(['background', 'server']);
  });

  it('makes a write outside any transaction take its turn too, on either side; a read goes at once', async () => {
    const { server, background } = await pair();
    const insertNote = preparedQuery((db, p: { text: string }) =>
      db.insertInto('notes' as never).values({ text: p.text } as never),
    );
    /** `other` holds a transaction while `writer` makes `writes`; answers the notes in order. */
    const whileHeld = async (
      other: Database,
      writer: Database,
      writes: () => Promise<unknown>[],
    ) => {
      const holding = await holdTransaction(other, 'holder');
      // Reading needs no turn: it goes at once.
      const read = sql<{ n: number }>`select count(*) as n from notes`.execute(writer.db);
      expect(await within(read, 100)).not.toBe('pending');
      const writing = Promise.all(writes());
      await expectWaitingAwake(writing, 200, 5);
      holding.release();
      await holding.done;
      await writing;
      return notesOf(server);
    };
    // The server's own statements, Kysely's and a prepared one's fast path.
    expect(
      await whileHeld(background, server, () => [
        sql`insert into notes (text) values ('kysely')`.execute(server.db),
        insertNote.run(server.db, { text: 'prepared' }),
      ]),
    ).toEqual(['holder', 'kysely', 'prepared']);
    // The background's (a webhook stream's lease is taken so).
    await sql`delete from notes`.execute(server.db);
    expect(
      await whileHeld(server, background, () => [
        sql`update notes set text = 'updated'`.execute(background.db),
      ]),
    ).toEqual(['updated']);
  });

  it('gives the turn back when a transaction fails', async () => {
    const { server, background } = await pair();
    await expect(
      inTransaction(server.db, async (trx) => {
        await sql`insert into notes (text) values ('lost')`.execute(trx);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await expect(
      inTransaction(background.db, (trx) => sql`insert into nope values (1)`.execute(trx)),
    ).rejects.toThrow(/no such table/);
    // Both sides can write at once again, without waiting for PATIENCE_MS.
    const started = performance.now();
    await inTransaction(background.db, (trx) =>
      sql`insert into notes (text) values ('b')`.execute(trx),
    );
    await inTransaction(server.db, (trx) =>
      sql`insert into notes (text) values ('s')`.execute(trx),
    );
    expect(performance.now() - started).toBeLessThan(500);
    const count = await sql<{ n: number }>`select count(*) as n from notes`.execute(server.db);
    expect(count.rows[0]!.n).toBe(2);
  });
});

describe('WriteTurn', () => {
  it('gives a waiting background side the next turn, before the server takes another', async () => {
    const server = new WriteTurn('server');
    const background = new WriteTurn('background', server.buffer);
    await server.take();
    const order: string[] = [];
    const backgroundTurn = background.take().then(() => order.push('background'));
    await sleep(20);
    expect(order).toEqual([]);
    server.give();
    // The server asks again at once; the background side, waiting, goes first.
    const serverTurn = server.take().then(() => order.push('server'));
    await backgroundTurn;
    await sleep(20);
    expect(order).toEqual(['background']);
    background.give();
    await serverTurn;
    expect(order).toEqual(['background', 'server']);
    server.give();
  });

  it('frees the turn of a background thread that ended holding it', async () => {
    const server = new WriteTurn('server');
    const background = new WriteTurn('background', server.buffer);
    await background.take();
    const serverTurn = server.take();
    expect(await within(serverTurn, 50)).toBe('pending');
    WriteTurn.abandon(server.buffer);
    expect(await within(serverTurn, 100)).toBeUndefined();
    server.give();
  });

  it('does not wait long for a background side that wanted the turn and never took it', async () => {
    const server = new WriteTurn('server');
    // A wish left behind (the thread ended between wanting and taking).
    new Int32Array(server.buffer)[1] = 1;
    const started = performance.now();
    await server.take();
    expect(performance.now() - started).toBeLessThan(500);
    server.give();
  });

  it('goes ahead after PATIENCE_MS rather than wait for ever on a turn never given back', async () => {
    const server = new WriteTurn('server');
    const background = new WriteTurn('background', server.buffer);
    await background.take();
    const started = performance.now();
    await server.take();
    expect(performance.now() - started).toBeGreaterThanOrEqual(PATIENCE_MS - 50);
    // It never held the turn, so it gives nothing back: the background side still holds it.
    server.give();
    const again = server.take();
    expect(await within(again, 50)).toBe('pending');
    background.give();
    expect(await within(again, 100)).toBeUndefined();
    server.give();
  }, 15_000);
});
