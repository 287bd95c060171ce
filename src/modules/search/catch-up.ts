import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';
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
): { stop(): Promise<void> } {
  if (database.dialect !== 'sqlite') return { stop: async () => {} };
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    running ??= catchUpSearchIndex(database.db)
      .catch((error: unknown) =>
        log.warn({ err: error }, 'could not take new documents into the search index'),
      )
      .finally(() => (running = null));
  }, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
