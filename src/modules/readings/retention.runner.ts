import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database, Trx } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import {
  DEFAULT_PARTITION,
  deleteFromPartition,
  dropPartition,
  ensureMonthPartition,
  isLockTimeout,
  listMonthPartitions,
  monthPartition,
  workspacesIn,
} from './partitions.repository.js';
import {
  advanceRawSince,
  deleteReadingsBefore,
  hasReadingsBefore,
  listRetentionSettings,
} from './retention.repository.js';
import { effectiveRetentionDays, retentionCut } from './retention.service.js';

/**
 * One retention run: removes every workspace's raw readings past its retention,
 * while the server keeps serving. On PostgreSQL a month partition whose readings
 * are all past their workspace's retention is dropped; what is left (a partition
 * shared with a workspace that keeps its readings longer, the default partition)
 * is deleted in batches of PG_BATCH rows, each its own transaction. On SQLite the
 * readings are deleted in batches sized to take about SQLITE_BATCH_TARGET_MS each:
 * the write lock is held for one batch at a time, and requests waiting for it go
 * first between batches.
 */

export interface RetentionOptions {
  /** READINGS_RETENTION_DAYS: days, or null for ever. */
  defaultDays: number | null;
  now: Date;
  /** Asked between batches: stop early (the server is closing). */
  shouldStop?: () => boolean;
  /** Called between batches (the runner renews its lease there). */
  between?: () => Promise<void>;
  /** SQLite: the time one batch aims at (default SQLITE_BATCH_TARGET_MS). */
  batchTargetMs?: number;
}

export interface RetentionReport {
  /** Workspaces that lost raw readings in this run (a partition of theirs dropped, or deletes). */
  workspaces: number;
  /** Raw readings removed by deletes (a dropped partition's are not counted one by one). */
  deleted: number;
  /** PostgreSQL partitions dropped, by name. */
  dropped: string[];
  batches: number;
  /**
   * The longest batch, start of its transaction to commit: on SQLite, the write
   * lock's longest hold. The server's connection never checkpoints the log inside a
   * commit (database.ts): SQLite would do it after releasing the lock but in the
   * same call, and that time would be counted here (up to 68 ms seen).
   */
  longestBatchMs: number;
  /** The longest of those batches' commits alone (end of its deletes to commit). */
  longestCommitMs: number;
  /** Batches that held their transaction longer than 50 ms (the goal on SQLite: none). */
  batchesOver50Ms: number;
  /** The run took this long (ms). */
  durationMs: number;
}

/**
 * SQLite: a batch aims at this many ms of write lock, and stops deleting at the
 * deadline whatever it planned: the lock is held well under 50 ms (its commit and
 * the scheduler's whims aside).
 */
export const SQLITE_BATCH_TARGET_MS = 10;
const SQLITE_BATCH_DEADLINE_MS = 25;
const SQLITE_FIRST_BATCH = 200;
const SQLITE_MAX_BATCH = 20_000;
const PG_BATCH = 5_000;
/**
 * Dropping a partition takes the whole table for a moment: it waits for the
 * transactions using it to end, and requests arriving meanwhile wait behind it. It
 * waits at most this long (readings transactions take milliseconds; only a long
 * query keeps it waiting), then tries again a second later, DROP_ATTEMPTS times in
 * all, and else leaves the month to the next run.
 */
const DROP_LOCK_TIMEOUT_MS = 100;
const DROP_ATTEMPTS = 3;

