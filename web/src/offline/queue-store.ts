import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/** A refusal in the API's own words, as `call` reads it. */
export interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly error: string;
}

/**
 * One write done on this device and not yet taken by the server: the request as the
 * console would have sent it (method, address, JSON body), its own Idempotency-Key
 * and the time the work was done. `seq` is its place in the order of the work.
 */
export interface QueuedWrite {
  readonly seq: number;
  readonly key: string;
  readonly doneAt: string;
  /** The member who did the work: sent only while they are the one signed in here. */
  readonly by: string;
  readonly kind: string;
  readonly method: string;
  /** The operation's path as the API document names it (`/api/v1/explants/{id}/split`). */
  readonly path: string;
  /** The path's parameters (`{id}`), for sending it again from its form. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The address the request goes to (path parameters filled in). */
  readonly url: string;
  readonly body: unknown;
  /** The console's address of the record the write is about, when there is one. */
  readonly record: string | null;
  /** Sends that reached no answer, or an answer of the server's own trouble (5xx). */
  readonly tries: number;
  /** Why the server refused it (items in "Needs your attention" only). */
  readonly refusal?: Refusal;
}

export type NewWrite = Omit<QueuedWrite, 'seq' | 'tries' | 'refusal'>;

interface WritesDb extends DBSchema {
  /** The writes waiting to send, in the order they were done. */
  waiting: { key: number; value: QueuedWrite };
  /** The writes the server refused, kept until someone fixes or drops them. */
  attention: { key: number; value: QueuedWrite };
}

/** The console's own database of writes; the cached reads keep theirs apart. */
const NAME = 'vitro-writes';
let opened: Promise<IDBPDatabase<WritesDb>> | null = null;

function db(): Promise<IDBPDatabase<WritesDb>> {
  opened ??= openDB<WritesDb>(NAME, 1, {
    upgrade(database) {
      database.createObjectStore('waiting', { keyPath: 'seq', autoIncrement: true });
      database.createObjectStore('attention', { keyPath: 'seq' });
    },
  });
  return opened;
}

/** Keeps a write at the end of the queue; its place in the order is the answer. */
export async function addWaiting(write: NewWrite): Promise<number> {
  // The seq is given by the store (autoIncrement): absent from what is put.
  return (await db()).add('waiting', { ...write, tries: 0 } as QueuedWrite);
}

/** A member's writes waiting to send, in the order they were done. */
export async function waiting(by: string): Promise<QueuedWrite[]> {
  return (await (await db()).getAll('waiting')).filter((write) => write.by === by);
}

/** The write a member did first of those waiting. */
export async function firstWaiting(by: string): Promise<QueuedWrite | undefined> {
  let cursor = await (await db()).transaction('waiting').store.openCursor();
  while (cursor !== null && cursor.value.by !== by) cursor = await cursor.continue();
  return cursor?.value;
}

export async function needingAttention(by: string): Promise<QueuedWrite[]> {
  return (await (await db()).getAll('attention')).filter((write) => write.by === by);
}

/** The server took it: gone from the queue. */
export async function removeWaiting(seq: number): Promise<void> {
  await (await db()).delete('waiting', seq);
}

export async function markTried(write: QueuedWrite): Promise<void> {
  await (await db()).put('waiting', { ...write, tries: write.tries + 1 });
}

/** The server refused it: out of the queue, into "Needs your attention", in one step. */
export async function moveToAttention(write: QueuedWrite, refusal: Refusal): Promise<void> {
  const tx = (await db()).transaction(['waiting', 'attention'], 'readwrite');
  await Promise.all([
    tx.objectStore('attention').put({ ...write, refusal }),
    tx.objectStore('waiting').delete(write.seq),
    tx.done,
  ]);
}

/** Fixed (sent again from its form) or dropped by the person: gone from the list. */
export async function removeAttention(seq: number): Promise<void> {
  await (await db()).delete('attention', seq);
}
