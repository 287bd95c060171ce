import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';
import { leaseOf } from '../../db/leases.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { runExpiry } from './expiry.js';
import { runReminders } from './reminders.js';

const LEASE = 'notification-reminders';
const LEASE_MS = 5 * 60_000;
/** How often a pass runs: a task due today is told within this of the day's start. */
export const REMINDER_INTERVAL_MS = 5 * 60_000;
const FIRST_RUN_MS = 30_000;

/**
 * Runs the reminders pass, then the expiry pass (`expiry.ts`), every few minutes in
 * every process with background work;
 * processes sharing a database take turns through a lease, so one pass runs at a
 * time (the readings upkeep's way).
 */
export function startReminders(
  database: Database,
  records: RecordLookup,
  log: FastifyBaseLogger,
): { stop(): Promise<void> } {
  const holder = randomUUID();
  let stopping = false;
  let running: Promise<unknown> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const { take: lease, release } = leaseOf(database.db, LEASE, holder, LEASE_MS);

  const pass = async () => {
    const now = Date.now();
    if (!(await lease(now))) return;
    try {
      const report = await runReminders(database, now);
      if (report.told > 0)
        log.info({ reminders: report }, `reminders: ${report.told} notifications`);
      const expired = await runExpiry(database, records, now);
      if (expired.lots + expired.batches > 0) {
        log.info({ expiry: expired }, `expiry: ${expired.lots} lots, ${expired.batches} batches`);
      }
    } finally {
      await release();
    }
  };

  const schedule = (delay: number) => {
    if (stopping) return;
    timer = setTimeout(() => {
      running = pass()
        .catch((error: unknown) => log.warn({ err: error }, 'reminders pass failed'))
        .finally(() => {
          running = null;
          schedule(REMINDER_INTERVAL_MS);
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
