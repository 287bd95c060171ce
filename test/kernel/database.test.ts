import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { databaseTargets } from '../support/harness.js';

describe.each(databaseTargets())('database on $name', (target) => {
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
});

describe('SQLite file database', () => {
  it('uses WAL, NORMAL sync, a busy timeout and foreign keys', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'vitro-db-')), 'nested', 'vitro.db');
    const database = openDatabase({ dialect: 'sqlite', path, url: `sqlite:${path}` });
    try {
      const fresh = await migrateToLatest(database.db);
      expect(fresh.applied).toEqual(Object.keys(migrations));
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
