import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';
import { everyUnderLease } from '../../db/leases.js';
import { drainAll } from './drain.js';

/** How often the background drain runs; an insight read drains its own lab first anyway. */
export const DRAIN_INTERVAL_MS = 60_000;

/**
 * Drains every lab's marked explants (`drain.ts`) every minute in every process with
 * background work, one process at a time (the reminders' way), so reads find little
 * left to do.
 */
export function startInsightsDrain(
  database: Database,
  log: FastifyBaseLogger,
): { stop(): Promise<void> } {
  return everyUnderLease(
    database.db,
    {
      name: 'insights-drain',
      leaseMs: 10 * 60_000,
      firstMs: 30_000,
      everyMs: DRAIN_INTERVAL_MS,
      failure: 'insights drain failed',
      log,
    },
    async () => {
      const drained = await drainAll(database.db);
      if (drained > 0)
        log.info({ insights: { drained } }, `insights: ${drained} explants kept anew`);
    },
  );
}
