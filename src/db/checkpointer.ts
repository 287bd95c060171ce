import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the background connection copies the write-ahead log into the database. */
const CHECKPOINT_INTERVAL_MS = 100;

/**
 * The server's own connection then checkpoints only when the log passes this many
 * pages (16 MB at 4 KB pages): a safety net that finds the pages already copied,
 * and what lets the log start again from its beginning (SQLite restarts it when a
 * writer begins on a fully copied log, which a concurrent copier rarely leaves).
 */
export const BACKGROUND_AUTOCHECKPOINT_PAGES = 4000;

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
const timer = setInterval(() => checkpoint.run(), workerData.intervalMs);
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

/**
 * Moves SQLite's WAL checkpoints off the server's thread. By default the
 * connection that commits a transaction pushing the log past 1,000 pages copies
 * the log back into the database file and syncs it, inside that request: on the
 * readings ingest that was a quarter of the event loop's time. Here a worker
 * thread with its own connection does the copying every 100 ms, in parallel with
 * the writer. When the worker fails (it cannot open the file, it throws), `onFailure`
 * is told, so the caller can let its own connection checkpoint inline again.
 */
export function startCheckpointer(
  path: string,
  onFailure: (error: unknown) => void,
  intervalMs: number = CHECKPOINT_INTERVAL_MS,
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, path, intervalMs },
  });
  let stopping = false;
  let failed = false;
  const fail = (error: unknown) => {
    if (stopping || failed) return;
    failed = true;
    onFailure(error);
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
