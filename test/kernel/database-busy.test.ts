import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { buildApp } from '../../src/app.js';
import { body, createLab, testConfig, type Lab } from '../support/harness.js';
import { tempDir } from '../cli/support.js';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/db/database.js';

/**
 * SQLite only (PostgreSQL has row locks): when another process holds the write
 * lock past the busy timeout, a write answers 503 DATABASE_BUSY with Retry-After,
 * never 500, and writes nothing; once the lock is free the same write succeeds.
 */
describe('a write that cannot get the SQLite write lock', () => {
  let database: Database;
  let app: FastifyInstance;
  let lab: Lab;
  let path: string;
  beforeAll(async () => {
    path = join(tempDir(), 'busy.db');
    database = openDatabase({ dialect: 'sqlite', path, url: `sqlite:${path}` });
    await migrateToLatest(database.db);
    app = await buildApp(testConfig(), { logger: false, database });
    await app.ready();
    lab = await createLab(database);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('answers 503 DATABASE_BUSY with Retry-After, then succeeds once the lock is free', async () => {
    const other = new SqliteDatabase(path);
    other.pragma('busy_timeout = 0');
    other.exec('begin immediate');
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/plants',
        headers: { ...lab.owner.headers, 'idempotency-key': 'busy-write-0001' },
        payload: { species: 'Ficus lyrata' },
      });
      expect(res.statusCode).toBe(503);
      expect(body(res)).toMatchObject({ ok: false, code: 'DATABASE_BUSY' });
      expect(res.headers['retry-after']).toBe('1');
      expect(res.headers['x-request-id']).toBeDefined();
    } finally {
      other.exec('rollback');
      other.close();
    }
    const retried = await app.inject({
      method: 'POST',
      url: '/api/v1/plants',
      headers: { ...lab.owner.headers, 'idempotency-key': 'busy-write-0001' },
      payload: { species: 'Ficus lyrata' },
    });
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replay']).toBe('false');
    const list = await app.inject({
      method: 'GET',
      url: '/api/v1/plants',
      headers: lab.owner.headers,
    });
    expect(body(list).data).toHaveLength(1);
  }, 30_000);
});
