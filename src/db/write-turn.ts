/**
 * Turns at writing between two SQLite connections of one process to the same file:
 * the server's, on the thread that serves requests, and a background thread's (the
 * webhook deliveries'). SQLite lets one connection write at a time; one that finds
 * another writing waits in its busy handler, which sleeps the thread 1, 2, 5, 10 ms
 * and more between tries. On the thread that serves requests that sleep stops every
 * request, not only the one writing: under a steady write load with deliveries
 * logging on their thread, it took a tenth of that thread's time.
 *
 * So each write transaction of the two connections, and each statement that writes
 * outside one (sqlite.ts), first takes its turn here, and waits for it without
 * blocking its thread (`Atomics.waitAsync`), woken the moment the other gives its
 * turn back. The background side goes first when both want a turn: it writes seldom
 * (a batch of deliveries at a time), and under load the server's transactions follow
 * each other closely enough to keep it waiting for ever.
 *
 * Only an order, never a lock anything relies on: SQLite's own lock still keeps writes
 * apart (other processes and the CLI take no turn), and a wait longer than
 * `PATIENCE_MS` goes ahead regardless.
 */

const LOCK = 0;
const WANTED = 1;

const FREE = 0;
const SERVER = 1;
const BACKGROUND = 2;

/** How long one side waits for the other's turn before it tries SQLite's lock anyway. */
export const PATIENCE_MS = 2000;

/** How long the server leaves a free turn to a background side that wants it. */
const COURTESY_MS = 50;

export type WriteTurnSide = 'server' | 'background';

export class WriteTurn {
  /** Shared with the other side's thread (a worker's `workerData` shares it, not copies it). */
  readonly buffer: SharedArrayBuffer;
  readonly #state: Int32Array;
  readonly #me: number;
  #held = false;

  constructor(
    side: WriteTurnSide,
    buffer = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT),
  ) {
    this.buffer = buffer;
    this.#state = new Int32Array(buffer);
    this.#me = side === 'server' ? SERVER : BACKGROUND;
  }

  /** Whether this side holds the turn now. */
  get held(): boolean {
    return this.#held;
  }

  /** Waits for this side's turn. */
  async take(): Promise<void> {
    const state = this.#state;
    const background = this.#me === BACKGROUND;
    if (background) Atomics.store(state, WANTED, 1);
    let started: number | null = null;
    let courteous = true;
    for (;;) {
      const yielding = !background && courteous && Atomics.load(state, WANTED) === 1;
      if (!yielding && Atomics.compareExchange(state, LOCK, FREE, this.#me) === FREE) break;
      // Timed only once it must wait: the server takes a free turn a thousand times a second.
      started ??= performance.now();
      const waited = performance.now() - started;
      if (waited >= PATIENCE_MS) {
        if (background) Atomics.store(state, WANTED, 0);
        return;
      }
      const seen = Atomics.load(state, LOCK);
      if (seen === FREE && !yielding) continue;
      const result = Atomics.waitAsync(
        state,
        LOCK,
        seen,
        yielding ? COURTESY_MS : PATIENCE_MS - waited,
      );
      const outcome = result.async ? await result.value : result.value;
      // A background side that wanted the turn and did not take it while free has gone.
      if (yielding && outcome === 'timed-out' && Atomics.load(state, LOCK) === FREE) {
        courteous = false;
      }
    }
    this.#held = true;
    if (background) {
      Atomics.store(state, WANTED, 0);
      // The server may be leaving it the turn (courtesy): it waits on that now.
      Atomics.notify(state, LOCK);
    }
  }

  /** Gives the turn back (nothing if this side does not hold it). */
  give(): void {
    if (!this.#held) return;
    this.#held = false;
    Atomics.compareExchange(this.#state, LOCK, this.#me, FREE);
    Atomics.notify(this.#state, LOCK);
  }

  /**
   * The background side's thread ended, maybe holding or wanting the turn: both are
   * cleared, so the server does not wait for a side that is gone.
   */
  static abandon(buffer: SharedArrayBuffer): void {
    const state = new Int32Array(buffer);
    Atomics.store(state, WANTED, 0);
    Atomics.compareExchange(state, LOCK, BACKGROUND, FREE);
    Atomics.notify(state, LOCK);
  }
}
