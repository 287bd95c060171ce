import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely, type Transaction } from 'kysely';
import pg from 'pg';
import { describe, expect, inject, it, vi } from 'vitest';
import { RESTART_PAGES, startCheckpointer } from '../../src/db/checkpointer.js';
import { openDatabase, type Database, type Db } from '../../src/db/database.js';
import { bulkInsert } from '../../src/db/bulk-insert.js';
import { preparedQuery } from '../../src/db/prepared.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import type { DB } from '../../src/db/schema.js';
import { runNodeScript } from '../support/node-script.js';
import { describeOnDatabases } from '../support/suite.js';

describeOnDatabases('database', (target) => {
  it('runs migrations once; running them again is a no-op', async () => {
    const database = await target.open();
    try {
      const again = await migrateToLatest(database.db);
      expect(again.applied).toEqual([]);
      const rows = await database.db
        .selectFrom('kysely_migration' as never)
        .select(sql<string>`name`.as('name'))
        .execute();
      expect(rows.map((r) => r.name).sort()).toEqual(Object.keys(migrations).sort());
    } finally {
      await database.close();
    }
  });

  // pg's promise form kept each answer alive through young-generation collections
  // (database.ts); the callback form does not. This pins the form, and that answers
  // and failures still reach Kysely as before.
  it.runIf(target.name === 'postgres')(
    "runs every query in pg's callback form; rows and server errors arrive as before",
    async () => {
      const query = vi.spyOn(pg.Client.prototype, 'query');
      const database = await target.open();
      try {
        const answer = await sql<{ n: number }>`select n from generate_series(1, 3) as n`.execute(
          database.db,
        );
        expect(answer.rows).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
        await expect(sql`select * from no_such_table`.execute(database.db)).rejects.toMatchObject({
          code: '42P01',
        });
        await database.db.transaction().execute(async (trx) => {
          await sql`select 1`.execute(trx);
        });
        const forms = query.mock.calls.map((args) => typeof args[2]);
        expect(forms.length).toBeGreaterThanOrEqual(5);
        expect(forms.every((form) => form === 'function')).toBe(true);
      } finally {
        query.mockRestore();
        await database.close();
      }
    },
  );

  // A throwaway table of the connection (pool of one): what a prepared query reads.
  const probeTable = async (db: Db) => {
    await sql`create temporary table probe (id text primary key, body text not null)`.execute(db);
    await sql`insert into probe values ('a', 'first'), ('b', 'second')`.execute(db);
  };
  const probe = preparedQuery((db, p: { id: string }) =>
    (db as unknown as Kysely<{ probe: { id: string; body: string } }>)
      .selectFrom('probe')
      .select(['id', 'body'])
      .where('id', '=', p.id),
  );
  // A table of the test's own, outside the schema's types.
  const probeInsert = bulkInsert('probe' as 'explants', { id: 'text', body: 'text' } as never);
  const kept = async (db: Db) =>
    (
      await sql<{ name: string; statement: string }>`select name, statement
        from pg_prepared_statements order by name`.execute(db)
    ).rows;

  it.runIf(target.name === 'postgres')(
    'keeps each prepared query by name on a connection, parsed once; none with the setting off',
    async () => {
      const url = inject('postgresUrl')!;
      const named = openDatabase({ dialect: 'postgres', url }, { poolSize: 1 });
      const plain = openDatabase(
        { dialect: 'postgres', url, preparedStatements: false },
        { poolSize: 1 },
      );
      const query = vi.spyOn(pg.Client.prototype, 'query');
      const textOf = (first: unknown) =>
        typeof first === 'string' ? first : String((first as { text?: unknown }).text);
      try {
        for (const database of [named, plain]) {
          await probeTable(database.db);
          expect(await probe.first(database.db, { id: 'a' })).toEqual({ id: 'a', body: 'first' });
          expect(await probe.first(database.db, { id: 'b' })).toEqual({ id: 'b', body: 'second' });
        }
        const statements = await kept(named.db);
        expect(statements).toEqual([
          {
            name: expect.stringMatching(/^vitro_\d+$/),
            statement: expect.stringMatching(/"probe"/),
          },
        ]);
        // A bulk insert's text is fixed whatever the rows (arrays unnested): kept too.
        for (const database of [named, plain]) {
          for (const rows of [
            [{ id: 'c', body: 'third' }],
            [
              { id: 'd', body: 'x' },
              { id: 'e', body: 'y' },
            ],
          ]) {
            await database.db.transaction().execute((trx) => probeInsert.run(trx, rows as never));
          }
          expect(await probe.first(database.db, { id: 'e' })).toEqual({ id: 'e', body: 'y' });
        }
        const after = (await kept(named.db)).map((row) => row.statement).sort();
        expect(after).toHaveLength(2);
        expect(after).toContain(statements[0]!.statement);
        expect(after.find((text) => text !== statements[0]!.statement)).toMatch(
          /^insert into "probe" \("id", "body"\) select \* from unnest/,
        );
        expect(await kept(plain.db)).toEqual([]);
        const inserts = query.mock.calls.filter((args) => textOf(args[0]).includes('from unnest'));
        expect(inserts.map((args) => typeof args[0] === 'object')).toEqual([
          true,
          true,
          false,
          false,
        ]);
        // Both runs of the named pool went by that name; the other pool's by text alone.
        const probes = query.mock.calls.filter((args) => textOf(args[0]).includes('from "probe"'));
        const names = probes.map((args) => (args[0] as { name?: string }).name);
        const name = statements[0]!.name;
        // Each pool read 'a' and 'b', then (after the inserts) 'e'.
        expect(names).toEqual([name, name, undefined, undefined, name, undefined]);
        // Still pg's callback form (see above), the values beside the query.
        expect(probes.map((args) => [typeof args[1], typeof args[2]])).toEqual(
          Array(6).fill(['object', 'function']),
        );
      } finally {
        query.mockRestore();
        await named.close();
        await plain.close();
      }
    },
  );

  // A release's migrations add columns while servers of the one before still run
  // (docs/upgrading.md): what those servers keep by name must go on answering.
  it.runIf(target.name === 'postgres')(
    'a query kept by name answers as before once a migration adds a column to its table',
    async () => {
      const database = openDatabase(
        { dialect: 'postgres', url: inject('postgresUrl')! },
        { poolSize: 1 },
      );
      try {
        await probeTable(database.db);
        for (let run = 0; run < 7; run++) await probe.first(database.db, { id: 'a' });
        expect(await kept(database.db)).toHaveLength(1);
        await sql`alter table probe add column added text`.execute(database.db);
        expect(await probe.first(database.db, { id: 'a' })).toEqual({ id: 'a', body: 'first' });
        // What the rule against * in prepared.ts guards against: PostgreSQL's refusal.
        await sql`prepare every_column as select * from probe where id = $1`.execute(database.db);
        await sql`execute every_column('a')`.execute(database.db);
        await sql`alter table probe add column later text`.execute(database.db);
        await expect(sql`execute every_column('a')`.execute(database.db)).rejects.toThrow(
          /cached plan must not change result type/,
        );
      } finally {
        await database.close();
      }
    },
  );

  it('refuses a prepared query that selects * (PostgreSQL keeps it by name)', async () => {
    const database = await target.open();
    try {
      const everything = preparedQuery((db, p: { id: string }) =>
        db.selectFrom('workspaces').selectAll().where('id', '=', p.id),
      );
      const joined = preparedQuery((db, p: { id: string }) =>
        db
          .selectFrom('explants as x')
          .innerJoin('workspaces as w', 'w.id', 'x.workspace_id')
          .selectAll('x')
          .select('w.name')
          .where('x.id', '=', p.id),
      );
      const counted = preparedQuery((db, p: { id: string }) =>
        db
          .selectFrom('explants')
          .select((c) => c.fn.countAll<number>().as('n'))
          .where('workspace_id', '=', p.id),
      );
      await expect(everything.first(database.db, { id: 'x' })).rejects.toThrow(
        /must name its columns/,
      );
      await expect(joined.first(database.db, { id: 'x' })).rejects.toThrow(/must name its columns/);
      expect(Number((await counted.first(database.db, { id: 'x' }))?.n)).toBe(0);
    } finally {
      await database.close();
    }
  });

  // The webhook delivery thread's pool (thread.ts): its writes are done again after a crash.
  it.runIf(target.name === 'postgres')(
    "commits without waiting for the disk only on a pool opened so; the server's wait",
    async () => {
      const url = inject('postgresUrl')!;
      // The value in force and where it comes from: `client` is what a connection asked for.
      const setting = async (db: Database['db'] | Transaction<DB>) =>
        (
          await sql<{ setting: string; source: string }>`select setting, source from pg_settings
            where name = 'synchronous_commit'`.execute(db)
        ).rows[0]!;
      const server = openDatabase({ dialect: 'postgres', url });
      const delivery = openDatabase({ dialect: 'postgres', url }, { asyncCommits: true });
      try {
        // The server's pool keeps the cluster's own setting (CI's throwaway cluster turns it off).
        expect((await setting(server.db)).source).not.toBe('client');
        expect(await setting(delivery.db)).toEqual({ setting: 'off', source: 'client' });
        // Every connection of the pool, and inside transactions too.
        const inside = await Promise.all(
          [1, 2, 3].map(() =>
            delivery.db.transaction().execute(async (trx) => {
              await sql`select pg_sleep(0.05)`.execute(trx);
              return setting(trx);
            }),
          ),
        );
        expect(inside).toEqual(Array(3).fill({ setting: 'off', source: 'client' }));
      } finally {
        await server.close();
        await delivery.close();
      }
    },
  );
});

