import { mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { BackupScheduleConfig, Config } from '../config.js';
import type { Database } from '../db/database.js';
import { ARCHIVE_NAME, archiveName, createBackup } from './backup.js';
import { PRIVATE_DIR } from './parts.js';

/** Taken in BACKUP_DIR while a backup runs, so that two processes never write there at once. */
const LOCK_FILE = '.vitro-backup.lock';

/**
 * The time an archive was made, from its name (`vitro-backup-20261126T230000Z.tar.gz`,
 * or `….tar.gz.age` encrypted).
 */
export function archiveTime(name: string): number | null {
  if (!ARCHIVE_NAME.test(name)) return null;
  const s = name.slice('vitro-backup-'.length, 'vitro-backup-'.length + 16);
  return Date.parse(
    `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}Z`,
  );
}

/** The archives in the directory, oldest first. */
export async function listArchives(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => archiveTime(name) !== null).sort();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return [];
    throw error;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/**
 * Takes the directory's lock: a file created exclusively, holding our pid. A
 * lock whose process is gone (it crashed) is taken over. Null when another
 * process holds it.
 */
async function takeLock(dir: string): Promise<(() => Promise<void>) | null> {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
      const holder = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (Number.isSafeInteger(holder) && holder > 0 && processAlive(holder)) return null;
      await rm(path, { force: true });
    }
  }
  return null;
}

export interface BackupSchedule {
  /** Stops the schedule; a backup under way is stopped and its partial archive removed. */
  stop(): Promise<void>;
}

/**
 * Scheduled backups inside the server (BACKUP_DIR, BACKUP_EVERY, BACKUP_KEEP):
 * one archive every BACKUP_EVERY, counted from the newest archive already in
 * the directory (so a restart neither skips nor repeats one), the oldest beyond
 * BACKUP_KEEP deleted after each success. Never two at once: a run still going
 * when the next is due makes it wait, and a lock file keeps other processes
 * out. Each run is logged; /metrics has the last success time, size and
 * duration, the failures and whether one runs.
 */
export function startBackupSchedule(
  config: Config & { backup: BackupScheduleConfig },
  database: Database,
  log: FastifyBaseLogger,
  registry: Registry,
): BackupSchedule {
  const schedule = config.backup;
  const encryption = config.backupEncryption;
  const lastSuccess = new Gauge({
    name: 'vitro_backup_last_success_timestamp_seconds',
    help: 'When the last scheduled backup succeeded (Unix time); 0 before the first',
    registers: [registry],
  });
  const lastSize = new Gauge({
    name: 'vitro_backup_last_size_bytes',
    help: 'Size of the archive of the last successful scheduled backup',
    registers: [registry],
  });
  const lastDuration = new Gauge({
    name: 'vitro_backup_last_duration_seconds',
    help: 'How long the last successful scheduled backup took',
    registers: [registry],
  });
  const failures = new Counter({
    name: 'vitro_backup_failures_total',
    help: 'Scheduled backups that failed since the server started',
    registers: [registry],
  });
  const running = new Gauge({
    name: 'vitro_backup_running',
    help: '1 while a scheduled backup runs',
    registers: [registry],
  });

  const controller = new AbortController();
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<void> | null = null;

  const prune = async () => {
    const archives = await listArchives(schedule.dir);
    for (const name of archives.slice(0, -schedule.keep)) {
      await rm(join(schedule.dir, name), { force: true });
    }
  };

  const run = async () => {
    const started = Date.now();
    await mkdir(schedule.dir, { recursive: true, mode: PRIVATE_DIR });
    const release = await takeLock(schedule.dir);
    if (release === null) {
      log.warn(
        { backup_dir: schedule.dir },
        'scheduled backup skipped: another process is writing a backup into BACKUP_DIR',
      );
      return;
    }
    running.set(1);
    try {
      const summary = await createBackup(config, database, {
        archive: join(schedule.dir, archiveName(new Date(started), encryption !== null)),
        encryption,
        signal: controller.signal,
      });
      lastSuccess.set(Math.floor(Date.now() / 1000));
      lastSize.set(summary.bytes);
      lastDuration.set(summary.duration_ms / 1000);
      await prune();
      log.info(
        { archive: summary.archive, bytes: summary.bytes, duration_ms: summary.duration_ms },
        'scheduled backup written',
      );
    } catch (error) {
      if (controller.signal.aborted) {
        log.warn('scheduled backup stopped: the server is shutting down');
        return;
      }
      failures.inc();
      log.error({ err: error, backup_dir: schedule.dir }, 'scheduled backup failed');
    } finally {
      running.set(0);
      await release();
    }
  };

  const plan = (delayMs: number) => {
    if (controller.signal.aborted) return;
    timer = setTimeout(
      () => {
        const started = Date.now();
        current = run().finally(() => {
          current = null;
          plan(Math.max(0, started + schedule.everyMs - Date.now()));
        });
      },
      Math.min(delayMs, 2 ** 31 - 1),
    );
    // A server that is otherwise done does not stay up for its next backup.
    timer.unref();
  };

  // The first one is due BACKUP_EVERY after the newest archive there (now when none is).
  void listArchives(schedule.dir).then(
    (archives) => {
      const newest = archives.length > 0 ? archiveTime(archives.at(-1)!) : null;
      if (newest !== null) lastSuccess.set(Math.floor(newest / 1000));
      plan(newest === null ? 0 : Math.max(0, newest + schedule.everyMs - Date.now()));
    },
    (error: unknown) => {
      log.error({ err: error, backup_dir: schedule.dir }, 'BACKUP_DIR cannot be read');
      plan(schedule.everyMs);
    },
  );

  return {
    async stop() {
      controller.abort();
      if (timer !== null) clearTimeout(timer);
      await current;
    },
  };
}
