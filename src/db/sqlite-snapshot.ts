import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** What a snapshot read in the same transaction as the copy: it describes the copy exactly. */
export interface SqliteSnapshot {
  readonly migrations: string[];
  readonly records: Record<string, number>;
  readonly pages: number;
}

export interface SnapshotProgress {
  readonly totalPages: number;
  readonly remainingPages: number;
}

/**
 * The worker: its own connection to the live database. It opens a read
 * transaction first and holds it for the whole copy, so the online backup copies
 * one snapshot while writers go on (WAL mode lets them): without it, SQLite
 * restarts the copy from the first page whenever another connection commits,
 * and under steady writes a large copy would never end. Pages go in steps of
 * 256 (1 MB), each step a message to the parent for progress. CommonJS source
 * run with `eval`, like the checkpointer, so the built server and the tests run
 * the same code.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const source = new Database(workerData.source, { fileMustExist: true });
source.pragma('busy_timeout = 5000');
(async () => {
  source.exec('begin');
  try {
    const tables = source
      .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")
      .pluck()
      .all();
    const migrations = tables.includes('kysely_migration')
      ? source.prepare('select name from kysely_migration order by name').pluck().all()
      : [];
    const records = {};
    if (workerData.count) {
      for (const table of tables) {
        if (table.startsWith('kysely_')) continue;
        records[table] = source.prepare('select count(*) from "' + table.replace(/"/g, '""') + '"').pluck().get();
      }
    }
    const result = await source.backup(workerData.destination, {
      progress: ({ totalPages, remainingPages }) => {
        parentPort.postMessage({ kind: 'progress', totalPages, remainingPages });
        return 256;
      },
    });
    // A file that stands alone: no -wal or -shm appears beside it when it is opened.
    const copy = new Database(workerData.destination, { fileMustExist: true });
    copy.pragma('journal_mode = DELETE');
    copy.close();
    parentPort.postMessage({ kind: 'done', migrations, records, pages: result.totalPages });
  } finally {
    source.exec('commit');
    source.close();
  }
})().catch((error) => {
  parentPort.postMessage({ kind: 'failed', message: error && error.message ? error.message : String(error), code: error && error.code });
});
`;

interface WorkerMessage {
  kind: 'progress' | 'done' | 'failed';
  totalPages?: number;
  remainingPages?: number;
  migrations?: string[];
  records?: Record<string, number>;
  pages?: number;
  message?: string;
  code?: string;
}

/**
 * Copies the live SQLite database at `source` into a new file `destination` with
 * SQLite's online backup, on a worker thread so that a server taking the backup
 * keeps answering. The copy is one consistent snapshot: every transaction
 * committed before it began, none after, never part of one. With `count`, the
 * rows of every table in that snapshot are counted too.
 */
export function snapshotSqlite(
  source: string,
  destination: string,
  options: {
    count?: boolean;
    onProgress?: (progress: SnapshotProgress) => void;
    signal?: AbortSignal;
  } = {},
): Promise<SqliteSnapshot> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, source, destination, count: options.count ?? false },
  });
  return new Promise<SqliteSnapshot>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      outcome();
      void worker.terminate();
    };
    const onAbort = () => settle(() => reject(new Error('the backup was stopped')));
    if (options.signal?.aborted === true) onAbort();
    options.signal?.addEventListener('abort', onAbort);
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'progress') {
        options.onProgress?.({
          totalPages: message.totalPages ?? 0,
          remainingPages: message.remainingPages ?? 0,
        });
      } else if (message.kind === 'done') {
        settle(() =>
          resolve({
            migrations: message.migrations ?? [],
            records: message.records ?? {},
            pages: message.pages ?? 0,
          }),
        );
      } else {
        const error = Object.assign(new Error(message.message ?? 'the backup failed'), {
          code: message.code,
        });
        settle(() => reject(error));
      }
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) =>
      settle(() => reject(new Error(`the backup worker exited with code ${code}`))),
    );
  });
}