describe('SQLite file database', () => {
  it('uses WAL, NORMAL sync, a busy timeout and foreign keys', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'vitro-db-')), 'nested', 'vitro.db');
    const database = openDatabase({ dialect: 'sqlite', path, url: `sqlite:${path}` });
    try {
      const fresh = await migrateToLatest(database.db);
      // A fresh database runs them in name order (the list is in landing order).
      expect(fresh.applied).toEqual(Object.keys(migrations).sort());
      const pragma = async (name: string) =>
        Object.values(
          (await sql.raw(`pragma ${name}`).execute(database.db)).rows[0] as object,
        )[0] as unknown;
      expect(await pragma('journal_mode')).toBe('wal');
      expect(await pragma('synchronous')).toBe(1);
      expect(Number(await pragma('busy_timeout'))).toBeGreaterThanOrEqual(1000);
      expect(await pragma('foreign_keys')).toBe(1);
    } finally {
      await database.close();
    }
  });
});

describe('SQLite background checkpoints (the server)', () => {
  const pageSize = 4096;
  const fileOf = (name: string) => join(mkdtempSync(join(tmpdir(), 'vitro-ckpt-')), name);
  const open = (path: string, backgroundCheckpoints: boolean) =>
    openDatabase({ dialect: 'sqlite', path, url: `sqlite:${path}` }, { backgroundCheckpoints });
  const pragma = async (database: Database, name: string) =>
    Object.values((await sql.raw(`pragma ${name}`).execute(database.db)).rows[0] as object)[0];

  /** Writes about `pages` pages in 50 transactions; returns the rows written. */
  const fill = async (database: Database, pages: number) => {
    await sql`create table filler (id integer primary key, body blob not null)`.execute(
      database.db,
    );
    const perTransaction = Math.ceil((pages * pageSize) / 50 / 1000);
    for (let t = 0; t < 50; t++) {
      await database.db.transaction().execute(async (trx) => {
        for (let i = 0; i < perTransaction; i++) {
          await sql`insert into filler (body) values (randomblob(1000))`.execute(trx);
        }
      });
    }
    return 50 * perTransaction;
  };

  const waitFor = async (check: () => boolean, ms: number) => {
    const until = Date.now() + ms;
    while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    return check();
  };

  it('copies the write-ahead log into the database file on another thread', async () => {
    const path = fileOf('server.db');
    const database = open(path, true);
    try {
      // The server's own connection never checkpoints inside a commit.
      expect(await pragma(database, 'wal_autocheckpoint')).toBe(0);
      const rows = await fill(database, 2000);
      // The worker copies the pages: the file grows to hold them.
      expect(await waitFor(() => statSync(path).size >= 2000 * pageSize, 3000)).toBe(true);
      expect(await pragma(database, 'wal_autocheckpoint')).toBe(0);
      const count = await sql<{ n: number }>`select count(*) as n from filler`.execute(database.db);
      expect(count.rows[0]!.n).toBe(rows);
    } finally {
      await database.close();
    }
    const again = open(path, false);
    try {
      expect(await pragma(again, 'integrity_check')).toBe('ok');
    } finally {
      await again.close();
    }
  });

  it('starts the log again while writes go on, so it does not grow without bound', async () => {
    const path = fileOf('busy.db');
    const database = open(path, true);
    try {
      await sql`create table filler (id integer primary key, body blob not null)`.execute(
        database.db,
      );
      // 50,000 pages in 500 transactions, a request's pause between them: a log
      // never started again would hold them all (about 205 MB).
      const transactions = 500;
      for (let t = 0; t < transactions; t++) {
        await database.db.transaction().execute(async (trx) => {
          await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 100)
            insert into filler (body) select randomblob(4000) from n`.execute(trx);
        });
        await new Promise((r) => setTimeout(r, 2));
      }
      const count = await sql<{ n: number }>`select count(*) as n from filler`.execute(database.db);
      expect(count.rows[0]!.n).toBe(transactions * 100);
      // Started again once past RESTART_PAGES, give or take what the copier lags behind.
      expect(statSync(`${path}-wal`).size).toBeLessThan(4 * RESTART_PAGES * pageSize);
    } finally {
      await database.close();
    }
  });

  it('leaves short commands to SQLite: without it, pages below the mark stay in the log', async () => {
    const path = fileOf('command.db');
    const database = open(path, false);
    try {
      expect(await pragma(database, 'wal_autocheckpoint')).toBe(1000);
      await sql`pragma wal_autocheckpoint = 4000`.execute(database.db);
      await fill(database, 2000);
      await new Promise((r) => setTimeout(r, 500));
      expect(statSync(path).size).toBeLessThan(100 * pageSize);
    } finally {
      await database.close();
    }
  });

  it('closes in a process that waits for nothing else (the worker is held while it stops)', async () => {
    const path = fileOf('alone.db');
    const script =
      `import { openDatabase } from './src/db/database.ts';\n` +
      `const database = openDatabase({ dialect: 'sqlite', path: ${JSON.stringify(path)}, url: 'sqlite:x' }, { backgroundCheckpoints: true });\n` +
      `await database.close();\nconsole.log('closed');\n`;
    const { code, stdout } = await runNodeScript(script);
    // Without it, Node ends the process with 13 (an unsettled top-level await).
    expect({ code, stdout: stdout.trim() }).toEqual({ code: 0, stdout: 'closed' });
  });

  it('tells its owner when the worker cannot work, so checkpoints go back inline', async () => {
    const failure = await new Promise<unknown>((resolve) => {
      startCheckpointer(join(tmpdir(), `vitro-missing-${Date.now()}`, 'none.db'), {
        onFailure: resolve,
        intervalMs: 10,
      });
    });
    expect(String(failure)).toMatch(/does not exist|unable to open|exited/i);
  });
});
