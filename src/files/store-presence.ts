import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../db/database.js';

/**
 * How processes on one PostgreSQL database tell whether they share their photos.
 * A local file store has an identity (`<root>/.store-id`, a random id written
 * once): processes whose stores carry the same id share one directory (a
 * network mount), others do not. Each process serving from a local store keeps
 * one idle PostgreSQL connection named after its store's id, which PostgreSQL
 * lists (pg_stat_activity) while, and only while, the process lives. No table,
 * no heartbeat, nothing left behind by a crash.
 */
const STORE_ID_FILE = '.store-id';
const APPLICATION_PREFIX = 'vitro-file-store:';
/** How often a serving process looks again. */
const CHECK_EVERY_MS = 60_000;

/** The store's identity, created the first time it is asked for. */
export async function storeId(root: string, create: boolean): Promise<string | null> {
  const path = join(root, STORE_ID_FILE);
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT' || !create) return null;
  }
  await mkdir(root, { recursive: true, mode: 0o700 });
  const id = randomUUID();
  try {
    await writeFile(path, `${id}\n`, { mode: 0o600, flag: 'wx' });
    return id;
  } catch {
    // Another process wrote it first: theirs holds.
    return (await readFile(path, 'utf8')).trim();
  }
}

/** Connections of live processes serving from a local file store other than `root`'s. */
export async function otherFileStores(database: Database, root: string): Promise<number> {
  const own = await storeId(root, false);
  const { rows } = await sql<{ n: number }>`
    select count(*) as n from pg_stat_activity
    where application_name like ${`${APPLICATION_PREFIX}%`}
      and application_name <> ${`${APPLICATION_PREFIX}${own ?? ''}`}`.execute(database.db);
  return Number(rows[0]!.n);
}

export interface StorePresence {
  stop(): Promise<void>;
}

/**
 * Announces this process's local file store on PostgreSQL and warns, at start
 * and whenever the number changes, when other processes serve the same database
 * from stores of their own: a photo uploaded through one would not be served by
 * the others.
 */
export async function startStorePresence(
  url: string,
  database: Database,
  root: string,
  warn: (message: string, others: number) => void,
): Promise<StorePresence> {
  const id = await storeId(root, true);
  const client = new pg.Client({
    connectionString: url,
    application_name: `${APPLICATION_PREFIX}${id}`,
  });
  client.on('error', () => undefined);
  await client.connect();
  let reported = 0;
  const check = async () => {
    const others = await otherFileStores(database, root);
    if (others > 0 && others !== reported) {
      warn(
        `${others} other Vitro process(es) use this PostgreSQL database with a local file store ` +
          `of their own (this one: STORAGE_URL=file:${root}): a photo uploaded through one is ` +
          'not served by the others; set STORAGE_URL to an S3 bucket (or a directory all ' +
          'processes share) on every process',
        others,
      );
    }
    reported = others;
  };
  await check();
  const timer = setInterval(() => void check().catch(() => undefined), CHECK_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await client.end().catch(() => undefined);
    },
  };
}
