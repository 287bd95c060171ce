import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';
import { leaseOf } from '../../db/leases.js';
import { drainAll } from './drain.js';

const LEASE = 'insights-drain';
const LEASE_MS = 10 * 60_000;
/** How often the background drain runs; an insight read drains its own lab first anyway. */
export const DRAIN_INTERVAL_MS = 60_000;
const FIRST_RUN_MS = 30_000;

/**
 * Drains every lab's marked explants (`drain.ts`) every minute in every process with
 * background work; processes sharing a database take turns through a lease, so one
 * drain runs at a time (the reminders' way), and reads find little left to do.
 */
export function startInsightsDrain(
  database: Database,
  log: FastifyBaseLogger,
): { stop(): Promise<void> } {
  const holder = randomUUID();
  let stopping = false;
  let running: Promise<unknown> | null = null;
  let timer: NodeJS.Timeout | null = null;
  const { take: lease, release } = leaseOf(database.db, LEASE, holder, LEASE_MS);

  const pass = async () => {
    if (!(await lease(Date.now()))) return;
    try {
      const drained = await drainAll(database.db);
      if (drained > 0)
        log.info({ insights: { drained } }, `insights: ${drained} explants kept anew`);
    } finally {
      await release();
    }
  };

  const schedule = (delay: number) => {
    if (stopping) return;
    timer = setTimeout(() => {
      running = pass()
        .catch((error: unknown) => log.warn({ err: error }, 'insights drain failed'))
        .finally(() => {
          running = null;
          schedule(DRAIN_INTERVAL_MS);
        });
    }, delay);
    timer.unref();
  };
  schedule(FIRST_RUN_MS);

  return {
    async stop() {
      stopping = true;
      if (timer !== null) clearTimeout(timer);
      await running;
    },
  };
}
