import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { TEST_SECRET } from '../support/harness.js';
import { tempDir } from '../cli/support.js';
import { GENEROUS_LIMITS } from '../support/helpers.js';

/** A place to back up from and another, empty, to restore into, on one kind of database. */
export interface BackupTarget {
  readonly name: 'sqlite' | 'postgres';
  /** The environment of a lab server with data in it (a fresh data dir; PostgreSQL: the test database). */
  source(): Record<string, string>;
  /** The environment of an empty one (PostgreSQL: a new database, dropped by `cleanup`). */
  empty(): Promise<Record<string, string>>;
  cleanup(): Promise<void>;
}

const base = () => ({ LOG_LEVEL: 'silent', ...GENEROUS_LIMITS });

export function backupTargets(): BackupTarget[] {
  const targets: BackupTarget[] = [
    {
      name: 'sqlite',
      source: () => {
        const dir = tempDir();
        return { ...base(), VITRO_DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'vitro.db')}` };
      },
      empty: async () => {
        const dir = join(tempDir(), 'restored');
        return { ...base(), VITRO_DATA_DIR: dir };
      },
      cleanup: async () => undefined,
    },
  ];
  const postgresUrl = inject('postgresUrl');
  if (postgresUrl !== null) {
    const created: string[] = [];
    const admin = () => openDatabase({ dialect: 'postgres', url: postgresUrl }, { poolSize: 1 });
    targets.push({
      name: 'postgres',
      source: () => ({
        ...base(),
        VITRO_DATA_DIR: tempDir(),
        DATABASE_URL: postgresUrl,
        VITRO_SECRET: TEST_SECRET,
      }),
      empty: async () => {
        const name = `vitro_restore_${randomBytes(6).toString('hex')}`;
        const database = admin();
        try {
          await sql`create database ${sql.id(name)}`.execute(database.db);
        } finally {
          await database.close();
        }
        created.push(name);
        const url = new URL(postgresUrl);
        url.pathname = `/${name}`;
        return {
          ...base(),
          VITRO_DATA_DIR: tempDir(),
          DATABASE_URL: url.toString(),
          VITRO_SECRET: TEST_SECRET,
        };
      },
      cleanup: async () => {
        const database = admin();
        try {
          for (const name of created.splice(0)) {
            await sql`drop database if exists ${sql.id(name)} with (force)`.execute(database.db);
          }
        } finally {
          await database.close();
        }
      },
    });
  }
  return targets;
}
