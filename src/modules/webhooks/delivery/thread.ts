/**
 * The webhook delivery thread (delivery-thread.ts): a DeliveryWorker on its own
 * database connection, telling its parent how the streams progress and what it
 * logs, until told to stop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../../db/database.js';
import type { ThreadData, ThreadMessage } from './delivery-thread.js';
import { slowAttempts } from './pressure.js';
import { targetPolicy } from '../target.js';
import { DeliveryWorker } from './worker.js';

const port = parentPort!;
const data = workerData as ThreadData;
const tell = (message: ThreadMessage) => port.postMessage(message);

/** An error as plain fields: a thread's message keeps an Error's message, not its code. */
function plain(fields: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] =
      value instanceof Error
        ? { ...value, type: value.name, message: value.message, stack: value.stack }
        : value;
  }
  return out;
}

/** Deliveries use few connections at once: one per endpoint streamed, and the retries. */
const POOL_SIZE = 4;

// The server's connection (or its checkpointer) copies SQLite's log back, not this one.
// On PostgreSQL every write of delivery may be lost in a crash and done again: its
// commits need not wait for the disk.
const database = openDatabase(data.database, {
  poolSize: POOL_SIZE,
  checkpointsElsewhere: true,
  asyncCommits: true,
  ...(data.writeTurn !== undefined ? { writeTurn: data.writeTurn } : {}),
});
const worker = new DeliveryWorker({
  database,
  policy: targetPolicy(data.webhooks),
  timeoutMs: data.webhooks.timeoutMs,
  log: {
    warn: (fields: object, message: string) =>
      tell({ kind: 'warn', fields: plain(fields), message }),
  },
  ...(data.pollMs !== undefined ? { pollMs: data.pollMs } : {}),
  pressure: {
    read: (endpointId, oldest) => tell({ kind: 'read', endpointId, oldest }),
    finished: (endpointId, made, next) =>
      tell({
        kind: 'ended',
        endpointId,
        made: { sent: made.length, slow: slowAttempts(made) },
        next,
      }),
  },
});
worker.start();

port.once('message', () => {
  void (async () => {
    await worker.stop();
    await database.close();
    port.close();
  })();
});
