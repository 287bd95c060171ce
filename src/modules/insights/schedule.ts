import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';
import { leaseOf } from '../../db/leases.js';
import { every, type Repeating } from '../../lib/every.js';
import { drainAll } from './drain.js';

/** How often the background drain runs; an insight read drains its own lab first anyway. */
export const DRAIN_INTERVAL_MS = 60_000;
/** The longest a drain holds its lease (a big lab's first drain takes minutes). */
const LEASE_MS = 10 * 60_000;

/**
 * Drains every lab's marked explants (`drain.ts`) every minute in every process with
 * background work; processes sharing a database take turns through a lease, so one
 * drain runs at a time (the reminders' way), and reads find little left to do.
 */
export function startInsightsDrain(database: Database, log: FastifyBaseLogger): Repeating {
  const lease = leaseOf(database.db, 'insights-drain', randomUUID(), LEASE_MS);
  return every(
    DRAIN_INTERVAL_MS,
    async () => {
      if (!(await lease.take(Date.now()))) return;
      try {
        const drained = await drainAll(database.db);
        if (drained.explants > 0) {
          log.info(
            { insights: drained },
            `insights: ${drained.explants} explants kept anew (${drained.appended} by added transfers)`,
          );
        }
      } finally {
        await lease.release();
      }
    },
    (error) => log.warn({ err: error }, 'insights drain failed'),
  );
}
