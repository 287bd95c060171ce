/** A background task that runs now and then until stopped. */
export interface Repeating {
  /** No further runs; answers once a run under way has finished. */
  stop(): Promise<void>;
}

/**
 * Runs `work` every `intervalMs` (the timer does not keep the process alive), never
 * two at once: a run still going (a slow database) is not overlapped by the next.
 * A run that fails goes to `failed` and the next one runs as usual.
 */
export function every(
  intervalMs: number,
  work: () => Promise<unknown>,
  failed: (error: unknown) => void,
): Repeating {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    running ??= work()
      .catch(failed)
      .finally(() => (running = null));
  }, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
