import { randomUUID } from 'node:crypto';
import { Migrator } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';

/**
 * A database at the schema of migration `at` and those before it: SQLite in memory,
 * or a new PostgreSQL database (dropped on close); `migrateToLatest` upgrades it.
 */
export async function databaseAt(name: 'sqlite' | 'postgres', at: string) {
  let database: Database;
  let drop = async () => undefined as void;
  if (name === 'sqlite') {
    database = openDatabase({ dialect: 'sqlite', path: ':memory:', url: 'sqlite::memory:' });
  } else {
    const url = inject('postgresUrl')!;
    const created = `vitro_migration_${randomUUID().replace(/-/g, '')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${created}`);
    const other = new URL(url);
    other.pathname = `/${created}`;
    database = openDatabase({ dialect: 'postgres', url: other.toString() });
    drop = async () => {
      await admin.query(`drop database ${created}`);
      await admin.end();
    };
  }
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const check = ({ error }: { error?: unknown }) => {
    if (error !== undefined)
      throw error instanceof Error ? error : new Error(JSON.stringify(error));
  };
  check(await migrator.migrateTo(at));
  return {
    database,
    migrateToLatest: async () => check(await migrator.migrateToLatest()),
    close: async () => {
      await database.close();
      await drop();
    },
  };
}
