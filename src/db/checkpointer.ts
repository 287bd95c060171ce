import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the background connection copies the write-ahead log into the database. */
const CHECKPOINT_INTERVAL_MS = 100;

/**
 * A log this long (pages; 16 MB at 4 KB pages) that the worker has copied whole is
 * started again from its beginning. SQLite restarts it when a writer begins on a
 * fully copied log, which a concurrent copier rarely leaves while writes go on
 * (the log grew to 4.5 GB while 1 M readings were deleted), so the worker tells the
 * server's connection, which, between transactions, copies the pages written since
 * (see `onCopied`). That costs the server's thread about 15 ms (the database file's
 * sync), outside any transaction; 4,000 pages keep it to one every 16 MB written.
 */
export const RESTART_PAGES = 4000;

/** SQLite's own threshold, for a connection that checkpoints inline. */
export const INLINE_AUTOCHECKPOINT_PAGES = 1000;

/**
 * The worker: its own connection to the same file, running passive checkpoints
 * (which never wait for, nor hold up, the writer) until told to stop. CommonJS
 * source run with `eval`, so the same code serves the built server and the tests.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
const checkpoint = db.prepare('pragma wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  const { log, checkpointed } = checkpoint.get();
  if (log >= workerData.restartPages && checkpointed === log) parentPort.postMessage('copied');
}, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Stops the worker and closes its connection. */
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  /** The worker failed (it cannot open the file, it threw): checkpoint inline again. */
  onFailure: (error: unknown) => void;
  /**
   * The worker copied a log of RESTART_PAGES or more whole: a checkpoint on the
   * writer's connection now copies only what was written since, and the next
   * transaction that writes starts the log again.
   */
  onCopied?: () => void;
  intervalMs?: number;
}

/**
 * Moves SQLite's WAL checkpoints off the server's thread. By default the
 * connection that commits a transaction pushing the log past 1,000 pages copies
 * the log back into the database file and syncs it, inside that commit: on the
 * readings ingest that was a quarter of the event loop's time, and a retention
 * batch that took 10 ms to delete took up to 68 ms to commit. Here a worker thread
 * with its own connection does the copying every 100 ms, in parallel with the
 * writer, whose connection never checkpoints inside a commit.
 */
export function startCheckpointer(path: string, options: CheckpointerOptions): Checkpointer {
  const intervalMs = options.intervalMs ?? CHECKPOINT_INTERVAL_MS;
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, path, intervalMs, restartPages: RESTART_PAGES },
  });
  worker.on('message', () => options.onCopied?.());
  let stopping = false;
  let failed = false;
  const fail = (error: unknown) => {
    if (stopping || failed) return;
    failed = true;
    options.onFailure(error);
  };
  worker.on('error', fail);
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', (code) => {
      fail(new Error(`the checkpoint worker exited with code ${code}`));
      resolve();
    });
  });
  // A server that is otherwise done must not stay up for its checkpointer.
  worker.unref();
  return {
    async stop() {
      stopping = true;
      // Held again until it has closed its connection, or a process that waits for
      // nothing else would end (unsettled) before the worker's exit is seen.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
