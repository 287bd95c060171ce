import { randomUUID } from 'node:crypto';
import { clearTimeout, setTimeout } from 'node:timers';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';
import { leaseOf } from '../../db/leases.js';
import {
  ensureReadingPartitions,
  removeExpiredReadings,
  type RetentionReport,
} from './retention.runner.js';

/**
 * The readings' periodic upkeep, in every server process: once an hour (and a
 * minute after start), make next months' partitions (PostgreSQL) and remove raw
 * readings past their retention. Processes sharing a database take turns through
 * a lease, so a run happens in one of them at a time; a process that dies holding
 * it leaves it to the others once it expires.
 */

const LEASE = 'readings-maintenance';
const LEASE_MS = 10 * 60_000;
const INTERVAL_MS = 60 * 60_000;
const FIRST_RUN_MS = 60_000;

export interface MaintenanceRun {
  /** Partitions made (PostgreSQL). */
  partitions: string[];
  retention: RetentionReport;
}

export interface ReadingsMaintenance {
  /** Runs now (or joins the run under way); null when another process holds the lease. */
  runNow(now?: Date): Promise<MaintenanceRun | null>;
  /** Stops the schedule and waits for a run under way to stop between batches. */
  stop(): Promise<void>;
}

export function startReadingsMaintenance(
  database: Database,
  options: {
    defaultDays: number | null;
    log: FastifyBaseLogger;
    /** Runs on its own every hour; false: only when asked (runNow). */
    schedule: boolean;
    /** SQLite: the time one removal batch aims at. */
    batchTargetMs?: number;
  },
): ReadingsMaintenance {
  const holder = randomUUID();
  let stopping = false;
  let running: Promise<MaintenanceRun | null> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const { take: lease, release } = leaseOf(database.db, LEASE, holder, LEASE_MS);

  const run = async (now: Date): Promise<MaintenanceRun | null> => {
    let renewedAt = Date.now();
    if (!(await lease(renewedAt))) return null;
    try {
      const partitions = await ensureReadingPartitions(database, now);
      const retention = await removeExpiredReadings(database, {
        defaultDays: options.defaultDays,
        now,
        shouldStop: () => stopping,
        ...(options.batchTargetMs === undefined ? {} : { batchTargetMs: options.batchTargetMs }),
        between: async () => {
          // A long removal keeps its lease (renewed at half its time).
          if (Date.now() - renewedAt < LEASE_MS / 2) return;
          renewedAt = Date.now();
          await lease(renewedAt);
        },
      });
      if (partitions.length > 0 || retention.workspaces > 0 || retention.dropped.length > 0) {
        options.log.info(
          { partitions, retention },
          `readings upkeep: ${retention.deleted} raw readings deleted, ` +
            `${retention.dropped.length} partitions dropped, ${partitions.length} made`,
        );
      }
      return { partitions, retention };
    } finally {
      await release();
    }
  };

  const runNow = (now: Date = new Date()): Promise<MaintenanceRun | null> => {
    running ??= run(now).finally(() => {
      running = null;
    });
    return running;
  };

  const schedule = (delay: number) => {
    if (stopping || !options.schedule) return;
    timer = setTimeout(() => {
      runNow()
        .catch((error: unknown) => options.log.warn({ err: error }, 'readings upkeep failed'))
        .finally(() => schedule(INTERVAL_MS));
    }, delay);
    // A server that is otherwise done does not stay up for it.
    timer.unref();
  };
  schedule(FIRST_RUN_MS + Math.floor(Math.random() * FIRST_RUN_MS));

  return {
    runNow,
    async stop() {
      stopping = true;
      if (timer !== null) clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
