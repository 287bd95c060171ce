import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/** One API answer kept for reading offline: its envelope as the server sent it. */
export interface SavedAnswer {
  /** The read's address, normalised (`answerKey`). */
  readonly key: string;
  /** The answer's JSON text (`{ok, data, meta}`). */
  readonly body: string;
  /** When it was read from the server (ms since the epoch). */
  readonly savedAt: number;
}

/** A label code that opens a saved record offline. */
export interface SavedLabel {
  /** The code, lower-cased (the API matches identifiers ignoring case). */
  readonly code: string;
  readonly recordType: 'plant' | 'explant' | 'media_batch';
  readonly recordId: string;
  readonly displayName: string;
  readonly savedAt: number;
}

interface ReadsSchema extends DBSchema {
  answers: { key: string; value: SavedAnswer; indexes: { savedAt: number } };
  labels: { key: string; value: SavedLabel; indexes: { savedAt: number } };
  /** Whose reads these are (`owner`): another person's sign-in clears them. */
  meta: { key: string; value: string };
}

/** What is kept, at most: reads of the last days, and a count of them. */
export interface CacheCaps {
  readonly maxAgeMs: number;
  readonly maxAnswers: number;
  /** A larger answer (a long readings page) is not kept. */
  readonly maxAnswerBytes: number;
  readonly maxLabels: number;
}

const DAY = 86_400_000;

export const CACHE_CAPS: CacheCaps = {
  maxAgeMs: 7 * DAY,
  maxAnswers: 400,
  maxAnswerBytes: 512 * 1024,
  maxLabels: 2000,
};

/** The browser's database of reads kept for offline use (the write queue keeps its own). */
export const READS_DATABASE = 'vitro-reads';

/**
 * The reads kept in IndexedDB, within their caps: each put drops what is older than
 * `maxAgeMs` and the oldest beyond the counts; a get never answers an expired read.
 */
export class ReadStore {
  private constructor(
    private readonly db: IDBPDatabase<ReadsSchema>,
    private readonly caps: CacheCaps,
  ) {}

  static async open(caps: CacheCaps = CACHE_CAPS, name = READS_DATABASE): Promise<ReadStore> {
    const db = await openDB<ReadsSchema>(name, 1, {
      upgrade(database) {
        database.createObjectStore('answers', { keyPath: 'key' }).createIndex('savedAt', 'savedAt');
        database.createObjectStore('labels', { keyPath: 'code' }).createIndex('savedAt', 'savedAt');
        database.createObjectStore('meta');
      },
    });
    return new ReadStore(db, caps);
  }

  async owner(): Promise<string | null> {
    return (await this.db.get('meta', 'owner')) ?? null;
  }

  /** Makes `owner` the one whose reads are kept: another's are dropped first. */
  async claim(owner: string): Promise<void> {
    if ((await this.owner()) === owner) return;
    await this.clear();
    await this.db.put('meta', owner, 'owner');
  }

  /** Drops every read and label kept, and whose they were (sign-out). */
  async clear(): Promise<void> {
    const tx = this.db.transaction(['answers', 'labels', 'meta'], 'readwrite');
    await Promise.all([
      tx.objectStore('answers').clear(),
      tx.objectStore('labels').clear(),
      tx.objectStore('meta').clear(),
      tx.done,
    ]);
  }

  /** Keeps an answer unless it is too large; false when it was not kept. */
  async put(answer: SavedAnswer): Promise<boolean> {
    if (answer.body.length > this.caps.maxAnswerBytes) return false;
    await this.db.put('answers', answer);
    await this.trim('answers', this.caps.maxAnswers, answer.savedAt);
    return true;
  }

  async get(key: string, now: number): Promise<SavedAnswer | null> {
    const found = await this.db.get('answers', key);
    if (found === undefined) return null;
    if (found.savedAt < now - this.caps.maxAgeMs) {
      await this.db.delete('answers', key);
      return null;
    }
    return found;
  }

  async putLabels(labels: readonly SavedLabel[]): Promise<void> {
    if (labels.length === 0) return;
    const tx = this.db.transaction('labels', 'readwrite');
    await Promise.all([...labels.map((label) => tx.store.put(label)), tx.done]);
    await this.trim('labels', this.caps.maxLabels, labels[0]!.savedAt);
  }

  async label(code: string, now: number): Promise<SavedLabel | null> {
    const found = await this.db.get('labels', code.toLowerCase());
    return found === undefined || found.savedAt < now - this.caps.maxAgeMs ? null : found;
  }

  async count(store: 'answers' | 'labels'): Promise<number> {
    return this.db.count(store);
  }

  close(): void {
    this.db.close();
  }

  /** Drops the expired, then the oldest beyond `max`. */
  private async trim(store: 'answers' | 'labels', max: number, now: number): Promise<void> {
    const tx = this.db.transaction(store, 'readwrite');
    const bySavedAt = tx.store.index('savedAt');
    let extra = (await tx.store.count()) - max;
    let cursor = await bySavedAt.openCursor();
    while (cursor !== null) {
      if (extra <= 0 && cursor.value.savedAt >= now - this.caps.maxAgeMs) break;
      await cursor.delete();
      extra--;
      cursor = await cursor.continue();
    }
    await tx.done;
  }
}
