import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { startLocalPostgres, startLocalRedis, type LocalService } from './local-services.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string | null;
    redisUrl: string | null;
  }
}

const required = (name: string) => process.env[name] === '1' || process.env[name] === 'true';

/**
 * Finds PostgreSQL (TEST_DATABASE_URL, else a throwaway local cluster) and Redis
 * (TEST_REDIS_URL, else a throwaway local server) for the whole run, migrates the
 * PostgreSQL database once, and says clearly what it skips. With
 * VITRO_TEST_REQUIRE_POSTGRES=1 / VITRO_TEST_REQUIRE_REDIS=1 a missing one fails the run.
 */
export default async function setup(project: TestProject) {
  const started: LocalService[] = [];

  let postgresUrl = process.env.TEST_DATABASE_URL ?? null;
  if (postgresUrl === null) {
    try {
      const pg = await startLocalPostgres();
      if ('skipped' in pg) {
        if (required('VITRO_TEST_REQUIRE_POSTGRES'))
          throw new Error(`PostgreSQL required: ${pg.skipped}`);
        console.warn(
          `\n[vitro tests] PostgreSQL SKIPPED: ${pg.skipped}; running on SQLite only.\n`,
        );
      } else {
        started.push(pg);
        postgresUrl = pg.url;
      }
    } catch (error) {
      if (required('VITRO_TEST_REQUIRE_POSTGRES')) throw error;
      console.warn(`\n[vitro tests] PostgreSQL SKIPPED: could not start one (${String(error)}).\n`);
    }
  }
  if (postgresUrl !== null) {
    const database = openDatabase({ dialect: 'postgres', url: postgresUrl });
    try {
      await migrateToLatest(database.db);
    } finally {
      await database.close();
    }
    console.log(`[vitro tests] PostgreSQL: ${postgresUrl.replace(/\/\/[^@]*@/, '//')}`);
  }

  let redisUrl = process.env.TEST_REDIS_URL ?? null;
  if (redisUrl === null) {
    const redis = await startLocalRedis();
    if ('skipped' in redis) {
      if (required('VITRO_TEST_REQUIRE_REDIS')) throw new Error(`Redis required: ${redis.skipped}`);
      console.warn(
        `\n[vitro tests] Redis SKIPPED: ${redis.skipped}; Redis store tests do not run.\n`,
      );
    } else {
      started.push(redis);
      redisUrl = redis.url;
    }
  }

  project.provide('postgresUrl', postgresUrl);
  project.provide('redisUrl', redisUrl);

  return async () => {
    for (const service of started.reverse()) await service.stop();
  };
}
