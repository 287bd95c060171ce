import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';
import { every, type Repeating } from '../../lib/every.js';
import { catchUpSearchIndex } from './search.repository.js';

/** How often the search index takes in new documents when no search asked first. */
export const SEARCH_CATCH_UP_MS = 1_000;

/**
 * SQLite: takes new documents into the search index every second, so that a search
 * seldom has more than a second of writes to take in before it reads (it always
 * takes them first: see `catchUpSearchIndex`). PostgreSQL: no timer.
 */
export function startSearchCatchUp(
  database: Database,
  log: FastifyBaseLogger,
  intervalMs: number = SEARCH_CATCH_UP_MS,
): Repeating {
  if (database.dialect !== 'sqlite') return { stop: async () => {} };
  return every(
    intervalMs,
    () => catchUpSearchIndex(database.db),
    (error) => log.warn({ err: error }, 'could not take new documents into the search index'),
  );
}