export async function removeExpiredReadings(
  database: Database,
  options: RetentionOptions,
): Promise<RetentionReport> {
  const started = performance.now();
  const { db } = database;
  const report: RetentionReport = {
    workspaces: 0,
    deleted: 0,
    dropped: [],
    batches: 0,
    longestBatchMs: 0,
    longestCommitMs: 0,
    batchesOver50Ms: 0,
    durationMs: 0,
  };
  const stop = options.shouldStop ?? (() => false);
  const cuts = new Map<string, string>();
  for (const row of await listRetentionSettings(db)) {
    const days = effectiveRetentionDays(row.retention_days, options.defaultDays);
    if (days !== null) cuts.set(row.workspace_id, retentionCut(options.now, days));
  }
  if (cuts.size === 0) return finish(report, started);

  /** Runs one batch in its own transaction, timed from its start to its commit. */
  const batch = async (work: (trx: Trx) => Promise<number>): Promise<number> => {
    let began = 0;
    let worked = 0;
    const removed = await inTransaction(db, async (trx) => {
      began = performance.now();
      const result = await work(trx);
      worked = performance.now();
      return result;
    });
    const ended = performance.now();
    const took = ended - began;
    report.batches += 1;
    report.longestBatchMs = Math.max(report.longestBatchMs, took);
    report.longestCommitMs = Math.max(report.longestCommitMs, ended - worked);
    if (took > 50) report.batchesOver50Ms += 1;
    report.deleted += removed;
    await options.between?.();
    return removed;
  };

  const partitions = database.dialect === 'postgres' ? await listMonthPartitions(db) : [];
  /** Partitions left for the next run: dropping them found the table busy. */
  const busy = new Set<string>();
  const touched = new Set<string>();
  if (database.dialect === 'postgres') {
    const latestCut = [...cuts.values()].sort().at(-1)!;
    for (const partition of partitions) {
      if (partition.to > latestCut || stop()) continue;
      const holders = await workspacesIn(db, partition.name);
      const expired = holders.every((id) => (cuts.get(id) ?? '') >= partition.to);
      if (!expired) continue;
      for (let attempt = 1; ; attempt++) {
        try {
          await inTransaction(db, (trx) =>
            dropPartition(trx, partition.name, DROP_LOCK_TIMEOUT_MS),
          );
          report.dropped.push(partition.name);
          for (const id of holders) touched.add(id);
          break;
        } catch (error) {
          if (!isLockTimeout(error)) throw error;
          // Busy: left to the next run (deleting its rows one by one would cost more).
          if (attempt === DROP_ATTEMPTS || stop()) {
            busy.add(partition.name);
            break;
          }
          await sleep(1000);
        }
      }
    }
  }
  const remaining = partitions.filter((p) => !report.dropped.includes(p.name) && !busy.has(p.name));

  for (const [workspaceId, cut] of cuts) {
    if (stop()) break;
    if (!(await hasReadingsBefore(db, workspaceId, cut))) {
      await inTransaction(db, (trx) =>
        advanceRawSince(trx, workspaceId, cut, options.now.toISOString()),
      );
      continue;
    }
    touched.add(workspaceId);
    if (database.dialect === 'postgres') {
      const tables = [
        ...remaining.filter((p) => p.to <= cut).map((p) => p.name),
        DEFAULT_PARTITION,
      ];
      for (const table of tables) {
        while (!stop()) {
          const removed = await batch((trx) =>
            deleteFromPartition(trx, table, workspaceId, cut, PG_BATCH),
          );
          if (removed < PG_BATCH) break;
        }
      }
    } else {
      const target = options.batchTargetMs ?? SQLITE_BATCH_TARGET_MS;
      let limit = SQLITE_FIRST_BATCH;
      while (!stop()) {
        let took = 0;
        let done = false;
        const removed = await batch(async (trx) => {
          const t0 = performance.now();
          const result = deleteReadingsBefore(
            trx,
            workspaceId,
            cut,
            limit,
            t0 + SQLITE_BATCH_DEADLINE_MS,
          );
          took = performance.now() - t0;
          done = result.done;
          return result.removed;
        });
        if (done) break;
        // Aim the next batch at the target from what this one took per row.
        const perRow = took / Math.max(removed, 1);
        limit = Math.min(
          SQLITE_MAX_BATCH,
          Math.max(16, Math.floor(target / Math.max(perRow, 1e-4))),
        );
        // Requests waiting for the database go first.
        await sleep(1);
      }
    }
    if (!stop() && !(await hasReadingsBefore(db, workspaceId, cut))) {
      await inTransaction(db, (trx) =>
        advanceRawSince(trx, workspaceId, cut, options.now.toISOString()),
      );
    }
  }
  report.workspaces = touched.size;
  return finish(report, started);
}

function finish(report: RetentionReport, started: number): RetentionReport {
  report.durationMs = performance.now() - started;
  return report;
}

/** PostgreSQL: the partitions of last month to three months ahead exist (made when missing). */
export async function ensureReadingPartitions(database: Database, now: Date): Promise<string[]> {
  if (database.dialect !== 'postgres') return [];
  const made: string[] = [];
  for (let offset = -1; offset <= 3; offset++) {
    const month = monthPartition(now.getUTCFullYear(), now.getUTCMonth() + offset);
    if (await inTransaction(database.db, (trx) => ensureMonthPartition(trx, month))) {
      made.push(month.name);
    }
  }
  return made;
}
