// What the focused benches (lineage, insights) share: a database of either kind seeded
// by the bench, then the built app over it with limits out of the way, timed through
// app.inject (the whole kernel, no socket).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../dist/app.js';
import { loadConfig } from '../dist/config.js';
import { openDatabase } from '../dist/db/database.js';
import { removeSqliteFiles } from './seed.mjs';

/** The value at quantile `p` of sorted values. */
export const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

export const ms = (value) => value.toFixed(1);

/**
 * A fresh SQLite file (`url` a path) or a PostgreSQL database (`url` its address)
 * given to `seed`, then the app over it: `{ app, seeded }` (what `seed` answered).
 */
export async function seededApp(name, url, label, seed) {
  const config =
    name === 'sqlite'
      ? { dialect: 'sqlite', path: url, url: `sqlite:${url}` }
      : { dialect: 'postgres', url };
  if (name === 'sqlite') removeSqliteFiles(url);
  const database = openDatabase(config);
  const seeded = await seed(database);
  // What autovacuum would soon do on a live server (run.mjs's seed does the same):
  // without statistics the planner guesses, and changes its plans when they come mid-run.
  if (name !== 'sqlite') await sql`analyze`.execute(database.db);
  await database.close();
  const app = await buildApp(
    loadConfig({
      DATABASE_URL: name === 'sqlite' ? `sqlite:${url}` : url,
      VITRO_DATA_DIR: mkdtempSync(join(tmpdir(), `vitro-${label}-bench-`)),
      VITRO_SECRET: `${label}-bench-`.repeat(4),
      LOG_LEVEL: 'silent',
      VITRO_RATE_LIMIT_KEY_PER_MIN: '100000000',
      VITRO_RATE_LIMIT_WORKSPACE_PER_MIN: '100000000',
    }),
    { readingsMaintenance: false },
  );
  return { app, seeded };
}
